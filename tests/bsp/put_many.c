/* put_many.c - many small puts in one superstep, from every processor to
 * every processor (itself included), each to its own place; then the same
 * with one put per source into a large area.
 * Usage: put_many [puts per destination] (default 2000). */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
// RUN: n=64 args="40"
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 2000;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();

    /* area[t * m + k] on every processor receives k-th put from processor t. */
    long *area = calloc((size_t)p * m, sizeof *area);
    bsp_push_reg(area, p * m * sizeof *area);
    bsp_sync();

    for (int round = 0; round < 3; round++) {
        /* Interleave destinations so every queue grows at once. */
        for (int k = 0; k < m; k++)
            for (int t = 0; t < p; t++) {
                long v = ((long)round << 40) + ((long)s << 20) + ((long)t << 32) + k;
                bsp_put(t, &v, area, (s * m + k) * sizeof v, sizeof v);
            }
        bsp_sync();
        for (int t = 0; t < p; t++)
            for (int k = 0; k < m; k++) {
                long want = ((long)round << 40) + ((long)t << 20) + ((long)s << 32) + k;
                CHECK(area[t * m + k] == want, "processor %d round %d: area[%d] from %d = %lx",
                      s, round, t * m + k, t, (unsigned long)area[t * m + k]);
            }
    }

    /* One bigger put per source, all in one superstep. */
    long *mine = malloc(m * sizeof *mine);
    for (int k = 0; k < m; k++)
        mine[k] = -(long)s * m - k;
    for (int t = 0; t < p; t++)
        bsp_put(t, mine, area, s * m * sizeof *mine, m * sizeof *mine);
    bsp_sync();
    for (int t = 0; t < p; t++)
        for (int k = 0; k < m; k++)
            CHECK(area[t * m + k] == -(long)t * m - k, "processor %d: block from %d wrong at %d",
                  s, t, k);

    bsp_pop_reg(area);
    bsp_sync();
    free(mine);
    free(area);
    bsp_end();
    return 0;
}
