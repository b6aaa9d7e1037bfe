/* reg_many.c - many registrations alive at once, popped out of push order
 * and replaced, so the registration table grows and reuses its slots; puts
 * must keep landing in the right place on every processor.
 * Usage: reg_many [registrations] (default 1000). */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8 args="300"
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 1000;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int right = (s + 1) % p, left = (s + p - 1) % p;
    int *a = calloc(m, sizeof *a), *b = calloc(m, sizeof *b);

    /* Every element of a is a registration of its own. */
    for (int i = 0; i < m; i++)
        bsp_push_reg(&a[i], sizeof(int));
    bsp_sync();
    for (int i = 0; i < m; i++) {
        int v = s * m + i;
        bsp_put(right, &v, &a[i], 0, sizeof v);
    }
    bsp_sync();
    for (int i = 0; i < m; i++)
        CHECK(a[i] == left * m + i, "processor %d: a[%d] = %d", s, i, a[i]);

    /* Pop every third one, from the top down, and register the same number
     * of elements of b (which may take the freed slots). */
    for (int i = m - 1; i >= 0; i--)
        if (i % 3 == 1)
            bsp_pop_reg(&a[i]);
    for (int i = 0; i < m; i++)
        if (i % 3 == 1)
            bsp_push_reg(&b[i], sizeof(int));
    bsp_sync();
    for (int i = 0; i < m; i++) {
        int v = -(s * m + i);
        bsp_put(right, &v, i % 3 == 1 ? &b[i] : &a[i], 0, sizeof v);
    }
    bsp_sync();
    for (int i = 0; i < m; i++) {
        int want = -(left * m + i);
        if (i % 3 == 1)
            CHECK(b[i] == want && a[i] == left * m + i, "processor %d: b[%d] = %d, a[%d] = %d",
                  s, i, b[i], i, a[i]);
        else
            CHECK(a[i] == want, "processor %d: a[%d] = %d", s, i, a[i]);
    }

    /* Pop everything, in an order that is neither push order nor its reverse. */
    for (int i = 0; i < m; i += 2)
        bsp_pop_reg(i % 3 == 1 ? &b[i] : &a[i]);
    for (int i = 1; i < m; i += 2)
        bsp_pop_reg(i % 3 == 1 ? &b[i] : &a[i]);
    bsp_sync();
    free(b);
    free(a);
    bsp_end();
    return 0;
}
