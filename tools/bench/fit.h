/*
 * fit.h - bspbench's line fit and its judgement of noise (header-only: the
 * tools are one program per .c; tests/profile/fit.c tests it alone).
 */
#ifndef SUPERSTEP_TOOLS_BENCH_FIT_H
#define SUPERSTEP_TOOLS_BENCH_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

struct fit {
    double g, l, r2;  /* seconds per word, seconds; r2: variance explained */
    double noise;     /* median |residual| / median time (fit_robust) */
};

/* Ordinary least squares t = l + g h over points [from, to). */
static inline struct fit fit_line(const int *hs, const double *th, int from, int to)
{
    struct fit f = { 0, 0, 1, 0 };
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

static inline int fit_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static inline double fit_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, fit_cmp);
    return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* A robust, non-negative fit t = l + g h over [from, to): g the median of
 * the slopes between every two points (Theil-Sen), l the median of
 * t - g h, both at least 0 (a BSP parameter is never negative); noise the
 * median residual relative to the median time. */
static inline struct fit fit_robust(const int *hs, const double *th, int from, int to)
{
    struct fit f = fit_line(hs, th, from, to);
    size_t n = (size_t)(to > from ? to - from : 0), m = 0;
    double *v = malloc((n * n + n + 1) * sizeof *v);
    if (!v)
        return f;
    for (int i = from; i < to; i++)
        for (int j = i + 1; j < to; j++)
            if (hs[j] != hs[i])
                v[m++] = (th[j] - th[i]) / (hs[j] - hs[i]);
    f.g = m ? fit_median(v, m) : 0;
    f.g = f.g > 0 ? f.g : 0;
    for (int i = from; i < to; i++)
        v[i - from] = th[i] - f.g * hs[i];
    f.l = fit_median(v, n);
    f.l = f.l > 0 ? f.l : 0;
    double mean = 0, ss = 0, res = 0;
    for (int i = from; i < to; i++)
        mean += th[i] / (double)n;
    for (int i = from; i < to; i++) {
        double e = th[i] - (f.l + f.g * hs[i]);
        res += e * e;
        ss += (th[i] - mean) * (th[i] - mean);
        v[i - from] = e < 0 ? -e : e;
    }
    f.r2 = ss > 0 ? 1 - res / ss : 1;
    double mres = fit_median(v, n);
    for (int i = from; i < to; i++)
        v[i - from] = th[i];
    double mt = fit_median(v, n);
    f.noise = mt > 0 ? mres / mt : 0;
    free(v);
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

/* A poor robust fit, and why in words (empty when good): the residuals
 * are above 10% of the times, the blocks of one h differ by more than half
 * their median, or the times do not grow with h (g = 0). */
static inline bool fit_poor(const struct fit *f, double spread, char *why, size_t n)
{
    int k = 0;
    *why = 0;
    if (f->noise > 0.1)
        k += snprintf(why + k, n - (size_t)k, "the points lie %.0f%% off the line", 100 * f->noise);
    if (spread > 0.5 && (size_t)k < n)
        k += snprintf(why + k, n - (size_t)k, "%sthe blocks of one h differ by up to %.0f%%", k ? ", " : "",
                      100 * spread);
    if (f->g <= 0 && (size_t)k < n)
        k += snprintf(why + k, n - (size_t)k, "%sthe times do not grow with h", k ? ", " : "");
    return k > 0;
}

#endif
