/*
 * session.h - the session segment that an Epiphany host (src/host) and its
 * kernels (src/ebsp) share: its layout and the two helpers both sides use.
 *
 * A host session (bsp_begin .. bsp_end) owns one "session segment", created
 * at its first need and kept over every run: the processors' local and
 * external memories, the streams, the messages going down and up, and the
 * rings carrying ebsp_message lines.  Each run also has its own job segment
 * (channels, barrier, launch tables), made fresh by the device at every
 * ebsp_spmd.  A kernel finds the session segment through the environment
 * variable EBSP_ENV_FD.  Everything in it is addressed by offset: every
 * process maps it at its own address.
 *
 * A layer of its own below both sides (and below the devices, whose mpi
 * device ends a spawned kernel's run with session_mpi.h's packet), so that
 * neither the host nor the kernel layer includes the other's header.
 */
#ifndef SUPERSTEP_SESSION_H
#define SUPERSTEP_SESSION_H

#include "barrier/barrier.h"
#include "segment/segment.h"
#include "settings/settings.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EBSP_ENV_FD "SUPERSTEP_EBSP_FD"
#define EBSP_MAGIC 0x4542535053455331ull /* "EBSPSES1" */

#define EBSP_RING (64u << 10)           /* bytes of each ebsp_message ring */
#define EBSP_MAX_LINE (EBSP_RING / 4)   /* longest message kept whole */
/* A message in a ring: its length (4 bytes), its ticket (8), its text,
 * padded to 4 bytes.  Tickets count the run's messages in the order they
 * were written; the host prints in ticket order. */
#define EBSP_MSG_HDR 12u

static inline uint64_t ebsp_msg_size(uint32_t len)
{
    return (EBSP_MSG_HDR + (uint64_t)len + 3) & ~3ull;
}
#define EBSP_ALIGN 16                   /* allocations and records */

/* One processor's part of the session segment. */
struct ebsp_proc {
    /* laid out by the host when the segment is made */
    uint64_t local_off, ext_off, ring_off;
    /* the run's messages to this processor: records (ebsp_rec), by the host */
    uint64_t down_off, down_cap, down_len, down_count;
    /* messages to the host: records, by the kernel; the host resets them */
    uint64_t up_off, up_cap, up_len, up_count;
    _Atomic uint64_t base;          /* where this kernel maps the segment */
    _Atomic uint64_t ring_head;     /* bytes written to the ring (kernel) */
    _Atomic uint64_t ring_tail;     /* bytes printed from it (host) */
    _Atomic uint32_t ring_drained;  /* futex word: bumped by the host after printing */
    _Atomic uint32_t in_hsync;      /* waiting in ebsp_host_sync */
    /* The superstep this kernel has applied (the BSP layer's 'applied'
     * word: here, where the kernels share memory, on mpi too) */
    struct counted_word applied;
    char pad[SEG_LINE - 4 - sizeof(struct counted_word)];
};

/* A stream made by bsp_stream_create. */
struct ebsp_stream_desc {
    uint64_t off, nbytes;           /* its memory: tokens with headers */
    uint32_t token_size;
    _Atomic int32_t owner;          /* the processor it is open on, -1: none */
};

/* A stream of the deprecated API (ebsp_create_down_stream / _up_stream):
 * for one core, numbered per core in creation order.  A down stream is laid
 * out as a stream of bsp_stream_create; an up stream is raw bytes. */
struct ebsp_dep_desc {
    uint64_t off, nbytes;
    uint32_t core, chunk;
    uint32_t down, pad;
};

/* The header before every token of a stream; next == 0 ends the stream. */
struct ebsp_token {
    int32_t prev, next;
};

/* A message down or up: followed by tagsize bytes of tag, nbytes of
 * payload, padded to EBSP_ALIGN. */
struct ebsp_rec {
    uint32_t tagsize, pad;
    uint64_t nbytes;
};

static inline uint64_t ebsp_rec_size(uint64_t tagsize, uint64_t nbytes)
{
    return (sizeof(struct ebsp_rec) + tagsize + nbytes + EBSP_ALIGN - 1) & ~(uint64_t)(EBSP_ALIGN - 1);
}

/* At the segment's root[ROOT_HOST]. */
struct ebsp_shared {
    uint64_t magic;
    uint32_t nprocs;
    uint32_t tagsize;               /* the host's, for this run */
    uint64_t local_size, ext_size;
    _Atomic uint32_t doorbell;      /* futex word the host waits on while a run goes */
    _Atomic uint32_t ended;         /* processors that reached bsp_end */
    _Atomic uint32_t hsync_arrived; /* processors in ebsp_host_sync */
    _Atomic uint32_t hsync_gen;     /* futex word: bumped when the host releases them */
    _Atomic uint32_t up_tagsize;    /* the kernels' tag size at the end */
    _Atomic uint32_t up_tagsize_set;
    _Atomic uint64_t msg_ticket;    /* the next ebsp_message's ticket */
    _Atomic uint32_t aborted;       /* a kernel called bsp_abort (upstream's output) */
    uint64_t streams_off;           /* struct ebsp_stream_desc[capstreams] */
    uint32_t nstreams, capstreams;
    uint64_t deps_off;              /* struct ebsp_dep_desc[capdeps] (deprecated streams) */
    uint64_t mem_end;               /* the processors' memories and rings end here */
    uint32_t ndeps, capdeps;
    char pad[SEG_LINE];
    struct ebsp_proc proc[];
};

static inline struct ebsp_shared *ebsp_shared_of(const struct segment *s)
{
    return seg_ptr(s, s->hdr->root[ROOT_HOST]);
}

/* A size from the environment (bytes, or with K/M/G), or 'def'. */
uint64_t ebsp_size_from_env(enum setting s);

/* Tell the host something happened (a message, an arrival, an end). */
void ebsp_ring_doorbell(struct ebsp_shared *sh);

#endif
