/* err_regcount.c - registrations are matched by order, so every processor
 * must push (and pop) as many registrations as the others in a superstep,
 * and pop the same ones; bsp_set_tagsize must get the same size everywhere.
 * A difference is reported by processor 0 at the bsp_sync that ends the
 * superstep, naming both sides.
 * Usage: err_regcount MODE; processor 1 is the odd one out. */
// RUN: n=2 args="push" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: processor 0 pushed 2, processor 1 pushed 1"
// RUN: n=4 args="push" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: processor 0 pushed 2, processor 1 pushed 1"
// RUN: n=3 args="push0" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: processor 0 pushed 1, processor 1 pushed 0"
// RUN: n=2 args="pop" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: .*processor 0 .*popped 0.*processor 1 .*popped 1"
// RUN: n=3 args="pop-other" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: .*processor 0 .*popped 1.*processor 1 .*popped 1"
// RUN: n=2 args="tagsize" fail="^superstep: bsp_sync: processor 0, superstep 1: .*bsp_set_tagsize.*processor 0 .*\b4\b.*processor 1 .*\b8\b"
#include <bsp.h>
#include <string.h>

#include "check.h"

static int a, b;

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_regcount MODE");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    int odd = bsp_pid() == 1;
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    if (strcmp(m, "pop") == 0 || strcmp(m, "pop-other") == 0) {
        bsp_push_reg(&a, sizeof a);
        bsp_push_reg(&b, sizeof b);
    }
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
    } else if (strcmp(m, "pop-other") == 0) {
        bsp_pop_reg(odd ? &b : &a); /* one pop each, but not the same one */
    } else if (strcmp(m, "tagsize") == 0) {
        int ts = odd ? 8 : 4;
        bsp_set_tagsize(&ts);
    }
    bsp_sync();
    bsp_sync();
    bsp_end();
    return 0;
}
