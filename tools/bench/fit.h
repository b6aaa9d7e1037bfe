/*
 * fit.h - bspbench's estimates of g and l and its judgement of them
 * (header-only: the tools are one program per .c; tests/profile/fit.c
 * tests it alone, on made-up timings).
 *
 * The input is one time per h and round: blk[k * nblocks + b], the time
 * of a superstep that realises an hs[k]-relation in round b (bspbench:
 * the median of the block's supersteps, so a block that lost the
 * processor for part of it still counts its typical superstep).  hs[0]
 * is 0: the empty superstep.
 *   t(h)   the median over the rounds;
 *   g      the Theil-Sen slope of t(h) over the points [from, npts): the
 *          median of the slopes between every two points, robust to a
 *          few points off the line;
 *   l      the line's intercept (the median of t - g h), but never below
 *          the floor t(0), the empty superstep: a superstep that
 *          communicates cannot cost less than one that does not, and the
 *          intercept of a line through large h is the difference of two
 *          large numbers (at p = 2 it fell below t(0), at p = 4 below 0);
 *   noise  the one measure of how well the line fits: the median over the
 *          points of |t - line| / t;
 *   g_sd, l_sd  how much g and l move between rounds: the same estimate
 *          made from each round alone, and the robust standard deviation
 *          (1.4826 times the median absolute deviation) of those.
 */
#ifndef SUPERSTEP_TOOLS_BENCH_FIT_H
#define SUPERSTEP_TOOLS_BENCH_FIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fit {
    double g, l;        /* seconds per word, seconds per superstep (l >= floor) */
    double floor;       /* t(0): the empty superstep */
    double intercept;   /* the line's own, which l may exceed */
    double noise;       /* median |t - (intercept + g h)| / t over the points */
    double g_sd, l_sd;  /* robust standard deviation of the rounds' g and l */
};

static inline int fit_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of v[0..n) (sorts v). */
static inline double fit_median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, fit_cmp);
    return n == 0 ? 0 : n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Theil-Sen over t[from, to) (stride apart in t): *g the median pairwise
 * slope, at least 0 (a time that falls with h is no cost per word); the
 * return value the intercept, the median of t - g h. */
static inline double fit_theil_sen(const int *hs, const double *t, size_t stride, int from, int to, double *g)
{
    size_t n = (size_t)(to > from ? to - from : 0), m = 0;
    double *v = malloc((n * n / 2 + n + 1) * sizeof *v);
    if (!v) {
        *g = 0;
        return 0;
    }
    for (int i = from; i < to; i++)
        for (int j = i + 1; j < to; j++)
            if (hs[j] != hs[i])
                v[m++] = (t[(size_t)j * stride] - t[(size_t)i * stride]) / (hs[j] - hs[i]);
    *g = m ? fit_median(v, m) : 0;
    *g = *g > 0 ? *g : 0;
    for (int i = from; i < to; i++)
        v[i - from] = t[(size_t)i * stride] - *g * hs[i];
    double b = fit_median(v, n);
    free(v);
    return b;
}

/* The median of |t - (b + g h)| / t over [from, to). */
static inline double fit_noise(const int *hs, const double *t, int from, int to, double g, double b)
{
    size_t n = (size_t)(to > from ? to - from : 0);
    double *v = malloc((n + 1) * sizeof *v);
    if (!v)
        return 0;
    for (int i = from; i < to; i++) {
        double e = t[i] - (b + g * hs[i]);
        v[i - from] = t[i] > 0 ? (e < 0 ? -e : e) / t[i] : 0;
    }
    double r = fit_median(v, n);
    free(v);
    return r;
}

/* 1.4826 times the median absolute deviation of v[0..n) from c (sorts v). */
static inline double fit_sd(double *v, size_t n, double c)
{
    for (size_t i = 0; i < n; i++)
        v[i] = v[i] < c ? c - v[i] : v[i] - c;
    return 1.4826 * fit_median(v, n);
}

/* The estimates from blk (see the top), over the points [from, npts);
 * t receives t(h) for every point. */
static inline struct fit fit_bsp(const int *hs, const double *blk, int npts, int nblocks, int from, double *t)
{
    struct fit f = { 0 };
    double *v = malloc(((size_t)nblocks + 1) * sizeof *v), *rg = malloc(((size_t)nblocks + 1) * sizeof *rg),
           *rl = malloc(((size_t)nblocks + 1) * sizeof *rl);
    if (!v || !rg || !rl) {
        free(v), free(rg), free(rl);
        return f;
    }
    for (int k = 0; k < npts; k++) {
        memcpy(v, blk + (size_t)k * nblocks, (size_t)nblocks * sizeof *v);
        t[k] = fit_median(v, (size_t)nblocks);
    }
    f.floor = t[0];
    f.intercept = fit_theil_sen(hs, t, 1, from, npts, &f.g);
    f.l = f.intercept > f.floor ? f.intercept : f.floor;
    f.noise = fit_noise(hs, t, from, npts, f.g, f.intercept);
    for (int b = 0; b < nblocks; b++) { /* the same estimate from round b alone */
        double floor = blk[b], icpt = fit_theil_sen(hs, blk + b, (size_t)nblocks, from, npts, &rg[b]);
        rl[b] = icpt > floor ? icpt : floor;
    }
    f.g_sd = fit_sd(rg, (size_t)nblocks, f.g);
    f.l_sd = fit_sd(rl, (size_t)nblocks, f.l);
    free(v), free(rg), free(rl);
    return f;
}

/* A poor fit, and why in words (empty when good): the points lie more
 * than 10% off the line (median), g moves by more than 25% between rounds
 * or l by more than 50% (one round's intercept, from large h, is coarse:
 * where l is a few percent of the times, their noise is much of l), or
 * the times do not grow with h (g = 0). */
static inline bool fit_poor(const struct fit *f, char *why, size_t n)
{
    int k = 0;
    *why = 0;
    if (f->noise > 0.1)
        k += snprintf(why + k, n - (size_t)k, "the points lie %.0f%% off the line", 100 * f->noise);
    if (f->g > 0 && f->g_sd > 0.25 * f->g && (size_t)k < n)
        k += snprintf(why + k, n - (size_t)k, "%sg differs by %.0f%% between rounds", k ? ", " : "",
                      100 * f->g_sd / f->g);
    if (f->l > 0 && f->l_sd > 0.5 * f->l && (size_t)k < n)
        k += snprintf(why + k, n - (size_t)k, "%sl differs by %.0f%% between rounds", k ? ", " : "",
                      100 * f->l_sd / f->l);
    if (f->g <= 0 && (size_t)k < n)
        k += snprintf(why + k, n - (size_t)k, "%sthe times do not grow with h", k ? ", " : "");
    return k > 0;
}

#endif
