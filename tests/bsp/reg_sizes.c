/* reg_sizes.c - registrations are matched across processors by the order
 * of bsp_push_reg, not by address: each processor may register memory at a
 * different address and of a different size.  Bounds are those of the
 * destination processor's registration, so a processor may put or get
 * beyond the size it registered itself.  A processor with nothing to share
 * may register NULL with size 0. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

static int size_of(int t) { return 8 * (t + 1); } /* ints registered by t */

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();

    /* Heap arrays: different addresses and sizes on every processor. */
    int *mine = calloc(size_of(s), sizeof(int));
    int *last = calloc(p, sizeof *last);
    bsp_push_reg(mine, size_of(s) * sizeof(int));
    bsp_sync();

    /* Fill every processor's whole array: element i of t's array is written
     * by processor i % p.  The last elements lie beyond what small pids
     * registered themselves. */
    for (int t = 0; t < p; t++)
        for (int i = s; i < size_of(t); i += p) {
            int v = 1000 * s + i;
            bsp_put(t, &v, mine, i * sizeof v, sizeof v);
        }
    bsp_sync();
    for (int i = 0; i < size_of(s); i++)
        CHECK(mine[i] == 1000 * (i % p) + i, "processor %d: element %d = %d", s, i, mine[i]);

    /* Get the last element of everyone's array. */
    for (int t = 0; t < p; t++)
        bsp_get(t, mine, (size_of(t) - 1) * sizeof(int), &last[t], sizeof(int));
    bsp_sync();
    for (int t = 0; t < p; t++) {
        int i = size_of(t) - 1;
        CHECK(last[t] == 1000 * (i % p) + i, "processor %d: last of %d = %d", s, t, last[t]);
    }

    /* Matched by order: even pids register a then b, odd pids b then a, so
     * a put to "a" from an even processor lands in an odd one's b. */
    static int a, b;
    a = b = -1;
    bsp_push_reg(s % 2 == 0 ? &a : &b, sizeof(int));
    bsp_push_reg(s % 2 == 0 ? &b : &a, sizeof(int));
    bsp_sync();
    int right = (s + 1) % p, left = (s + p - 1) % p;
    int v = 50 + s;
    bsp_put(right, &v, &a, 0, sizeof v);
    bsp_sync();
    /* My slot "first registration" is a if I am even, b if odd; the left
     * neighbour wrote into its own first registration's slot. */
    int *slot_of_left_a = (left % 2 == 0) == (s % 2 == 0) ? &a : &b;
    CHECK(*slot_of_left_a == 50 + left, "processor %d: a = %d, b = %d", s, a, b);
    bsp_pop_reg(s % 2 == 0 ? &b : &a);
    bsp_pop_reg(s % 2 == 0 ? &a : &b);
    bsp_sync();

    /* NULL with size 0 on processor 0; the others exchange through it. */
    static int shared = -1;
    bsp_push_reg(s == 0 ? NULL : &shared, s == 0 ? 0 : sizeof shared);
    bsp_sync();
    if (s != 0) {
        int to = s % (p - 1) + 1; /* the next non-zero processor */
        int w = 60 + s;
        bsp_put(to, &w, &shared, 0, sizeof w);
    }
    bsp_sync();
    if (s != 0) {
        int from = s == 1 ? p - 1 : s - 1;
        CHECK(shared == 60 + from, "processor %d: shared = %d, expected %d", s, shared,
              60 + from);
    }
    bsp_pop_reg(s == 0 ? NULL : &shared);
    bsp_pop_reg(mine);
    bsp_sync();
    free(last);
    free(mine);
    bsp_end();
    return 0;
}
