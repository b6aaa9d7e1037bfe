/*
 * ebsp.h - the Epiphany BSP kernel layer's internal interface: the kernel's
 * private state.  The session segment it shares with the host is
 * session/session.h.
 */
#ifndef SUPERSTEP_EBSP_H
#define SUPERSTEP_EBSP_H

#include "session/session.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The size a kernel's registration gets: Epiphany BSP ignores nbytes, so
 * no put or get is bounded by it (the largest size BSPlib accepts). */
#define REG_UNBOUNDED (1ull << 40)

/* ---- the kernel's private state (src/ebsp) ------------------------------- */

/* An allocator over one region; its bookkeeping is private, so the region
 * holds nothing but what the program stores in it. */
struct arena {
    char *base;
    uint64_t size;
    struct ablock { uint64_t off, len; } *blk;  /* allocated blocks, by offset */
    uint64_t n, cap;
};

void *arena_alloc(struct arena *a, uint64_t nbytes);
bool arena_free(struct arena *a, void *p);      /* false: not a block of a */
bool arena_owns(const struct arena *a, const void *p);
void arena_reset(struct arena *a, char *base, uint64_t size);

struct ebsp_kernel {
    bool begun;
    bool strict;                    /* SUPERSTEP_STRICT=1: upstream's survivable errors are fatal */
    bool sent_up;                   /* ebsp_send_up was called */
    bool mpi;                       /* spawned by a host on the mpi device (kmpi.c) */
    bool mpi_shared;                /* ... and the kernels share one copy of the session segment */
    bool hp_buffered;               /* mpi: an hp transfer waits for a superstep (ebsp_barrier) */
    bool direct_taken;              /* ebsp_get_direct_address gave another kernel's memory */
    struct segment seg;             /* the session segment */
    char *low;                      /* its first mem_end bytes again, below 4 GiB when possible */
    uint64_t low_size;
    struct ebsp_shared *sh;
    struct ebsp_proc *mine;
    struct arena local, ext;
    int64_t t0_ns, raw_last_ns;
};

extern struct ebsp_kernel ek;

/* Statistics, for the tests. */
struct ebsp_stats {
    uint64_t dma_pushed;            /* copies pushed */
    uint64_t dma_waited_busy;       /* ebsp_dma_wait calls that found the copy unfinished */
    uint64_t prefetch_used;         /* tokens move_down returned from a prefetch */
};
extern struct ebsp_stats ebsp_stats;

void ebsp_require_begun(const char *call);
void dma_drain(void);               /* wait for every copy pushed */
void ebsp_streams_end(void);        /* at bsp_end: close what is left open */
void ebsp_map_low(void);            /* at bsp_begin: map the memories below 4 GiB */
void ebsp_messages_begin(void);
/* An error that Epiphany BSP reports and survives: print its line
 * "BSP ERROR: <upstream>" in order with this processor's messages and
 * return (the caller then leaves the call without effect); with
 * SUPERSTEP_STRICT=1, Superstep's fatal error line instead (call + fmt). */
void ebsp_soft_error(const char *call, const char *upstream, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void elib_begin(void);              /* at bsp_begin: e-lib's group configuration */     /* at bsp_begin: order failure lines after messages */

#endif
