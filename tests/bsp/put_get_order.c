/* put_get_order.c - the replies of a superstep's gets land before any put
 * of that superstep: where a get and puts (from any processor, the getter
 * itself included) write the same bytes, the put wins; where only the get
 * writes, its reply is there; a get reads the value before the puts. */
// RUN: n=1
// RUN: n=2
// RUN: n=4
// RUN: n=4 env="SUPERSTEP_NO_DIRECT=1"
#include <bsp.h>

#include "check.h"

static int x[64], src[64];

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    for (int i = 0; i < 64; i++)
        x[i] = -1, src[i] = 1000 * s + i;
    bsp_push_reg(x, sizeof x);
    bsp_push_reg(src, sizeof src);
    bsp_sync();
    /* Every processor gets src[0..p) of its right neighbour into x[0..p) and
     * puts its id into x[s] of every processor: each x[q] is written by one
     * reply and by processor q's put. */
    int right = (s + 1) % p;
    bsp_get(right, src, 0, x, p * (int)sizeof(int));
    for (int q = 0; q < p; q++)
        bsp_put(q, &s, x, s * (int)sizeof(int), sizeof(int));
    /* x[32..] only a get writes; src[5] is read by a get and then put to */
    bsp_get(right, src, 5 * (int)sizeof(int), &x[32], sizeof(int));
    int v = -7;
    bsp_put(right, &v, src, 5 * (int)sizeof(int), sizeof v);
    bsp_sync();
    for (int q = 0; q < p; q++)
        CHECK(x[q] == q, "processor %d: x[%d] = %d, expected the put's %d", s, q, x[q], q);
    CHECK(x[32] == 1000 * right + 5, "processor %d: x[32] = %d, expected the value before the put", s, x[32]);
    CHECK(src[5] == -7, "processor %d: src[5] = %d", s, src[5]);
    bsp_end();
    return 0;
}
