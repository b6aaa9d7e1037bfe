/* get_basic.c - bsp_get reads the remote value at the end of the superstep,
 * before the puts of that superstep land; offsets, gets from oneself, many
 * gets, and zero-length gets. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <string.h>

#include "check.h"

#define LEN 64
static int x;
static int arr[LEN];

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int right = (s + 1) % p, left = (s + p - 1) % p;
    bsp_push_reg(&x, sizeof x);
    bsp_push_reg(arr, sizeof arr);
    x = 10 + s;
    for (int i = 0; i < LEN; i++)
        arr[i] = 1000 * s + i;
    bsp_sync();

    /* A get and a put of the same place in one superstep: the get sees the
     * value from before the put. */
    int got = -1, v = 20 + s;
    bsp_get(right, &x, 0, &got, sizeof got);
    bsp_put(right, &v, &x, 0, sizeof v);
    bsp_sync();
    CHECK(got == 10 + right, "processor %d: got %d, expected the old value %d", s, got, 10 + right);
    CHECK(x == 20 + left, "processor %d: x = %d after the put, expected %d", s, x, 20 + left);

    /* The value is read at the end of the superstep, so a change the owner
     * makes after the get was issued (in the same superstep) is seen. */
    got = -1;
    int self = -1;
    bsp_get(right, &x, 0, &got, sizeof got);
    bsp_get(s, &x, 0, &self, sizeof self); /* this one is deterministic */
    x = 30 + s;
    bsp_sync();
    CHECK(self == 30 + s, "processor %d: get from itself gave %d, expected %d", s, self, 30 + s);
    CHECK(got == 30 + right, "processor %d: got %d, expected %d", s, got, 30 + right);

    /* Offsets: every element of the right neighbour's array, one get each,
     * into reversed positions. */
    int copy[LEN];
    memset(copy, 0xff, sizeof copy);
    for (int i = 0; i < LEN; i++)
        bsp_get(right, arr, i * sizeof(int), &copy[LEN - 1 - i], sizeof(int));
    bsp_sync();
    for (int i = 0; i < LEN; i++)
        CHECK(copy[LEN - 1 - i] == 1000 * right + i, "processor %d: element %d got %d", s, i,
              copy[LEN - 1 - i]);

    /* Part of an array in one get, from everybody including oneself. */
    int part[8 * 4];
    int np = p < 8 ? p : 8;
    for (int t = 0; t < np; t++)
        bsp_get(t, arr, 10 * sizeof(int), &part[4 * t], 4 * sizeof(int));
    bsp_sync();
    for (int t = 0; t < np; t++)
        for (int i = 0; i < 4; i++)
            CHECK(part[4 * t + i] == 1000 * t + 10 + i, "processor %d: from %d got %d", s, t,
                  part[4 * t + i]);

    /* Zero-length gets write nothing, even to NULL or at the end of the area. */
    int keep = 77;
    bsp_get(right, arr, 0, &keep, 0);
    bsp_get(right, arr, sizeof arr, &keep, 0);
    bsp_get(right, &x, 0, NULL, 0);
    bsp_sync();
    CHECK(keep == 77, "processor %d: zero-length get wrote %d", s, keep);

    bsp_pop_reg(arr);
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
    return 0;
}
