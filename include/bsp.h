/*
 * bsp.h - BSPlib for Superstep.
 *
 * Two dialects share one library:
 *   - the 1998 BSPlib standard (default): int processor ids and sizes;
 *   - the MulticoreBSP for C 2.x dialect, selected by defining
 *     SUPERSTEP_MCBSP (or MCBSP_DIALECT) before including this header:
 *     bsp_pid_t / bsp_nprocs_t (unsigned) and bsp_size_t (size_t) ids and
 *     sizes, and SIZE_MAX where 1998 returns -1 for an empty queue.
 *
 * Semantics common to both (see docs/architecture.md):
 *   - each BSP processor is a process; globals are private to it;
 *   - bsp_put copies its source when called; bsp_get reads the remote value
 *     at the end of the superstep, before any put of that superstep lands;
 *   - several puts to one place in one superstep: they are applied in order of
 *     source processor id, and in issue order within one source, so the last
 *     put of the highest-numbered source wins;
 *   - messages are delivered in order of source id, then send order.
 */
#ifndef SUPERSTEP_BSP_H
#define SUPERSTEP_BSP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(MCBSP_DIALECT) && !defined(SUPERSTEP_MCBSP)
#define SUPERSTEP_MCBSP 1
#endif

/* Version of the BSPlib interface implemented. */
#define BSPLIB_VERSION 1998
#define SUPERSTEP_VERSION "0.1.0"

#if defined(__GNUC__)
#define SUPERSTEP_NORETURN __attribute__((noreturn))
#define SUPERSTEP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SUPERSTEP_NORETURN
#define SUPERSTEP_PRINTF(a, b)
#endif

/* Common to both dialects. */
void bsp_init(void (*spmd)(void), int argc, char **argv);
void bsp_end(void);
double bsp_time(void);
void bsp_sync(void);
void bsp_pop_reg(const void *ident);
void bsp_abort(const char *format, ...) SUPERSTEP_NORETURN SUPERSTEP_PRINTF(1, 2);
void bsp_vabort(const char *format, va_list args) SUPERSTEP_NORETURN;

#ifndef SUPERSTEP_MCBSP

void bsp_begin(int maxprocs);
int bsp_nprocs(void);
int bsp_pid(void);
void bsp_push_reg(const void *ident, int size);
void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes);
void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes);
void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes);
void bsp_set_tagsize(int *tag_nbytes);
void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes);
void bsp_qsize(int *nmessages, int *accum_nbytes);
void bsp_get_tag(int *status, void *tag);
void bsp_move(void *payload, int reception_nbytes);
int bsp_hpmove(void **tag_ptr_buf, void **payload_ptr_buf);

#else /* MulticoreBSP for C 2.x dialect */

typedef unsigned int bsp_pid_t;
typedef unsigned int bsp_nprocs_t;
typedef size_t bsp_size_t;

#define bsp_begin bsp_mc_begin
#define bsp_nprocs bsp_mc_nprocs
#define bsp_pid bsp_mc_pid
#define bsp_push_reg bsp_mc_push_reg
#define bsp_put bsp_mc_put
#define bsp_get bsp_mc_get
#define bsp_hpput bsp_mc_hpput
#define bsp_hpget bsp_mc_hpget
#define bsp_set_tagsize bsp_mc_set_tagsize
#define bsp_send bsp_mc_send
#define bsp_qsize bsp_mc_qsize
#define bsp_get_tag bsp_mc_get_tag
#define bsp_move bsp_mc_move
#define bsp_hpmove bsp_mc_hpmove

void bsp_begin(bsp_pid_t P);
bsp_nprocs_t bsp_nprocs(void);
bsp_pid_t bsp_pid(void);
void bsp_push_reg(const void *address, bsp_size_t size);
void bsp_put(bsp_pid_t pid, const void *source, const void *destination,
             bsp_size_t offset, bsp_size_t size);
void bsp_get(bsp_pid_t pid, const void *source, bsp_size_t offset,
             void *destination, bsp_size_t size);
void bsp_hpput(bsp_pid_t pid, const void *source, const void *destination,
               bsp_size_t offset, bsp_size_t size);
void bsp_hpget(bsp_pid_t pid, const void *source, bsp_size_t offset,
               void *destination, bsp_size_t size);
void bsp_set_tagsize(bsp_size_t *size);
void bsp_send(bsp_pid_t pid, const void *tag, const void *payload,
              bsp_size_t size);
void bsp_qsize(bsp_nprocs_t *packets, bsp_size_t *accumulated_size);
void bsp_get_tag(bsp_size_t *status, void *tag);
void bsp_move(void *payload, bsp_size_t max_copy_size);
bsp_size_t bsp_hpmove(void **p_tag, void **p_payload);

#endif

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_BSP_H */
