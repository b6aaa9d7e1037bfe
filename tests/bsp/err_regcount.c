/* err_regcount.c - registrations are matched by order, so every processor
 * must push (and pop) as many registrations as the others in a superstep;
 * a difference is reported at the bsp_sync that ends it, naming the counts.
 * Usage: err_regcount push|push0|pop; processor 1 is the odd one out. */
// RUN: n=2 args="push" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: processor 0 pushed 2, processor 1 pushed 1"
// RUN: n=4 args="push" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: processor 0 pushed 2, processor 1 pushed 1"
// RUN: n=3 args="push0" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: processor 0 pushed 1, processor 1 pushed 0"
// RUN: n=2 args="pop" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: .*processor 0 .*popped 0.*processor 1 .*popped 1"
#include <bsp.h>
#include <string.h>

#include "check.h"

static int a, b;

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_regcount push|push0|pop");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    int odd = bsp_pid() == 1;
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    if (strcmp(m, "pop") == 0)
        bsp_push_reg(&a, sizeof a);
    bsp_sync(); /* superstep 1 */

    if (strcmp(m, "push") == 0) {
        bsp_push_reg(&a, sizeof a);
        if (!odd)
            bsp_push_reg(&b, sizeof b);
    } else if (strcmp(m, "push0") == 0) {
        if (!odd)
            bsp_push_reg(&a, sizeof a);
    } else if (strcmp(m, "pop") == 0) {
        if (odd)
            bsp_pop_reg(&a);
    }
    bsp_sync();
    bsp_sync();
    bsp_end();
    return 0;
}
