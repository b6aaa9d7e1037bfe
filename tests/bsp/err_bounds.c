/* err_bounds.c - a put or get beyond the area registered on the remote
 * processor (offset + nbytes > its registered size) is an error.  Processor t
 * registers 8 * (t + 1) bytes, so the bound is the destination's size, not
 * the caller's: processor 0's put of offset 4 + 8 bytes into processor 1's
 * 16 bytes is fine, processor 1's put of the same into processor 0's 8 bytes
 * is not.  Sums that overflow an int must not wrap around.
 * Usage: err_bounds MODE; the bad call is processor 1's, in superstep 1
 * (superstep 3 for "after-pop"). */
// RUN: n=2 args="put" fail="^superstep: bsp_put: processor 1, superstep 1: .*offset 4\b.*nbytes 8\b.*\b8 bytes.*processor 0"
// RUN: n=4 args="put" fail="^superstep: bsp_put: processor 1, superstep 1: .*offset 4\b.*nbytes 8\b.*\b8 bytes.*processor 0"
// RUN: n=2 args="get" fail="^superstep: bsp_get: processor 1, superstep 1: .*offset 4\b.*nbytes 8\b.*\b8 bytes.*processor 0"
// RUN: n=3 args="hpput" fail="^superstep: bsp_hpput: processor 1, superstep 1: .*offset 4\b.*nbytes 8\b.*\b8 bytes.*processor 0"
// RUN: n=3 args="hpget" fail="^superstep: bsp_hpget: processor 1, superstep 1: .*offset 4\b.*nbytes 8\b.*\b8 bytes.*processor 0"
// RUN: n=2 args="edge" fail="^superstep: bsp_put: processor 1, superstep 1: .*offset 8\b.*nbytes 1\b.*\b8 bytes.*processor 0"
// RUN: n=2 args="absurd" fail="^superstep: bsp_put: processor 1, superstep 1: .*nbytes 2147483647\b.*\b8 bytes.*processor 0"
// RUN: n=2 args="put-overflow" fail="^superstep: bsp_put: processor 1, superstep 1: .*offset 2147483644\b.*nbytes 8\b"
// RUN: n=2 args="get-overflow" fail="^superstep: bsp_get: processor 1, superstep 1: .*offset 2147483644\b.*nbytes 8\b"
// RUN: n=2 args="after-pop" fail="^superstep: bsp_put: processor 1, superstep 3: .*offset 8\b.*nbytes 8\b.*\b8 bytes.*processor 0"
#include <bsp.h>
#include <limits.h>
#include <string.h>

#include "check.h"

static char area[64], buf[64];

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_bounds MODE");
    const char *mode = argv[1];
    bsp_begin(bsp_nprocs());
    int s = bsp_pid();
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    bsp_push_reg(area, 8 * (s + 1));
    bsp_sync(); /* superstep 1 */

    if (strcmp(mode, "after-pop") == 0) {
        /* A second registration of area with 32 bytes, then popped: the
         * first, of 8 * (t + 1) bytes, is in force again. */
        bsp_push_reg(area, 32);
        bsp_sync();
        bsp_put(0, buf, area, 8, 8); /* fits the 32 bytes */
        bsp_pop_reg(area);
        bsp_sync(); /* superstep 3 */
        if (s == 1)
            bsp_put(0, buf, area, 8, 8);
    } else if (s == 0) {
        /* Legal, bounded by processor 1's 16 bytes. */
        bsp_put(1, buf, area, 4, 8);
        bsp_get(1, area, 4, buf, 8);
    } else if (s == 1) {
        if (strcmp(mode, "put") == 0)
            bsp_put(0, buf, area, 4, 8);
        else if (strcmp(mode, "get") == 0)
            bsp_get(0, area, 4, buf, 8);
        else if (strcmp(mode, "hpput") == 0)
            bsp_hpput(0, buf, area, 4, 8);
        else if (strcmp(mode, "hpget") == 0)
            bsp_hpget(0, area, 4, buf, 8);
        else if (strcmp(mode, "edge") == 0)
            bsp_put(0, buf, area, 8, 1);
        else if (strcmp(mode, "absurd") == 0)
            bsp_put(0, buf, area, 0, INT_MAX);
        else if (strcmp(mode, "put-overflow") == 0)
            bsp_put(0, buf, area, INT_MAX - 3, 8);
        else if (strcmp(mode, "get-overflow") == 0)
            bsp_get(0, area, INT_MAX - 3, buf, 8);
        else
            CHECK(0, "unknown mode %s", mode);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
