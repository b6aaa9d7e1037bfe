/*
 * bench.h - timing helpers shared by the bench/ programs.
 *
 * Every figure is a median: of blocks of repetitions (a block long enough
 * that the clock's cost does not matter, short enough that most blocks are
 * not interrupted on a shared 2-core machine).  Programs print one result
 * per line as "name value unit", which bench/run collects.
 */
#ifndef SUPERSTEP_BENCH_H
#define SUPERSTEP_BENCH_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int bench_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of v[0..n) (sorts v). */
static inline double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* The spread of v (sorted by bench_median): the quartiles. */
static inline double bench_q1(const double *v, int n) { return v[n / 4]; }
static inline double bench_q3(const double *v, int n) { return v[(3 * n) / 4 < n ? (3 * n) / 4 : n - 1]; }

static inline void bench_result(const char *name, double value, const char *unit)
{
    printf("%s %.6g %s\n", name, value, unit);
    fflush(stdout);
}

/* Quick mode (bench/run --quick sets SUPERSTEP_BENCH_QUICK=1). */
static inline int bench_quick(void)
{
    const char *q = getenv("SUPERSTEP_BENCH_QUICK");
    return q && *q && *q != '0';
}

/* The number of processors to start: SUPERSTEP_BENCH_NPROCS when set (the
 * peer libraries, started by bench/peers, have no bsprun -n), else dflt
 * (bsp_nprocs()). */
static inline int bench_nprocs(int dflt)
{
    const char *n = getenv("SUPERSTEP_BENCH_NPROCS");
    return n && *n ? atoi(n) : dflt;
}

/* Single-core memcpy of n bytes, GB/s (10^9 bytes copied per second): the
 * median of reps copies between two buffers touched beforehand. */
static inline double bench_memcpy_gbps(size_t n, int reps)
{
    char *a = malloc(n), *b = malloc(n);
    if (!a || !b) {
        fprintf(stderr, "bench: out of memory for memcpy of %zu bytes\n", n);
        exit(1);
    }
    memset(a, 1, n);
    memset(b, 2, n);
    double *t = malloc((size_t)reps * sizeof *t);
    for (int r = 0; r < reps; r++) {
        double t0 = bench_now();
        memcpy(r & 1 ? a : b, r & 1 ? b : a, n);
        t[r] = bench_now() - t0;
        __asm__ __volatile__("" : : "r"(a), "r"(b) : "memory");
    }
    double m = bench_median(t, reps);
    free(t);
    free(a);
    free(b);
    return (double)n / m / 1e9;
}

#endif
