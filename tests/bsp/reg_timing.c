/* reg_timing.c - bsp_push_reg and bsp_pop_reg take effect at the next
 * bsp_sync: a registration can be used from the superstep after the push,
 * and still in the superstep of its pop.  (Using it too early or too late
 * is an error: see err_unreg.c.) */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>

#include "check.h"

static int a, b;

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int right = (s + 1) % p, left = (s + p - 1) % p;

    bsp_push_reg(&a, sizeof a);
    bsp_sync(); /* a is registered from here on */

    int v = 100 + s;
    bsp_put(right, &v, &a, 0, sizeof v);
    bsp_push_reg(&b, sizeof b); /* pushed now, usable next superstep */
    bsp_sync();
    CHECK(a == 100 + left, "processor %d: a = %d", s, a);

    v = 200 + s;
    bsp_put(right, &v, &b, 0, sizeof v);
    bsp_pop_reg(&a); /* still usable in this superstep */
    v = 300 + s;
    bsp_put(right, &v, &a, 0, sizeof v);
    int got = -1;
    bsp_get(right, &a, 0, &got, sizeof got);
    bsp_sync();
    CHECK(b == 200 + left, "processor %d: b = %d", s, b);
    CHECK(a == 300 + left, "processor %d: a = %d after a put in the superstep of the pop", s, a);
    CHECK(got == 100 + s, "processor %d: get in the superstep of the pop gave %d", s, got);

    /* a can be registered again after its pop took effect. */
    bsp_push_reg(&a, sizeof a);
    bsp_sync();
    v = 400 + s;
    bsp_put(right, &v, &a, 0, sizeof v);
    bsp_sync();
    CHECK(a == 400 + left, "processor %d: a = %d after registering it again", s, a);

    /* Push and pop many times: registrations do not leak or run out. */
    for (int i = 0; i < 200; i++) {
        bsp_push_reg(&a, sizeof a);
        bsp_sync();
        v = i * p + s;
        bsp_put(right, &v, &a, 0, sizeof v);
        bsp_pop_reg(&a);
        bsp_sync();
        CHECK(a == i * p + left, "processor %d round %d: a = %d", s, i, a);
    }

    bsp_pop_reg(&b);
    bsp_pop_reg(&a);
    bsp_sync();
    bsp_end();
    return 0;
}
