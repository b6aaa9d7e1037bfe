/*
 * bspbench - the classic BSP benchmark, written for Superstep.
 *
 *   bsprun -n P bspbench [OPTIONS]     (bspbench --help lists them)
 *   mpirun -n P bspbench [OPTIONS]     (SUPERSTEP_DEVICE=mpi)
 *
 * In the spirit of Bisseling's bspbench (BSPedupack), from scratch:
 *   r  the computing rate, from a DAXPY kernel (y += a*x, 2 flops per
 *      element) on vectors of 1024 doubles, on every processor;
 *   t(h) the time of a superstep that realises a full h-relation of
 *      single-word puts: every processor puts h doubles, one bsp_put each,
 *      spread cyclically over the other processors (itself when p = 1), so
 *      every processor also receives h; h = 0, 1, ..., p and then POINTS
 *      equally spaced values from p to HMAX (-q takes fewer of the same
 *      range, and fewer repetitions, so that both see the same h);
 *   g and l (tools/bench/fit.h): g the Theil-Sen slope of t(h) over
 *      h = p..HMAX, l the line's intercept but never below t(0), the empty
 *      superstep; each also estimated from every round alone, and their
 *      spread between rounds printed beside them; the same over h = 0..p
 *      (where sending one word costs most) is printed too.  The bottom
 *      line "p= r= g= l=" (g and l in flop units) and the "summary:" line
 *      that bspprof -b reads (microseconds) give the first;
 *   G the cost of a byte of large messages (1 to 4 puts of 64 KiB per
 *      processor), and o = g - 8 G that of a message; l, G, o and r are
 *      written to the machine parameters cache (bsp_probe(3)) unless -N,
 *      or unless the fit is poor and the line cached for this p is better.
 * Each superstep is timed by processor 0 from the end of one sync to the
 * end of the next, so it is the time of the slowest; a block of ITERS
 * supersteps counts the median of them (a block that lost the processor
 * for a while still counts its typical superstep: the mean let the blocks
 * of large h, which last longest, pay for the preemptions), and t(h) is
 * the median of BLOCKS blocks; the blocks of all h are interleaved in
 * rounds.  One measure of the fit is printed, how far the points lie off
 * the line (median, relative to each time); when that is above 10%, g
 * moves by more than 25% or l by more than 50% between rounds, or the
 * times do not grow with h, the fit is poor: bspbench says why on standard output and standard
 * error, and the summary line says fit=poor (and noisy=1, as before).
 * Options are read in main before bsp_init, in every process, so they reach
 * every processor on both devices (mpirun starts every rank from main).
 * It uses the public BSPlib API, and the collectives layer's cache writer.
 */
#include <bsp.h>

#include "bench/fit.h"
#include "coll/coll.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DAXPY_N 1024

static int hmax = 2048, npoints = 33, nblocks = 7, niters = 20;
static bool no_cache;

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

/* The h values measured: 0..p one by one, then npoints from p to hmax. */
static int make_points(int *hs, int p)
{
    int n = 0, low = p < hmax ? p : hmax;
    for (int h = 0; h <= low; h++)
        hs[n++] = h;
    for (int k = 1; k < npoints; k++) {
        int h = low + (int)((long)(hmax - low) * k / (npoints - 1));
        if (h > hs[n - 1])
            hs[n++] = h;
    }
    return n;
}

/* The cache line: written unless -N; machine_store keeps a better one. */
static void store(int p, const struct fit *f, bool poor, double flop, double big_g, double o)
{
    struct machine m = { .l = f->l, .G = big_g, .o = o, .r = flop, .noise = f->noise,
                         .fit = poor ? FIT_POOR : FIT_GOOD, .p = (uint32_t)p };
    char *path = machine_path();
    int rc = machine_store(machine_device(), &m);
    if (rc == EEXIST)
        printf("not written to %s: its line for device %s and p = %d is better than this poor fit\n", path,
               machine_device(), p);
    else if (rc)
        fprintf(stderr, "bspbench: warning: cannot write the machine parameters to %s: %s\n", path ? path : "(no path)",
                strerror(rc));
    else
        printf("written to %s (device %s, p = %d, fit %s): bsp_probe and the collectives use them\n", path,
               machine_device(), p, poor ? "poor" : "good");
    free(path);
}

static void print_fit(const char *what, int from, int to, const struct fit *f, double flop)
{
    printf("fit over h = %d..%d:%s g = %.3f flop (%.4f us), l = %.1f flop (%.3f us); between rounds g +- %.4f us, "
           "l +- %.3f us\n",
           from, to, what, f->g * flop, f->g * 1e6, f->l * flop, f->l * 1e6, f->g_sd * 1e6, f->l_sd * 1e6);
}

static void report(int p, const double *rates, const int *hs, const double *blk, int npts, double big_g)
{
    double rmin = rates[0], rmax = rates[0], rsum = 0;
    for (int q = 0; q < p; q++) {
        rmin = rates[q] < rmin ? rates[q] : rmin;
        rmax = rates[q] > rmax ? rates[q] : rmax;
        rsum += rates[q];
    }
    double r = rsum / p, flop = r * 1e6; /* Mflop/s, flop/s */
    int low = 0;
    while (low < npts - 1 && hs[low] < p)
        low++;
    double *th = calloc((size_t)npts, sizeof *th);
    struct fit small = fit_bsp(hs, blk, low + 1, nblocks, 0, th), large = fit_bsp(hs, blk, npts, nblocks, low, th);
    printf("bspbench: Superstep %s, p = %d\n", SUPERSTEP_VERSION, p);
    printf("r = %.3f Mflop/s (DAXPY of %d doubles; per processor min %.3f, max %.3f)\n", r, DAXPY_N, rmin, rmax);
    printf("h-relations of single-word (%zu-byte) bsp_put; each time the median of %d blocks, each the median of %d "
           "supersteps\n",
           sizeof(double), nblocks, niters);
    printf("%8s %14s %14s %14s\n", "h", "time (us)", "time (flop)", "fit (flop)");
    for (int k = 0; k < npts; k++) {
        const struct fit *f = k < low ? &small : &large;
        printf("%8d %14.3f %14.0f %14.0f\n", hs[k], th[k] * 1e6, th[k] * flop, (f->l + f->g * hs[k]) * flop);
    }
    print_fit("  ", 0, hs[low], &small, flop);
    print_fit("", hs[low], hs[npts - 1], &large, flop);
    printf("l is the larger of the line's value at h = 0 (%.3f us) and the empty superstep's time (%.3f us)\n",
           large.intercept * 1e6, large.floor * 1e6);
    char why[256];
    bool poor = fit_poor(&large, why, sizeof why);
    printf("noise: the points lie %.1f%% off the line (median), g moves by %.0f%% and l by %.0f%% between rounds: fit "
           "%s\n",
           100 * large.noise, large.g > 0 ? 100 * large.g_sd / large.g : 0, large.l > 0 ? 100 * large.l_sd / large.l : 0,
           poor ? "POOR" : "good");
    if (poor) {
        printf("the fit is poor (%s): g and l are unreliable\n", why);
        fprintf(stderr,
                "bspbench: warning: the fit is poor (%s): g and l are unreliable; run on an idle machine, or with "
                "more blocks (-b) and supersteps per block (-i)\n",
                why);
    }
    double o = large.g - 8 * big_g;
    o = o > 0 ? o : 0;
    printf("large messages: G = %.4f ns per byte (puts of 64 KiB), so a message costs o = %.1f ns beyond its bytes\n",
           big_g * 1e9, o * 1e9);
    printf("The bottom line for this BSP computer is (g and l in flop units, from the fit over h = %d..%d):\n",
           hs[low], hs[npts - 1]);
    printf("p= %d, r= %.3f Mflop/s, g= %.1f, l= %.1f\n", p, r, large.g * flop, large.l * flop);
    printf("summary: p=%d r_mflops=%.3f g_flop=%.3f l_flop=%.1f g_us=%.6f l_us=%.4f t0_us=%.4f g_sd_us=%.6f "
           "l_sd_us=%.4f noise=%.4f fit=%s noisy=%d\n",
           p, r, large.g * flop, large.l * flop, large.g * 1e6, large.l * 1e6, large.floor * 1e6, large.g_sd * 1e6,
           large.l_sd * 1e6, large.noise, poor ? "poor" : "good", poor);
    free(th);
    if (!no_cache)
        store(p, &large, poor, flop, big_g, o);
}

/* G: seconds per byte of 64 KiB puts, k = 1..4 of them per processor. */
static double measure_big(int p, int s)
{
    enum { BIG = 65536, KMAX = 4 };
    char *src = calloc(BIG, 1), *dst = calloc((size_t)p * KMAX, BIG);
    bsp_push_reg(dst, p * KMAX * BIG);
    bsp_sync();
    int ks[KMAX + 1];
    double t[KMAX + 1], *blk = calloc((size_t)nblocks, sizeof *blk);
    for (int k = 0; k <= KMAX; k++) {
        ks[k] = k;
        for (int b = 0; b < nblocks; b++) {
            bsp_sync();
            double t0 = bsp_time();
            for (int it = 0; it < niters; it++) {
                for (int i = 0; i < k; i++)
                    bsp_put(p == 1 ? 0 : (s + 1 + i) % p, src, dst, (s * KMAX + i) * BIG, BIG);
                bsp_sync();
            }
            blk[b] = (bsp_time() - t0) / niters;
        }
        t[k] = median(blk, nblocks);
    }
    bsp_pop_reg(dst);
    bsp_sync();
    double g;
    fit_theil_sen(ks, t, 1, 0, KMAX + 1, &g);
    free(blk);
    free(dst);
    free(src);
    return g / BIG;
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

    int *hs = calloc((size_t)npoints + (size_t)p + 2, sizeof *hs);
    int npts = make_points(hs, p);
    double *blk = calloc((size_t)nblocks * npts, sizeof *blk), *steps = calloc((size_t)niters, sizeof *steps);
    /* Round b measures one block of every h, so that a change of the
     * machine's state during the run (a shared machine, a host moving the
     * virtual cores) touches every h alike instead of bending the line. */
    for (int b = -1; b < nblocks; b++) { /* round -1 warms up */
        for (int k = 0; k < npts; k++) {
            int h = hs[k];
            bsp_sync();
            double t0 = bsp_time();
            for (int it = 0; it < niters; it++) {
                for (int i = 0; i < h; i++)
                    bsp_put(dest[i], &src[i], dst, (s * hmax + i) * (int)sizeof(double), sizeof(double));
                bsp_sync();
                double t1 = bsp_time();
                steps[it] = t1 - t0;
                t0 = t1;
            }
            if (b >= 0)
                blk[(size_t)k * nblocks + b] = median(steps, niters);
        }
    }
    double big_g = measure_big(p, s);
    if (s == 0)
        report(p, rates, hs, blk, npts, big_g);
    bsp_pop_reg(dst);
    bsp_pop_reg(rates);
    bsp_sync();
    free(blk);
    free(steps);
    free(hs);
    free(dest);
    free(dst);
    free(src);
    free(rates);
    bsp_end();
}

static void usage(FILE *f)
{
    fprintf(f, "usage: bsprun -n P bspbench [OPTIONS]   (or: mpirun -n P bspbench [OPTIONS] on the mpi device)\n"
               "Measure r (Mflop/s), g and l of this machine for P processors.\n"
               "  -H, --hmax=HMAX      largest h (default 2048)\n"
               "  -k, --points=POINTS  h values from p to HMAX, equally spaced (default 33)\n"
               "  -b, --blocks=BLOCKS  blocks per h, of which the median is taken (default 7)\n"
               "  -i, --iters=ITERS    supersteps per block (default 20)\n"
               "  -q, --quick          -k 9 -b 5 -i 10: the same range of h, fewer points and repetitions\n"
               "  -N, --no-cache       do not write the machine parameters cache (bsp_probe(3))\n"
               "  -h, --help           this help\n"
               "  -V, --version        the version\n");
}

/* Under mpirun every rank parses the options: only the first reports. */
static bool first_rank(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "MPI_LOCALRANKID" };
    for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
        const char *v = getenv(vars[i]);
        if (v)
            return atoi(v) == 0;
    }
    return true;
}

static void bad(const char *opt, const char *what)
{
    if (first_rank())
        fprintf(stderr, "bspbench: %s: %s (bspbench --help lists the options)\n", opt, what);
    exit(2);
}

static int whole(const char *opt, const char *v, int lo, int hi)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < lo || x > hi) {
        if (first_rank())
            fprintf(stderr, "bspbench: %s: '%s' is not a whole number in %d..%d (bspbench --help lists the options)\n",
                    opt, v, lo, hi);
        exit(2);
    }
    return (int)x;
}

static void parse(int argc, char **argv)
{
    static const struct option opts[] = {
        { "hmax", required_argument, NULL, 'H' }, { "points", required_argument, NULL, 'k' },
        { "blocks", required_argument, NULL, 'b' }, { "iters", required_argument, NULL, 'i' },
        { "quick", no_argument, NULL, 'q' },        { "help", no_argument, NULL, 'h' },
        { "no-cache", no_argument, NULL, 'N' },
        { "version", no_argument, NULL, 'V' },      { NULL, 0, NULL, 0 },
    };
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":H:k:b:i:qNhV", opts, NULL)) != -1) {
        switch (c) {
        case 'H': hmax = whole("-H", optarg, 1, 1 << 24); break;
        case 'k': npoints = whole("-k", optarg, 2, 100000); break;
        case 'b': nblocks = whole("-b", optarg, 1, 100000); break;
        case 'i': niters = whole("-i", optarg, 1, 10000000); break;
        case 'q': npoints = 9, nblocks = 5, niters = 10; break;
        case 'N': no_cache = true; break;
        case 'h':
            if (first_rank())
                usage(stdout);
            exit(0);
        case 'V':
            if (first_rank())
                printf("bspbench (Superstep) %s\n", SUPERSTEP_VERSION);
            exit(0);
        case ':': bad(argv[optind - 1], "needs a value"); break;
        default: bad(argv[optind - 1], "unknown option"); break;
        }
    }
    if (optind < argc)
        bad(argv[optind], "unexpected argument");
    if (npoints > hmax + 1)
        npoints = hmax + 1;
}

int main(int argc, char **argv)
{
    parse(argc, argv);
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
