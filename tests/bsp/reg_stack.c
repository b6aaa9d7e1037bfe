/* reg_stack.c - registering an address again stacks a new registration on
 * the old one: puts and gets use the most recent registration of the
 * address (with its size, and matched by order with the other processors),
 * and bsp_pop_reg removes the most recent one, uncovering the older. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>

#include "check.h"

static int x[4], y[4];

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int right = (s + 1) % p, left = (s + p - 1) % p;

    /* Registration 0: x with room for one int. */
    bsp_push_reg(x, sizeof(int));
    bsp_sync();

    /* Registration 1: x again, with room for four, on every processor. */
    bsp_push_reg(x, sizeof x);
    bsp_sync();
    int v[4] = {s, s + 10, s + 20, s + 30};
    bsp_put(right, v, x, 0, sizeof v); /* fits only the newer registration */
    bsp_sync();
    for (int i = 0; i < 4; i++)
        CHECK(x[i] == left + 10 * i, "processor %d: x[%d] = %d", s, i, x[i]);

    /* Popping x removes registration 1; registration 0 still works. */
    bsp_pop_reg(x);
    bsp_sync();
    int w = 100 + s;
    bsp_put(right, &w, x, 0, sizeof w);
    bsp_sync();
    CHECK(x[0] == 100 + left, "processor %d: x[0] = %d after the pop", s, x[0]);

    /* Registration 1 again, but processor 0 registers x a second time while
     * the others register y.  Processor 0's puts to x use its most recent
     * registration, so they land in the others' y; the others' puts to x use
     * registration 0 and land in x, also on processor 0. */
    x[0] = y[0] = -1;
    bsp_push_reg(s == 0 ? (void *)x : (void *)y, sizeof(int));
    bsp_sync();
    int u = 200 + s;
    bsp_put(right, &u, x, 0, sizeof u);
    bsp_sync();
    if (left == 0 && s != 0) /* from processor 0: into y */
        CHECK(y[0] == 200 && x[0] == -1, "processor %d: x[0] = %d, y[0] = %d", s, x[0], y[0]);
    else /* from another processor, or from itself when p = 1: into x */
        CHECK(x[0] == 200 + left && y[0] == -1, "processor %d: x[0] = %d, y[0] = %d", s, x[0],
              y[0]);

    /* Pop the most recent (x on processor 0, y elsewhere): processor 0's put
     * to x goes to registration 0 again, the others' x. */
    bsp_pop_reg(s == 0 ? (void *)x : (void *)y);
    bsp_sync();
    x[0] = y[0] = -1;
    u = 300 + s;
    bsp_put(right, &u, x, 0, sizeof u);
    bsp_sync();
    CHECK(x[0] == 300 + left && y[0] == -1, "processor %d: x[0] = %d, y[0] = %d", s, x[0], y[0]);

    /* Pop and push x in one superstep: afterwards x has one registration,
     * the new one, with its size. */
    bsp_pop_reg(x);
    bsp_push_reg(x, sizeof x);
    bsp_sync();
    int z[4] = {s + 1, s + 2, s + 3, s + 4};
    bsp_put(right, z, x, 0, sizeof z);
    bsp_sync();
    for (int i = 0; i < 4; i++)
        CHECK(x[i] == left + 1 + i, "processor %d: x[%d] = %d after pop + push", s, i, x[i]);

    bsp_pop_reg(x);
    bsp_sync();
    bsp_end();
    return 0;
}
