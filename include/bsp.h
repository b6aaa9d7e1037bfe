/*
 * bsp.h - BSPlib for Superstep.
 *
 * One header for three ways of writing a BSPlib program:
 *   - the 1998 BSPlib standard: int processor ids and sizes, -1 for "none";
 *   - MulticoreBSP for C 2.x: bsp_pid_t / bsp_nprocs_t (unsigned int) and
 *     bsp_size_t (size_t) ids and sizes, SIZE_MAX for "none";
 *   - BSPonMPI: the 1998 calls used with bsp_pid_t / bsp_size_t variables.
 * With no flag (the default) both kinds of program compile unchanged and
 * without warnings, in C and C++: value arguments are taken as 64-bit
 * signed integers (so an int -1 reaches the checks as -1), and the calls
 * with pointer arguments (bsp_set_tagsize, bsp_qsize, bsp_get_tag) look at
 * the pointed-to type (C11 _Generic, C++ templates) and read and write an
 * int, unsigned int, long or size_t as such; what "none" means follows that
 * type (-1 in a signed one, its maximum in an unsigned one).  bsp_pid() and
 * bsp_nprocs() return an int that the compiler knows is not negative, so it
 * compares without warnings with int and with unsigned variables.
 * bsp_hpmove returns a long long, -1 for an empty queue (equal to SIZE_MAX
 * once stored in a bsp_size_t).
 *
 * Forcing one dialect, as before (all declarations then have that
 * dialect's exact types; no macros around the calls):
 *   MCBSP_COMPATIBILITY_MODE  the 1998 types (MulticoreBSP's name for it);
 *                             bsp_pid_t, bsp_nprocs_t, bsp_size_t are int;
 *   SUPERSTEP_MCBSP (or MCBSP_DIALECT)  MulticoreBSP 2.x's types.
 * e_bsp.h and host_bsp.h use the 1998 dialect.
 *
 * Semantics common to all (see docs/architecture.md and
 * docs/compatibility.md):
 *   - each BSP processor is a process; globals are private to it;
 *   - bsp_put copies its source when called; bsp_get reads the remote value
 *     at the end of the superstep, before any put of that superstep lands,
 *     and the replies of all gets land before any put of the superstep, so a
 *     put to the same bytes wins;
 *   - several puts to one place in one superstep: they are applied in order of
 *     source processor id, and in issue order within one source, so the last
 *     put of the highest-numbered source wins;
 *   - bsp_push_reg and bsp_pop_reg take effect in call order at the sync (a
 *     push and a pop of one address in one superstep cancel);
 *   - messages are delivered in order of source id, then send order.
 */
#ifndef SUPERSTEP_BSP_H
#define SUPERSTEP_BSP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
/* The Oxford toolset's bsp.h made <stdio.h> visible and its programs use
 * stdout without including it: so in the dialects 1998 programs compile
 * in (not MulticoreBSP's, not Epiphany's). */
#if !defined(SUPERSTEP_MCBSP) && !defined(MCBSP_DIALECT) && !defined(SUPERSTEP_E_BSP_H) && !defined(SUPERSTEP_HOST_BSP_H)
#include <stdio.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(MCBSP_DIALECT) && !defined(SUPERSTEP_MCBSP)
#define SUPERSTEP_MCBSP 1
#endif
#if defined(MCBSP_COMPATIBILITY_MODE) || defined(SUPERSTEP_E_BSP_H) || defined(SUPERSTEP_HOST_BSP_H)
#ifdef SUPERSTEP_MCBSP
#error "bsp.h: MCBSP_COMPATIBILITY_MODE (1998 types) and SUPERSTEP_MCBSP (MulticoreBSP types) exclude each other"
#endif
#define SUPERSTEP_BSPLIB1998 1
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

/* MulticoreBSP for C extensions, in every dialect (any integer types). */
#define bsp_direct_get bsp_any_direct_get
#define bsp_hpsend bsp_any_hpsend
void bsp_direct_get(long long pid, const void *src, long long offset, void *dst, long long nbytes);
void bsp_hpsend(long long pid, const void *tag, const void *payload, long long nbytes);

#if defined(SUPERSTEP_BSPLIB1998) /* ---- the 1998 standard's types, exactly */

typedef int bsp_pid_t;
typedef int bsp_nprocs_t;
typedef int bsp_size_t;

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

#elif !defined(SUPERSTEP_MCBSP) /* ---- the default: both dialects' types */

typedef unsigned int bsp_pid_t;
typedef unsigned int bsp_nprocs_t;
typedef size_t bsp_size_t;

#define bsp_begin bsp_any_begin
#define bsp_push_reg bsp_any_push_reg
#define bsp_put bsp_any_put
#define bsp_get bsp_any_get
#define bsp_hpput bsp_any_hpput
#define bsp_hpget bsp_any_hpget
#define bsp_send bsp_any_send
#define bsp_hpmove bsp_any_hpmove

void bsp_begin(long long maxprocs);
int bsp_nprocs(void);
int bsp_pid(void);
void bsp_push_reg(const void *ident, long long size);
void bsp_put(long long pid, const void *src, const void *dst, long long offset, long long nbytes);
void bsp_get(long long pid, const void *src, long long offset, void *dst, long long nbytes);
void bsp_hpput(long long pid, const void *src, const void *dst, long long offset, long long nbytes);
void bsp_hpget(long long pid, const void *src, long long offset, void *dst, long long nbytes);
void bsp_send(long long pid, const void *tag, const void *payload, long long nbytes);
long long bsp_hpmove(void **tag_ptr_buf, void **payload_ptr_buf);

/* Where a pointer argument points: the size of the integer, plus 0x100 when
 * it is signed; 0 for NULL or another type. */
#define SUPERSTEP_KIND_SIGNED 0x100
void bsp_any_set_tagsize(void *size, int kind);
void bsp_any_qsize(void *nmessages, int nkind, void *nbytes, int bkind);
void bsp_any_get_tag(void *status, int kind, void *tag);
void bsp_any_move(void *payload, long long nbytes, int is_signed);

/* Not negative and known so to the compiler: compares without a warning
 * with signed and unsigned variables alike. */
#define bsp_nprocs() ((int)(bsp_nprocs() & 0x7fffffff))
#define bsp_pid() ((int)(bsp_pid() & 0x7fffffff))

#ifndef __cplusplus
#define SUPERSTEP_KIND(p)                                                                    \
    _Generic((p), int *: SUPERSTEP_KIND_SIGNED | sizeof(int), unsigned int *: sizeof(int),   \
             long *: SUPERSTEP_KIND_SIGNED | sizeof(long), unsigned long *: sizeof(long),    \
             long long *: SUPERSTEP_KIND_SIGNED | sizeof(long long),                        \
             unsigned long long *: sizeof(long long), default: 0)
#define SUPERSTEP_SIGNED(v)                                                                  \
    _Generic((v), unsigned int: 0, unsigned long: 0, unsigned long long: 0, default: 1)
#define bsp_set_tagsize(p) bsp_any_set_tagsize((p), SUPERSTEP_KIND(p))
#define bsp_qsize(n, b) bsp_any_qsize((n), SUPERSTEP_KIND(n), (b), SUPERSTEP_KIND(b))
#define bsp_get_tag(s, t) bsp_any_get_tag((s), SUPERSTEP_KIND(s), (t))
#define bsp_move(p, n) bsp_any_move((p), (long long)(n), SUPERSTEP_SIGNED(n))
#endif

#else /* ---- MulticoreBSP for C 2.x types, exactly */

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

#if defined(__cplusplus) && !defined(SUPERSTEP_BSPLIB1998) && !defined(SUPERSTEP_MCBSP)
/* C++: the pointer-typed calls as templates over the integer pointed to. */
#include <cstddef>
#include <type_traits>
template <class T> inline int superstep_kind(T *)
{
    static_assert(std::is_integral<T>::value && !std::is_const<T>::value,
                  "BSPlib: expected a pointer to a modifiable integer");
    return (int)sizeof(T) | (std::is_signed<T>::value ? SUPERSTEP_KIND_SIGNED : 0);
}
inline int superstep_kind(std::nullptr_t) { return 0; }
template <class T> inline void bsp_set_tagsize(T *size) { bsp_any_set_tagsize(size, superstep_kind(size)); }
template <class A, class B> inline void bsp_qsize(A *n, B *b)
{
    bsp_any_qsize(n, superstep_kind(n), b, superstep_kind(b));
}
template <class B> inline void bsp_qsize(std::nullptr_t, B *b) { bsp_any_qsize(nullptr, 0, b, superstep_kind(b)); }
template <class A> inline void bsp_qsize(A *n, std::nullptr_t) { bsp_any_qsize(n, superstep_kind(n), nullptr, 0); }
template <class T> inline void bsp_get_tag(T *status, void *tag) { bsp_any_get_tag(status, superstep_kind(status), tag); }
template <class T> inline void bsp_move(void *payload, T nbytes)
{
    static_assert(std::is_integral<T>::value, "BSPlib: bsp_move takes an integer size");
    bsp_any_move(payload, (long long)nbytes, std::is_signed<T>::value);
}
#endif

#endif /* SUPERSTEP_BSP_H */
