/* inner_product.c - distributed inner product of two vectors.
 *
 * Usage: inner_product [N]   (default N = 1000000)
 *
 * x and y have length N with x[i] = y[i] = i + 1, so that
 * x.y = N(N+1)(2N+1)/6.  Processor s owns the block of indices
 * [s*N/p, (s+1)*N/p).  It sums its own part, puts that partial sum into
 * slot s of an array on every processor, and after one bsp_sync every
 * processor adds up the p partial sums.
 *
 * This example starts the SPMD part with bsp_init, the style of programs
 * that call bsp_begin from a function other than main.  N is read by main
 * after bsp_init, so only processor 0 is sure to have it (on the mpi device
 * the other processors are ranks that go from bsp_init straight into spmd):
 * processor 0 puts it to every processor in the first superstep, which
 * makes the program run the same on every device. */
#include <bsp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Set by main on processor 0, after bsp_init. */
static long n = 1000000;

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();

    /* Processor 0's N, to every processor. */
    bsp_push_reg(&n, sizeof n);
    bsp_sync();
    if (s == 0)
        for (int t = 1; t < p; t++)
            bsp_put(t, &n, &n, 0, sizeof n);
    bsp_sync();
    bsp_pop_reg(&n);

    /* Only the local block of x and y is stored. */
    long lo = s * n / p, hi = (s + 1) * n / p;
    long nlocal = hi - lo;
    double *x = malloc((nlocal + 1) * sizeof *x);
    double *y = malloc((nlocal + 1) * sizeof *y);
    if (x == NULL || y == NULL)
        bsp_abort("out of memory for %ld elements", nlocal);
    for (long i = 0; i < nlocal; i++)
        x[i] = y[i] = lo + i + 1;

    double *partial = calloc(p, sizeof *partial);
    bsp_push_reg(partial, p * sizeof *partial);
    bsp_sync(); /* the registration takes effect here */

    double mine = 0;
    for (long i = 0; i < nlocal; i++)
        mine += x[i] * y[i];
    for (int t = 0; t < p; t++) /* bsp_put copies `mine` at once */
        bsp_put(t, &mine, partial, s * sizeof mine, sizeof mine);
    bsp_sync(); /* now every processor holds all p partial sums */

    double sum = 0;
    for (int t = 0; t < p; t++)
        sum += partial[t];

    if (s == 0) {
        double expect = (double)n * (n + 1) * (2 * n + 1) / 6;
        printf("inner product of two vectors of length %ld on %d processors"
               " = %.0f\n", n, p, sum);
        if (fabs(sum - expect) > 1e-9 * expect)
            bsp_abort("wrong result %.17g, expected %.17g", sum, expect);
    }

    bsp_pop_reg(partial);
    free(partial);
    free(y);
    free(x);
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv); /* comes first in main */
    if (argc > 1)
        n = atol(argv[1]);
    if (n < 1) {
        fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
        return 1;
    }
    spmd();
    return 0;
}
