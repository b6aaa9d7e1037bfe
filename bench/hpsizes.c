/*
 * hpsizes.c - the cost of one bsp_hpput (or bsp_hpget) against its size.
 *
 *   bsprun -n P hpsizes put|get [BYTES:H ...]
 *       (default 8:10000 1024:1000 4096:1000 16384:1000 65536:100)
 *
 * Every processor does H transfers of BYTES each to (get: from) its right
 * neighbour, s+1 mod P, into disjoint places of one registered area, then
 * bsp_sync; the figure is T / H in ns per transfer, T the median time of
 * such a superstep (the sync included).  What it shows: where a device
 * moves hp transfers itself only at the sync (mpi), small ones go through
 * the streams and large ones straight from memory to memory, and the
 * switch between the two (src/mpi/mpi_hp.h, MPI_HP_DIRECT_MIN) should cost
 * nothing on either side of it.
 */
#include <bsp.h>

#include <stdbool.h>

#include "bench.h"

int main(int argc, char **argv)
{
    bool get = argc > 1 && !strcmp(argv[1], "get");
    static const char *const defaults[] = { "8:10000", "1024:1000", "4096:1000", "16384:1000", "65536:100" };
    int nsizes = argc > 2 ? argc - 2 : (int)(sizeof defaults / sizeof *defaults);
    const char *const *sizes = argc > 2 ? (const char *const *)argv + 2 : defaults;
    int reps = getenv("SUPERSTEP_BENCH_QUICK") ? 9 : 31;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), right = (s + 1) % bsp_nprocs();
    for (int k = 0; k < nsizes; k++) {
        size_t bytes = strtoull(sizes[k], NULL, 10);
        const char *colon = strchr(sizes[k], ':');
        int h = colon ? atoi(colon + 1) : 1000;
        size_t span = 2 * bytes * (size_t)h; /* every other slot: no two transfers touch */
        char *src = malloc(span), *dst = malloc(span);
        double *t = malloc((size_t)reps * sizeof *t);
        if (!src || !dst || !t)
            bsp_abort("hpsizes: out of memory");
        memset(src, s, span);
        memset(dst, 0, span);
        bsp_push_reg(src, (long)span);
        bsp_push_reg(dst, (long)span);
        bsp_sync();
        for (int r = 0; r < reps; r++) {
            double t0 = bench_now();
            for (int i = 0; i < h; i++) {
                size_t at = 2 * (size_t)i * bytes;
                if (get)
                    bsp_hpget(right, src, (long)at, dst + at, (long)bytes);
                else
                    bsp_hpput(right, src + at, dst, (long)at, (long)bytes);
            }
            bsp_sync();
            t[r] = bench_now() - t0;
        }
        if (s == 0)
            printf("hp%s_%zuB_p%d %g ns\n", get ? "get" : "put", bytes, bsp_nprocs(), bench_median(t, reps) * 1e9 / h);
        bsp_pop_reg(dst);
        bsp_pop_reg(src);
        bsp_sync();
        free(src);
        free(dst);
        free(t);
    }
    bsp_end();
    return 0;
}
