/*
 * bspbench - the classic BSP benchmark, written for Superstep.
 *
 *   bsprun -n P bspbench [-H HMAX] [-k POINTS] [-b BLOCKS] [-i ITERS] [-q]
 *
 * In the spirit of Bisseling's bspbench (BSPedupack), from scratch:
 *   r  the computing rate, from a DAXPY kernel (y += a*x, 2 flops per
 *      element) on vectors of 1024 doubles, on every processor;
 *   t(h) the time of a superstep that realises a full h-relation of
 *      single-word puts: every processor puts h doubles, one bsp_put each,
 *      spread cyclically over the other processors (itself when p = 1), so
 *      every processor also receives h; h from 0 to HMAX at POINTS equally
 *      spaced values;
 *   g, l by least squares: t(h) = l + g*h, on the relative error (each
 *      point weighted by 1/t(h)^2), so that l, which is small beside g*h
 *      at large h, is fitted to the small h values rather than lost in the
 *      noise of the large ones; the ordinary fit is printed too.
 * Each t(h) is the median of BLOCKS blocks of ITERS supersteps (the machine
 * may be shared; the median ignores blocks that lost the processor), timed
 * by processor 0 between two syncs, so it is the time of the slowest; the
 * blocks of all h are interleaved in rounds.
 * g and l are printed in flop units (times r) and in microseconds, and a
 * last "summary:" line carries them as key=value for bspprof -b.
 * Only the public BSPlib API is used.
 */
#include <bsp.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAXPY_N 1024

static int hmax = 2048, npoints = 33, nblocks = 7, niters = 20;

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Flop rate of this processor, Mflop/s: the median over blocks. */
static double measure_r(void)
{
    static double x[DAXPY_N], y[DAXPY_N];
    for (int i = 0; i < DAXPY_N; i++) {
        x[i] = 1.0 / (i + 1);
        y[i] = 1.0;
    }
    volatile double alpha_v = 1.0 / 3.0;
    double alpha = alpha_v;
    int reps = 2000;
    double t[15];
    for (int b = 0; b < 15; b++) {
        double t0 = bsp_time();
        for (int k = 0; k < reps; k++) {
            double a = (k & 1) ? -alpha : alpha; /* keeps y bounded */
            for (int i = 0; i < DAXPY_N; i++)
                y[i] += a * x[i];
            __asm__ __volatile__("" : : "r"(y) : "memory");
        }
        t[b] = bsp_time() - t0;
    }
    double sum = 0;
    for (int i = 0; i < DAXPY_N; i++)
        sum += y[i];
    if (sum != sum)
        printf("(impossible) %g\n", sum);
    double sec = median(t, 15);
    return 2.0 * DAXPY_N * reps / sec / 1e6;
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();

    /* r on every processor, gathered on processor 0. */
    double *rates = calloc((size_t)p, sizeof *rates);
    bsp_push_reg(rates, p * (int)sizeof *rates);
    bsp_sync();
    double r = measure_r();
    bsp_put(0, &r, rates, s * (int)sizeof r, sizeof r);
    bsp_sync();

    double *src = malloc((size_t)hmax * sizeof *src + 8);
    double *dst = calloc((size_t)p * hmax + 1, sizeof *dst);
    for (int i = 0; i < hmax; i++)
        src[i] = s + i / 1e6;
    bsp_push_reg(dst, (p * hmax + 1) * (int)sizeof *dst);
    bsp_sync();

    int *dest = malloc((size_t)hmax * sizeof *dest + 4);
    for (int i = 0; i < hmax; i++)
        dest[i] = p == 1 ? 0 : (s + 1 + i % (p - 1)) % p;

    double *th = calloc((size_t)npoints, sizeof *th);
    int *hs = calloc((size_t)npoints, sizeof *hs);
    double *blk = calloc((size_t)nblocks * npoints, sizeof *blk);
    /* Round b measures one block of every h, so that a change of the
     * machine's state during the run (a shared machine, a host moving the
     * virtual cores) touches every h alike instead of bending the line. */
    for (int k = 0; k < npoints; k++)
        hs[k] = npoints == 1 ? hmax : (int)((long)hmax * k / (npoints - 1));
    for (int b = -1; b < nblocks; b++) { /* round -1 warms up */
        for (int k = 0; k < npoints; k++) {
            int h = hs[k];
            bsp_sync();
            double t0 = bsp_time();
            for (int it = 0; it < niters; it++) {
                for (int i = 0; i < h; i++)
                    bsp_put(dest[i], &src[i], dst, (s * hmax + i) * (int)sizeof(double), sizeof(double));
                bsp_sync();
            }
            if (b >= 0)
                blk[(size_t)k * nblocks + b] = (bsp_time() - t0) / niters;
        }
    }
    for (int k = 0; k < npoints; k++)
        th[k] = median(blk + (size_t)k * nblocks, nblocks);

    if (s == 0) {
        double rmin = rates[0], rmax = rates[0], rsum = 0;
        for (int q = 0; q < p; q++) {
            rmin = rates[q] < rmin ? rates[q] : rmin;
            rmax = rates[q] > rmax ? rates[q] : rmax;
            rsum += rates[q];
        }
        double rmean = rsum / p; /* Mflop/s */
        /* Least squares t = l + g h: weighted by 1/t^2 (relative error),
         * and ordinary (g0, l0). */
        double g = 0, l = 0, g0 = 0, l0 = 0;
        for (int pass = 0; pass < 2; pass++) {
            double sw = 0, sh = 0, st = 0, shh = 0, sht = 0;
            for (int k = 0; k < npoints; k++) {
                double w = pass ? 1.0 : 1.0 / (th[k] * th[k] > 1e-18 ? th[k] * th[k] : 1e-18);
                sw += w;
                sh += w * hs[k];
                st += w * th[k];
                shh += w * (double)hs[k] * hs[k];
                sht += w * hs[k] * th[k];
            }
            double den = sw * shh - sh * sh;
            double gg = den != 0 ? (sw * sht - sh * st) / den : 0;
            double ll = (st - gg * sh) / sw;
            if (pass) {
                g0 = gg;
                l0 = ll;
            } else {
                g = gg;
                l = ll;
            }
        }
        double flop = rmean * 1e6; /* flop/s */
        printf("bspbench: Superstep %s, p = %d\n", SUPERSTEP_VERSION, p);
        printf("r = %.1f Mflop/s (DAXPY of %d doubles; per processor min %.1f, max %.1f)\n", rmean, DAXPY_N,
               rmin, rmax);
        printf("h-relations of single-word (8-byte) bsp_put, h = 0..%d at %d points,\n"
               "each the median of %d blocks of %d supersteps\n",
               hmax, npoints, nblocks, niters);
        printf("%8s %12s %12s %10s\n", "h", "t(h) us", "fit us", "t(h) flop");
        for (int k = 0; k < npoints; k++)
            printf("%8d %12.3f %12.3f %10.0f\n", hs[k], th[k] * 1e6, (l + g * hs[k]) * 1e6, th[k] * flop);
        printf("g = %.2f flop/word = %.4f us/word (%.2f ns per 8-byte put)\n", g * flop, g * 1e6, g * 1e9);
        printf("l = %.1f flop = %.3f us\n", l * flop, l * 1e6);
        printf("(least squares on the relative error; the ordinary fit gives g = %.4f us, l = %.3f us)\n", g0 * 1e6,
               l0 * 1e6);
        printf("empty superstep t(0) = %.3f us\n", th[0] * 1e6);
        printf("summary: p=%d r_mflops=%.1f g_flop=%.3f l_flop=%.1f g_us=%.6f l_us=%.4f t0_us=%.4f\n", p, rmean,
               g * flop, l * flop, g * 1e6, l * 1e6, th[0] * 1e6);
    }
    bsp_pop_reg(dst);
    bsp_pop_reg(rates);
    bsp_sync();
    free(blk);
    free(hs);
    free(th);
    free(dest);
    free(dst);
    free(src);
    free(rates);
    bsp_end();
}

static void usage(void)
{
    fprintf(stderr, "usage: bsprun -n P bspbench [-H HMAX] [-k POINTS] [-b BLOCKS] [-i ITERS] [-q]\n"
                    "  -H HMAX    largest h (default 2048)\n"
                    "  -k POINTS  number of h values, equally spaced from 0 (default 33)\n"
                    "  -b BLOCKS  blocks per h, the median is taken (default 7)\n"
                    "  -i ITERS   supersteps per block (default 20)\n"
                    "  -q         quick: -H 512 -k 9 -b 5 -i 10\n");
    exit(2);
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int *dstv = NULL;
        if (!strcmp(a, "-H"))
            dstv = &hmax;
        else if (!strcmp(a, "-k"))
            dstv = &npoints;
        else if (!strcmp(a, "-b"))
            dstv = &nblocks;
        else if (!strcmp(a, "-i"))
            dstv = &niters;
        else if (!strcmp(a, "-q")) {
            hmax = 512, npoints = 9, nblocks = 5, niters = 10;
            continue;
        } else
            usage();
        if (++i >= argc)
            usage();
        *dstv = atoi(argv[i]);
    }
    if (hmax < 1 || npoints < 1 || nblocks < 1 || niters < 1 || hmax > (1 << 24))
        usage();
    if (npoints > hmax + 1)
        npoints = hmax + 1;
    spmd();
    return 0;
}
