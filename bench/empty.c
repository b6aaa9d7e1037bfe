/*
 * empty.c - the time of an empty superstep (bsp_sync with nothing queued).
 *
 *   bsprun -n P empty
 *
 * Blocks of K back-to-back bsp_syncs, timed by processor 0; K is chosen so a
 * block lasts about 200 us.  Prints the median block's time per superstep
 * and the quartiles.
 */
#include <bsp.h>

#include "bench.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs();
    for (int i = 0; i < 1000; i++) /* warm up */
        bsp_sync();
    /* Size the block: every processor must agree on K, so processor 0
     * decides and puts it everywhere. */
    int k = 0;
    bsp_push_reg(&k, sizeof k);
    bsp_sync();
    if (bsp_pid() == 0) {
        double t0 = bench_now();
        for (int i = 0; i < 200; i++)
            bsp_sync();
        double per = (bench_now() - t0) / 200;
        int kk = (int)(200e-6 / per);
        kk = kk < 20 ? 20 : kk > 20000 ? 20000 : kk;
        for (int q = 0; q < p; q++)
            bsp_put(q, &kk, &k, 0, sizeof kk);
    } else {
        for (int i = 0; i < 200; i++)
            bsp_sync();
    }
    bsp_sync();
    int blocks = bench_quick() ? 31 : 151;
    double *t = malloc((size_t)blocks * sizeof *t);
    for (int b = 0; b < blocks; b++) {
        double t0 = bench_now();
        for (int i = 0; i < k; i++)
            bsp_sync();
        t[b] = (bench_now() - t0) / k;
    }
    if (bsp_pid() == 0) {
        char name[64];
        double m = bench_median(t, blocks);
        snprintf(name, sizeof name, "empty_p%d", p);
        bench_result(name, m * 1e6, "us");
        snprintf(name, sizeof name, "empty_p%d_q1", p);
        bench_result(name, bench_q1(t, blocks) * 1e6, "us");
        snprintf(name, sizeof name, "empty_p%d_q3", p);
        bench_result(name, bench_q3(t, blocks) * 1e6, "us");
    }
    bsp_pop_reg(&k);
    bsp_sync();
    bsp_end();
    return 0;
}
