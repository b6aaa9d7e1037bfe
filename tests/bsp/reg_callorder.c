/* reg_callorder.c - bsp_push_reg and bsp_pop_reg take effect in call order:
 * a pop of an address pushed in the same superstep undoes that push (the
 * most recent one first), a pop of NULL undoes a push of NULL, and what is
 * left is registered at the sync with slots matched across processors. */
// RUN: n=1
// RUN: n=3
#include <bsp.h>

#include "check.h"

static int a[4], b[4], c[4];

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs(), right = (s + 1) % p;

    /* push a, push a, pop a, pop a: nothing stays */
    bsp_push_reg(a, sizeof a);
    bsp_push_reg(a, sizeof a);
    bsp_pop_reg(a);
    bsp_pop_reg(a);
    /* push NULL, pop NULL; push b, push c, pop b: c stays */
    bsp_push_reg(NULL, 0);
    bsp_pop_reg(NULL);
    bsp_push_reg(b, sizeof b);
    bsp_push_reg(c, sizeof c);
    bsp_pop_reg(b);
    bsp_sync();
    int v = 10 + s;
    bsp_put(right, &v, c, sizeof(int), sizeof v);
    /* c in force; push c again (with 1 int) and pop it at once: c's first
     * registration, whole, is still the one used */
    bsp_push_reg(c, sizeof(int));
    bsp_pop_reg(c);
    bsp_sync();
    CHECK(c[1] == 10 + (s + p - 1) % p, "processor %d: c[1] = %d", s, c[1]);
    bsp_put(right, &v, c, 3 * sizeof(int), sizeof v);
    /* a pop of c in force, then a push of c: the push stays */
    bsp_pop_reg(c);
    bsp_push_reg(c, 2 * sizeof(int));
    bsp_sync();
    CHECK(c[3] == 10 + (s + p - 1) % p, "processor %d: c[3] = %d", s, c[3]);
    bsp_put(right, &v, c, sizeof(int), sizeof v);
    bsp_pop_reg(c);
    bsp_sync();
    bsp_end();
    return 0;
}
