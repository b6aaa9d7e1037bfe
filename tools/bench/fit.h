/*
 * fit.h - bspbench's line fit and its judgement of noise (header-only: the
 * tools are one program per .c; tests/profile/fit.c tests it alone).
 */
#ifndef SUPERSTEP_TOOLS_BENCH_FIT_H
#define SUPERSTEP_TOOLS_BENCH_FIT_H

#include <stdbool.h>
#include <stddef.h>

struct fit {
    double g, l, r2;  /* seconds per word, seconds; r2: variance explained */
};

/* Ordinary least squares t = l + g h over points [from, to). */
static inline struct fit fit_line(const int *hs, const double *th, int from, int to)
{
    struct fit f = { 0, 0, 1 };
    int n = to - from;
    double sh = 0, st = 0, shh = 0, sht = 0;
    for (int k = from; k < to; k++) {
        sh += hs[k];
        st += th[k];
        shh += (double)hs[k] * hs[k];
        sht += hs[k] * th[k];
    }
    double den = n * shh - sh * sh;
    f.g = den != 0 ? (n * sht - sh * st) / den : 0;
    f.l = n ? (st - f.g * sh) / n : 0;
    double mean = n ? st / n : 0, ss = 0, res = 0;
    for (int k = from; k < to; k++) {
        double e = th[k] - (f.l + f.g * hs[k]);
        res += e * e;
        ss += (th[k] - mean) * (th[k] - mean);
    }
    f.r2 = ss > 0 ? 1 - res / ss : 1;
    return f;
}

/* The largest spread of the blocks of one h, relative to their median. */
static inline double block_spread(const double *blk, int npts, int nblocks)
{
    double worst = 0;
    for (int k = 0; k < npts; k++) {
        const double *b = blk + (size_t)k * nblocks; /* each sorted */
        double lo = b[nblocks / 4], hi = b[nblocks - 1 - nblocks / 4], mid = b[nblocks / 2];
        if (mid > 1e-6 && (hi - lo) / mid > worst) /* below 1 us the clock's grain dominates */
            worst = (hi - lo) / mid;
    }
    return worst;
}

/* Too noisy to trust: the line explains less than 90% of the variance of
 * the times, gives a negative (or zero) g or a negative l, or the blocks
 * of one h differ by more than half their median. */
static inline bool fit_noisy(const struct fit *f, double spread)
{
    return f->r2 < 0.9 || f->g <= 0 || f->l < 0 || spread > 0.5;
}

#endif
