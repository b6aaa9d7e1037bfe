/*
 * begin.c - from bsp_begin(P) to the first superstep.
 *
 *   begin [P]      (default 16; run directly, not under bsprun)
 *
 * The clock is read in main just before bsp_begin; every processor reads it
 * again when bsp_begin returns in it (CLOCK_MONOTONIC is one clock for all
 * processes), and the latest of those is when the first superstep has
 * started on every processor.  Prints that, and the time to the end of the
 * first bsp_sync, in ms.  bench/run repeats the program and takes medians.
 */
#include <bsp.h>

#include "bench.h"

int main(int argc, char **argv)
{
    int p = argc > 1 ? atoi(argv[1]) : 16;
    double t0 = bench_now();
    bsp_begin(p);
    double started = bench_now() - t0;
    int s = bsp_pid();
    double *all = calloc((size_t)p, sizeof *all);
    bsp_push_reg(all, p * (int)sizeof *all);
    bsp_sync();
    double synced = bench_now() - t0;
    bsp_put(0, &started, all, s * (int)sizeof started, sizeof started);
    bsp_sync();
    if (s == 0) {
        double mx = 0;
        for (int q = 0; q < p; q++)
            mx = all[q] > mx ? all[q] : mx;
        printf("begin_p%d %.6g ms\n", p, mx * 1e3);
        printf("begin_p%d_sync %.6g ms\n", p, synced * 1e3);
    }
    bsp_end();
    return 0;
}
