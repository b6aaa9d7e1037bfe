/*
 * cost.h - how the profiler splits a superstep's time, shared by the trace
 * writer (profile.c) and its reader (tools/bspprof.c), so that both give the
 * same figures.
 *
 * For one processor, superstep k runs from the end of its bsp_sync k-1 (or
 * bsp_begin) to the end of bsp_sync k (or the start of bsp_end), and is
 * exactly
 *     time = work + wait + comm   (+ prof, the profiler's own counting,
 *                                  shown apart and left out of time)
 * work: before bsp_sync; wait: inside the barriers; comm: serving gets and
 * direct transfers and applying what arrived.
 *
 * The superstep's time T is the longest time any processor spent in it, and
 * its work / comm / wait are that processor's (the "critical" processor),
 * so they add up to T and none is negative.  Processors leave a bsp_sync at
 * different moments (one applies more data than another), so one's work in
 * superstep k overlaps another's communication of k-1: subtracting the
 * slowest work from the span between the last ends of k-1 and k (what an
 * earlier version did) could go negative.  The largest work of any
 * processor, w, is never more than T, and the BSP prediction is
 * w + g*h + l.
 */
#ifndef SUPERSTEP_PROFILE_COST_H
#define SUPERSTEP_PROFILE_COST_H

#include <stdbool.h>
#include <stdint.h>

struct cost_cell {       /* one processor in one superstep, microseconds */
    bool seen;
    double start, end;
    double work, wait, comm, prof;
};

struct cost_row {        /* one superstep */
    double t;            /* the critical processor's time */
    double work, comm, wait;
    int crit;            /* the critical processor, -1: none seen */
    double wmax, wmean;  /* the largest and the mean work */
    double h_bytes, h_records;
    bool last;           /* closed by bsp_end: work only */
};

static inline double cost_time(const struct cost_cell *c)
{
    return c->work + c->wait + c->comm;
}

static inline struct cost_row cost_row(const struct cost_cell *cells, int p)
{
    struct cost_row r = { .crit = -1 };
    int seen = 0;
    double wsum = 0;
    for (int s = 0; s < p; s++) {
        const struct cost_cell *c = &cells[s];
        if (!c->seen)
            continue;
        seen++;
        wsum += c->work;
        if (c->work > r.wmax)
            r.wmax = c->work;
        if (r.crit < 0 || cost_time(c) > r.t) {
            r.crit = s;
            r.t = cost_time(c);
        }
    }
    if (r.crit >= 0) {
        r.work = cells[r.crit].work;
        r.comm = cells[r.crit].comm;
        r.wait = cells[r.crit].wait;
        r.wmean = wsum / seen;
    }
    return r;
}

/* The BSP cost of a superstep, microseconds: w + g*h + l, h in words of
 * 'word' bytes; the superstep bsp_end closes is work only. */
static inline double cost_predict(const struct cost_row *r, double g, double l, double word)
{
    return r->last ? r->wmax : r->wmax + g * (r->h_bytes / word) + l;
}

#endif
