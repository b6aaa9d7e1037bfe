/* coll.c - the collectives against their cost model: bcast and allreduce
 * of 8 B, 64 KiB and 16 MiB on p processors, every variant run in turn
 * (the median of blocks of runs, each run one collective in lockstep);
 * for each it prints the variant the model chooses, its measured time,
 * the model's prediction for it, and the slowest variant's time.
 * Usage: bsprun -n P coll [reps]   (bench/run runs it at p = 2, 4, 8).
 * The allreduce sums doubles element by element; that local work is not
 * in the model (w), only g h + l. */
#include "coll/coll.h"
#include "bsp/bsp_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t elem; /* bytes of one element: a vector of doubles */

static void vsum(void *a, const void *a0, const void *xs, bsc_size_t size)
{
    size_t n = elem / sizeof(double), k = size / elem;
    double *out = a;
    const double *x = xs;
    memcpy(out, a0, elem);
    for (size_t j = 0; j < k; j++)
        for (size_t i = 0; i < n; i++)
            out[i] += x[j * n + i];
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double time_one(const bsc_collective_t *c, bsc_coll_params_t *q, enum variant v, int reps)
{
    double t[9];
    int blocks = 5;
    coll_run(c->algorithms[v](coll_now(), 0, bsc_all, q, 1)); /* warm: first touch of the pages */
    for (int b = 0; b < blocks; b++) {
        bsp_sync();
        double t0 = bsp_time();
        for (int r = 0; r < reps; r++)
            coll_run(c->algorithms[v](coll_now(), 0, bsc_all, q, 1));
        t[b] = (bsp_time() - t0) / reps;
    }
    qsort(t, (size_t)blocks, sizeof *t, cmp);
    return t[blocks / 2];
}

int main(int argc, char **argv)
{
    int reps = argc > 1 ? atoi(argv[1]) : 5;
    bsp_begin(bsp_nprocs());
    unsigned p = bsp_nprocs();
    coll_begin("coll");
    static const size_t sizes[] = { 8, 65536, 16u << 20 };
    static const char *const kname[] = { "bcast", "allreduce" };
    for (int kind = 0; kind < 2; kind++)
        for (size_t i = 0; i < 3; i++) {
            size_t size = sizes[i];
            char *src = calloc(size, 1), *dst = calloc(size, 1), *tmp = calloc((size_t)(p + 1), size);
            char *zero = calloc(size, 1);
            elem = size;
            bsp_push_reg(dst, (long long)size);
            bsp_push_reg(tmp, (long long)((p + 1) * size));
            bsp_sync();
            enum collective ck = kind ? C_ALLREDUCE : C_BCAST;
            const bsc_collective_t *c = kind ? bsc_coll_allreduce : bsc_coll_bcast;
            bsc_coll_params_t q = { src, dst, tmp, vsum, zero, 1, size };
            int r = size > (1u << 20) ? 1 : reps * (size < 1024 ? 20 : 1);
            double t[V_COUNT], worst = 0;
            enum variant slowest = V_1PHASE;
            for (int v = 0; v < V_COUNT; v++) {
                t[v] = time_one(c, &q, (enum variant)v, r);
                if (t[v] > worst)
                    worst = t[v], slowest = (enum variant)v;
            }
            enum variant chosen = variant_pick(ck, p, (double)size, true);
            double pred = cost_seconds(coll_cost(ck, chosen, p, (double)size));
            if (bsp_pid() == 0)
                printf("coll %s %zu B p=%u: chosen %s measured %.3f us predicted %.3f us; slowest %s %.3f us\n",
                       kname[kind], size, p, variant_name[chosen], t[chosen] * 1e6, pred * 1e6, variant_name[slowest],
                       worst * 1e6);
            bsp_pop_reg(tmp);
            bsp_pop_reg(dst);
            bsp_sync();
            free(src), free(dst), free(tmp), free(zero);
        }
    if (bsp_pid() == 0)
        printf("coll: machine parameters: %s\n", machine_get()->source);
    bsp_end();
    return 0;
}
