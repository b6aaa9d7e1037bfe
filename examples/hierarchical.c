/* hierarchical.c - MulticoreBSP's nested (hierarchical) runs: every
 * processor of the outer run starts an inner run of its own, which sums
 * its block of 1..N in parallel; the outer run then adds the blocks' sums.
 * Usage: bsprun -n P hierarchical [N [Q]]  (Q processors per inner run) */
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

static long long n = 1000000;
static int q = 2;
static long long lo, hi;  /* this outer processor's block: lo..hi-1 */
static long long block;   /* its sum, computed by the inner run */

/* Inner run: its processor 0 is the outer processor that started it. */
static void inner(void)
{
    bsp_begin(q);
    long long s = bsp_pid(), p = bsp_nprocs(), len = hi - lo;
    long long a = lo + len * s / p, b = lo + len * (s + 1) / p, part = 0;
    for (long long k = a; k < b; k++)
        part += k;
    bsp_send(0, NULL, &part, sizeof part);
    bsp_sync();
    if (s == 0) {
        block = 0;
        bsp_size_t count = 0, bytes = 0;
        bsp_qsize(&count, &bytes);
        for (bsp_size_t i = 0; i < count; i++) {
            long long got;
            bsp_move(&got, sizeof got);
            block += got;
        }
    }
    bsp_end();
}

static void outer(void)
{
    bsp_begin(bsp_nprocs());
    long long s = bsp_pid(), p = bsp_nprocs();
    lo = 1 + n * s / p;
    hi = 1 + n * (s + 1) / p;
    bsp_init(inner, 0, NULL); /* inside the SPMD section: for the inner run */
    inner();
    bsp_send(0, NULL, &block, sizeof block);
    bsp_sync();
    if (s == 0) {
        long long sum = 0, got;
        for (long long k = 0; k < p; k++) {
            bsp_move(&got, sizeof got);
            sum += got;
        }
        printf("sum of 1..%lld = %lld on %lld processors, each with an inner run of %d\n", n, sum, p, q);
    }
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        n = atoll(argv[1]);
    if (argc > 2)
        q = atoi(argv[2]);
    bsp_init(outer, argc, argv);
    outer();
    return 0;
}
