/* err_pop.c - bsp_pop_reg of an address with no registration left is an
 * error of the call.  Usage: err_pop never|twice|again; processor 1 makes
 * the bad call. */
// RUN: n=2 args="never" fail="^superstep: bsp_pop_reg: processor 1, superstep 1: .*not registered"
// RUN: n=3 args="twice" fail="^superstep: bsp_pop_reg: processor 1, superstep 1: .*not registered"
// RUN: n=2 args="again" fail="^superstep: bsp_pop_reg: processor 1, superstep 2: .*not registered"
#include <bsp.h>
#include <string.h>

#include "check.h"

static int a, never;

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_pop never|twice|again");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    int bad = bsp_pid() == 1;
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    bsp_push_reg(&a, sizeof a);
    bsp_sync(); /* superstep 1 */

    if (strcmp(m, "never") == 0) {
        if (bad)
            bsp_pop_reg(&never);
    } else if (strcmp(m, "twice") == 0) {
        bsp_pop_reg(&a);
        if (bad)
            bsp_pop_reg(&a); /* a was registered once */
    } else if (strcmp(m, "again") == 0) {
        bsp_pop_reg(&a);
        bsp_sync(); /* superstep 2: a is gone */
        if (bad)
            bsp_pop_reg(&a);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
