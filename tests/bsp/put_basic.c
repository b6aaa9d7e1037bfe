/* put_basic.c - bsp_put: the source is copied when bsp_put is called, the
 * data arrives at the bsp_sync, offsets are in bytes into the destination's
 * registered area, puts to oneself work, and zero-length puts do nothing. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <string.h>

#include "check.h"

#define LEN 16
static int x[LEN];

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int right = (s + 1) % p, left = (s + p - 1) % p;
    bsp_push_reg(x, sizeof x);
    bsp_sync();

    /* The source is read at call time: changing it afterwards, in the same
     * superstep, does not change what arrives. */
    int v = 1000 + s;
    bsp_put(right, &v, x, 0, sizeof v);
    v = -1;
    bsp_sync();
    CHECK(x[0] == 1000 + left, "processor %d: x[0] = %d, expected %d", s, x[0], 1000 + left);

    /* Offsets: element k of the right neighbour, from a stack array. */
    int src[LEN];
    for (int k = 0; k < LEN; k++)
        src[k] = 100 * s + k;
    for (int k = 1; k < LEN; k++)
        bsp_put(right, &src[k], x, k * sizeof(int), sizeof(int));
    memset(src, 0xff, sizeof src);
    bsp_sync();
    CHECK(x[0] == 1000 + left, "processor %d: x[0] was overwritten", s);
    for (int k = 1; k < LEN; k++)
        CHECK(x[k] == 100 * left + k, "processor %d: x[%d] = %d, expected %d", s, k, x[k],
              100 * left + k);

    /* One put of several elements at an offset, the last ones of the area. */
    int block[4] = {s, s + 1, s + 2, s + 3};
    bsp_put(right, block, x, (LEN - 4) * sizeof(int), sizeof block);
    bsp_sync();
    for (int k = 0; k < 4; k++)
        CHECK(x[LEN - 4 + k] == left + k, "processor %d: x[%d] = %d", s, LEN - 4 + k,
              x[LEN - 4 + k]);

    /* A put to oneself, whose source is the registered area itself. */
    x[1] = 4242 + s;
    bsp_put(s, &x[1], x, 2 * sizeof(int), sizeof(int));
    x[1] = 0;
    bsp_sync();
    CHECK(x[2] == 4242 + s, "processor %d: put to self gave %d", s, x[2]);

    /* Zero-length puts change nothing, wherever they point within the area
     * (even at its very end) and whatever the source, NULL included. */
    int before[LEN];
    memcpy(before, x, sizeof x);
    int junk = -7;
    bsp_put(right, &junk, x, 0, 0);
    bsp_put(right, &junk, x, sizeof x, 0);
    bsp_put(right, NULL, x, 3 * sizeof(int), 0);
    bsp_sync();
    CHECK(memcmp(before, x, sizeof x) == 0, "processor %d: a zero-length put wrote data", s);

    /* A superstep with no puts leaves the area alone. */
    bsp_sync();
    CHECK(memcmp(before, x, sizeof x) == 0, "processor %d: data changed without a put", s);

    bsp_pop_reg(x);
    bsp_sync();
    bsp_end();
    return 0;
}
