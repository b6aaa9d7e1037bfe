/*
 * records.h - the profiler's record layout, shared by the recorder
 * (profile.c) and the trace writer (trace.c).
 */
#ifndef SUPERSTEP_PROFILE_RECORDS_H
#define SUPERSTEP_PROFILE_RECORDS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PROF_MAGIC 0x53535450524f4631ull /* "SSTPROF1" */
#define PROF_SPACE (64ull << 30)         /* sparse reservation */
#define PROF_CHUNK (1ull << 20)

/* REC_FAIL exists only in a failed job's trace (never in the records):
 * a processor's part of the superstep the failure came in, up to the
 * failure: t_begin when it came to a call (or the failure), t_end the
 * failure. */
enum { REC_SYNC = 1, REC_END = 2, REC_FAIL = 3 };

/* The times a bsp_sync takes, in the order it takes them (see struct
 * prof_rec); the last two only in a superstep with gets or direct
 * transfers. */
enum { ST_BEGIN, ST_WAIT1, ST_SCAN1, ST_SERVED, ST_WAIT2, ST_SCAN2, ST_STAMPS };

/*
 * The bsp_sync in progress, where a failed job's trace can read it: a
 * processor stopped inside the bsp_sync of a superstep that another
 * processor completed (it passed the barrier, but the failure stopped it
 * before its record was written) still shows how far it got.  'stage' is
 * the superstep * 8 + the number of stamps taken, stored (release) after
 * each stamp.
 */
struct prof_pending {
    _Atomic uint64_t stage;
    _Atomic int64_t at[ST_STAMPS];
};

struct prof_proc {
    _Alignas(64) _Atomic uint64_t head; /* offset of the first chunk, 0: none (one cache line each: no false sharing) */
    _Atomic uint64_t nrec;    /* records written */
    int64_t t_start;          /* when bsp_begin returned here */
    int32_t os_pid;
    struct prof_pending pending;
};

struct prof_hdr {
    uint64_t magic;
    _Atomic uint64_t brk;
    uint64_t size;
    int64_t t0;               /* CLOCK_MONOTONIC ns at bsp_begin */
    uint32_t nprocs;
    _Atomic uint32_t truncated;
    _Atomic uint32_t unknown;     /* a record kind the scan does not know */
    uint32_t pad;
    struct prof_proc proc[];
};

struct prof_chunk {
    uint64_t next;
    uint64_t used;            /* bytes of records after this header */
};

struct prof_rec {
    uint32_t kind;
    uint32_t nsrc;            /* struct prof_src entries that follow */
    uint32_t ndir;            /* then struct prof_dir entries */
    uint32_t nwait;           /* barriers passed in this sync (1 or 2) */
    uint64_t step;
    int64_t t_begin, t_wait1, t_served, t_wait2, t_end;
    int64_t t_scan1, t_scan2; /* end of the profiler's own counting after each barrier */
};

struct prof_src {
    uint32_t src, records;
    uint64_t bytes, stream;
};

struct prof_dir {
    uint32_t peer, pad;
    uint64_t put_bytes, put_ops, get_bytes, get_ops;
};

static inline size_t prof_rec_size(const struct prof_rec *r)
{
    return sizeof *r + r->nsrc * sizeof(struct prof_src) + r->ndir * sizeof(struct prof_dir);
}

/* One processor's records, in order, as the trace writer reads them. */
struct prof_view {
    const struct prof_rec **rec;
    uint64_t nrec;
    int64_t t_start;          /* ns since the job's t0 */
    struct prof_rec stopped;  /* its bsp_sync in progress, when it is rec[nrec - 1] (trace_info.stopped) */
    struct prof_rec failed;   /* the failing superstep (REC_FAIL), when it is rec[nrec - 1] */
};

struct trace_info {
    uint32_t p;
    bool truncated, unknown;
    bool failed;              /* the job failed: the supersteps up to the failure are traced */
    const bool *missing;      /* [p]: processors whose records are lost (a failed job on mpi); NULL: none */
    const bool *stopped;      /* [p]: processors whose last record is their view's 'stopped'; NULL: none */
    const char *failure;      /* the failed job's line, or NULL */
    bool failed_step;         /* the last superstep is the one the failure came in (REC_FAIL records) */
    uint64_t detail;          /* supersteps traced slice by slice (beyond: totals only) */
};

/* Write the Chrome trace of the views to f. */
void trace_write(FILE *f, const struct prof_view *v, const struct trace_info *info);

/* Index the records of a chain of chunks, or of one buffer (gathered);
 * false when out of memory. */
bool prof_view_index(struct prof_view *v, const char *data, size_t len, uint64_t nrec);

#endif
