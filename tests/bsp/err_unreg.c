/* err_unreg.c - the remote address of a put or get must be registered, and
 * the registration in force: a push takes effect only at the next bsp_sync,
 * a pop at the next bsp_sync; an address inside a registered area is not
 * itself registered.  Usage: err_unreg MODE; processor 1 makes the bad
 * call. */
// RUN: n=2 args="put" fail="^superstep: bsp_put: processor 1, superstep 1: .*not registered"
// RUN: n=4 args="get" fail="^superstep: bsp_get: processor 1, superstep 1: .*not registered"
// RUN: n=3 args="hpput" fail="^superstep: bsp_hpput: processor 1, superstep 1: .*not registered"
// RUN: n=2 args="hpget" fail="^superstep: bsp_hpget: processor 1, superstep 1: .*not registered"
// RUN: n=2 args="pending" fail="^superstep: bsp_put: processor 1, superstep 1: .*not registered"
// RUN: n=3 args="popped" fail="^superstep: bsp_put: processor 1, superstep 2: .*not registered"
// RUN: n=2 args="interior" fail="^superstep: bsp_put: processor 1, superstep 1: .*not registered"
// RUN: n=2 args="heap" fail="^superstep: bsp_get: processor 1, superstep 1: .*not registered"
#include <bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int x[4], never[4], later[4], v;

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_unreg MODE");
    const char *mode = argv[1];
    bsp_begin(bsp_nprocs());
    int s = bsp_pid();
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    int *heap = malloc(16);
    bsp_push_reg(x, sizeof x);
    bsp_sync(); /* superstep 1 */

    int bad = s == 1;
    if (strcmp(mode, "put") == 0 && bad)
        bsp_put(0, &v, never, 0, sizeof v);
    else if (strcmp(mode, "get") == 0 && bad)
        bsp_get(0, never, 0, &v, sizeof v);
    else if (strcmp(mode, "hpput") == 0 && bad)
        bsp_hpput(0, &v, never, 0, sizeof v);
    else if (strcmp(mode, "hpget") == 0 && bad)
        bsp_hpget(0, never, 0, &v, sizeof v);
    else if (strcmp(mode, "pending") == 0) {
        bsp_push_reg(later, sizeof later); /* everybody, in superstep 1 */
        if (bad)
            bsp_put(0, &v, later, 0, sizeof v); /* too early */
    } else if (strcmp(mode, "popped") == 0) {
        bsp_pop_reg(x);
        bsp_sync(); /* superstep 2: x no longer registered */
        if (bad)
            bsp_put(0, &v, x, 0, sizeof v);
    } else if (strcmp(mode, "interior") == 0 && bad)
        bsp_put(0, &v, &x[1], 0, sizeof v); /* registered is x, not &x[1] */
    else if (strcmp(mode, "heap") == 0 && bad)
        bsp_get(0, heap, 0, &v, sizeof v);
    bsp_sync();
    free(heap);
    bsp_end();
    return 0;
}
