/*
 * bulk.c - large transfers: bsp_put, bsp_hpput, bsp_hpget against memcpy.
 *
 *   bsprun -n P bulk put|hpput|hpget|direct|reg MIB...     (default MIB = 1 4 16 64)
 *
 * First, before bsp_begin (one process), single-core memcpy of each size is
 * measured.  Then every processor moves MIB MiB to (hpget, direct: from) its
 * right neighbour, s+1 mod P (itself when P = 1), in one call (direct:
 * bsp_direct_get), and syncs.  The throughput per processor is MIB MiB / T,
 * T the median time of a superstep minus nothing (the sync is part of the
 * cost); its ratio to memcpy of the same size is printed as a percentage.
 *
 * reg: the cost of registering a fresh area of MIB MiB (bsp_push_reg and
 * the sync that publishes it: where the area's pages are moved into the
 * shared segment) and of popping it (bsp_pop_reg and its sync: where they
 * move back), each as a median in ms and as a multiple of one bsp_hpput of
 * the area into it, measured in the same run.  Areas move lazily: the
 * owner moves one at its sync after a peer's first hp transfer into it, so
 * the first two hpputs (the first by process_vm_writev, the second after
 * the move) are reported apart (first2), as a multiple of one hpput.
 */
#include <bsp.h>

#include "bench.h"

/* Median seconds of 'reps' registrations (push + sync) and pops (pop +
 * sync) of a fresh area of each size, and of one hpput into it. */
static void reg_cost(const int *sizes, int n, int quick)
{
    int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p;
    for (int i = 0; i < n; i++) {
        size_t bytes = (size_t)sizes[i] << 20;
        int reps = quick ? 3 : sizes[i] >= 64 ? 7 : 15;
        double *reg = malloc(4 * (size_t)reps * sizeof *reg), *pop = reg + reps, *put = reg + 2 * reps;
        double *first2 = reg + 3 * reps;
        for (int r = 0; r < reps; r++) {
            char *a = malloc(bytes);
            if (!a)
                bsp_abort("bulk: out of memory");
            memset(a, s + 1, bytes);
            bsp_sync();
            double t0 = bench_now();
            bsp_push_reg(a, (long)bytes);
            bsp_sync();
            double t1 = bench_now();
            for (int k = 0; k < 4; k++) { /* the first two (the move), then the faster of two */
                double u0 = bench_now();
                bsp_hpput(right, a, a, 0, (long)bytes);
                bsp_sync();
                double u = bench_now() - u0;
                first2[r] = k == 0 ? u : k == 1 ? first2[r] + u : first2[r];
                put[r] = k < 2 ? 1e9 : put[r] < u ? put[r] : u;
            }
            double t2 = bench_now();
            bsp_pop_reg(a);
            bsp_sync();
            pop[r] = bench_now() - t2;
            reg[r] = t1 - t0;
            free(a);
        }
        double mreg = bench_median(reg, reps), mpop = bench_median(pop, reps), mput = bench_median(put, reps);
        double mfirst2 = bench_median(first2, reps);
        if (s == 0) {
            printf("reg_p%d_%dMiB %.6g ms\n", p, sizes[i], 1e3 * mreg);
            printf("reg_p%d_%dMiB_pop %.6g ms\n", p, sizes[i], 1e3 * mpop);
            printf("reg_p%d_%dMiB_hpput %.6g ms\n", p, sizes[i], 1e3 * mput);
            printf("reg_p%d_%dMiB_x_hpput %.6g x\n", p, sizes[i], mreg / mput);
            printf("reg_p%d_%dMiB_pop_x_hpput %.6g x\n", p, sizes[i], mpop / mput);
            printf("reg_p%d_%dMiB_first2 %.6g ms\n", p, sizes[i], 1e3 * mfirst2);
            printf("reg_p%d_%dMiB_first2_x_hpput %.6g x\n", p, sizes[i], mfirst2 / mput);
            fflush(stdout);
        }
        free(reg);
    }
}

static int mode, sizes[16] = { 1, 4, 16, 64 }, n = 4;
static const char *how;
static double mc[16];
static size_t maxb;

/* The SPMD part, entered through bsp_init (see puts.c). */
static void spmd(void)
{
    bsp_begin(bench_nprocs(bsp_nprocs()));
    int quick = bench_quick();
    if (mode == 4) {
        reg_cost(sizes, n, quick);
        bsp_end();
        return;
    }
    int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p;
    char *src = malloc(maxb), *dst = malloc(maxb);
    memset(src, s + 1, maxb);
    memset(dst, 0, maxb);
    bsp_push_reg(src, (int)maxb);
    bsp_push_reg(dst, (int)maxb);
    bsp_sync();
    for (int i = 0; i < n; i++) {
        int bytes = sizes[i] << 20;
        int reps = quick ? 5 : sizes[i] >= 64 ? 11 : sizes[i] >= 16 ? 21 : 41;
        double *t = malloc((size_t)reps * sizeof *t);
        for (int r = -2; r < reps; r++) { /* two warm-ups: the channel rings grow in the first */
            bsp_sync();
            double t0 = bench_now();
            if (mode == 0)
                bsp_put(right, src, dst, 0, bytes);
            else if (mode == 1)
                bsp_hpput(right, src, dst, 0, bytes);
            else if (mode == 2)
                bsp_hpget(right, src, 0, dst, bytes);
            else
#ifdef BENCH_NO_DIRECT_GET /* a library without it (BSPonMPI, in bench/peers) */
                bsp_abort("bulk: direct: no bsp_direct_get in this library");
#else
                bsp_direct_get(right, src, 0, dst, bytes);
#endif
            bsp_sync();
            if (r >= 0)
                t[r] = bench_now() - t0;
        }
        double m = bench_median(t, reps);
        free(t);
        if ((dst[bytes - 1] != (char)(right + 1) || dst[0] != (char)(right + 1)) && mode >= 2)
            bsp_abort("bulk: %s brought %d", how, dst[bytes - 1]);
        if (s == 0) {
            double gbps = bytes / m / 1e9;
            printf("%s_p%d_%dMiB %.6g GB/s\n", how, p, sizes[i], gbps);
            printf("%s_p%d_%dMiB_memcpy %.6g GB/s\n", how, p, sizes[i], mc[i]);
            printf("%s_p%d_%dMiB_pct %.6g %%\n", how, p, sizes[i], 100 * gbps / mc[i]);
            fflush(stdout);
        }
    }
    bsp_pop_reg(dst);
    bsp_pop_reg(src);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bsprun -n P bulk put|hpput|hpget|direct|reg [MIB...]\n");
        return 2;
    }
    how = argv[1];
    mode = !strcmp(how, "put") ? 0 : !strcmp(how, "hpput") ? 1 : !strcmp(how, "hpget") ? 2
         : !strcmp(how, "direct") ? 3 : !strcmp(how, "reg") ? 4 : -1;
    if (mode < 0) {
        fprintf(stderr, "bulk: unknown transfer '%s'\n", how);
        return 2;
    }
    if (argc > 2) {
        n = 0;
        for (int i = 2; i < argc && n < 16; i++)
            sizes[n++] = atoi(argv[i]);
    }
    for (int i = 0; i < n; i++) {
        size_t b = (size_t)sizes[i] << 20;
        mc[i] = bench_memcpy_gbps(b, bench_quick() ? 5 : b >= (64u << 20) ? 11 : 21);
        maxb = b > maxb ? b : maxb;
    }
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
