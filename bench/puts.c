/*
 * puts.c - the cost of one 8-byte bsp_put, per processor, against h.
 *
 *   bsprun -n P puts H...      (default H = 16 100 1000 10000 100000)
 *
 * A full h-relation of single words: every processor does h bsp_puts of 8
 * bytes, spread cyclically over the other processors (itself when P = 1),
 * each to its own place, so every processor also receives h; then bsp_sync.
 * The cost per put is (T(h) - T(0)) / h, T the median time of a superstep
 * (blocks of supersteps, processor 0 timing), T(0) the empty superstep
 * measured in the same run, in rounds that take one block of every h.  Also
 * prints T(h) / h, which includes the sync.
 */
#include <bsp.h>

#include "bench.h"

/* One block of supersteps of h puts each: about 1 ms (at least one). */
static double block_time(int h, int hmax, const int *dest, const double *src, double *dst)
{
    int s = bsp_pid();
    int k = (int)(1e-3 / (1e-6 + h * 30e-9));
    k = k < 1 ? 1 : k > 2000 ? 2000 : k;
    bsp_sync();
    double t0 = bench_now();
    for (int it = 0; it < k; it++) {
        for (int i = 0; i < h; i++)
            bsp_put(dest[i], &src[i], dst, (s * hmax + i) * (int)sizeof(double), sizeof(double));
        bsp_sync();
    }
    return (bench_now() - t0) / k;
}

static int nh;
static int hs[32] = { 16, 100, 1000, 10000, 100000 };

static int hmax = 1;

/* The SPMD part, entered through bsp_init (so the program runs unchanged on
 * the peer libraries of bench/peers, whose threads or ranks do not run main
 * from bsp_begin on). */
static void spmd(void)
{
    bsp_begin(bench_nprocs(bsp_nprocs()));
    int p = bsp_nprocs(), s = bsp_pid();
    double *src = malloc((size_t)hmax * sizeof *src);
    double *dst = calloc((size_t)p * hmax, sizeof *dst);
    int *dest = malloc((size_t)hmax * sizeof *dest);
    for (int i = 0; i < hmax; i++) {
        src[i] = s + i;
        dest[i] = p == 1 ? 0 : (s + 1 + i % (p - 1)) % p;
    }
    bsp_push_reg(dst, p * hmax * (int)sizeof *dst);
    bsp_sync();
    /* Rounds: one block of h = 0 and of every h each, so that T(0) and
     * T(h) are measured side by side. */
    int blocks = bench_quick() ? 7 : 21;
    double *tb = malloc((size_t)blocks * (nh + 1) * sizeof *tb);
    for (int b = -1; b < blocks; b++)
        for (int i = 0; i <= nh; i++) {
            double t = block_time(i ? hs[i - 1] : 0, hmax, dest, src, dst);
            if (b >= 0)
                tb[(size_t)i * blocks + b] = t;
        }
    double t0 = bench_median(tb, blocks);
    if (s == 0)
        printf("puts_p%d_T0 %.6g us\n", p, t0 * 1e6);
    for (int i = 0; i < nh; i++) {
        double t = bench_median(tb + (size_t)(i + 1) * blocks, blocks);
        if (s == 0) {
            printf("put_p%d_h%d %.6g ns\n", p, hs[i], (t - t0) / hs[i] * 1e9);
            printf("put_p%d_h%d_raw %.6g ns\n", p, hs[i], t / hs[i] * 1e9);
            fflush(stdout);
        }
    }
    bsp_pop_reg(dst);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    nh = 5;
    if (argc > 1) {
        nh = 0;
        for (int i = 1; i < argc && nh < 32; i++)
            hs[nh++] = atoi(argv[i]);
    }
    for (int i = 0; i < nh; i++)
        hmax = hs[i] > hmax ? hs[i] : hmax;
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
