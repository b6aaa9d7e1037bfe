/* err_negative.c - negative sizes and offsets (1998 dialect, int
 * arguments) are errors of the call, reported with the value.
 * Usage: err_negative MODE; processor 1 makes the bad call in superstep 1
 * (superstep 2 for "move"). */
// RUN: n=2 args="put-nbytes" fail="^superstep: bsp_put: processor 1, superstep 1: .*nbytes -3\b"
// RUN: n=2 args="put-offset" fail="^superstep: bsp_put: processor 1, superstep 1: .*offset -1\b"
// RUN: n=3 args="get-nbytes" fail="^superstep: bsp_get: processor 1, superstep 1: .*nbytes -3\b"
// RUN: n=2 args="get-offset" fail="^superstep: bsp_get: processor 1, superstep 1: .*offset -1\b"
// RUN: n=2 args="hpput-nbytes" fail="^superstep: bsp_hpput: processor 1, superstep 1: .*nbytes -3\b"
// RUN: n=2 args="hpget-offset" fail="^superstep: bsp_hpget: processor 1, superstep 1: .*offset -1\b"
// RUN: n=2 args="send" fail="^superstep: bsp_send: processor 1, superstep 1: .*nbytes -1\b"
// RUN: n=4 args="push_reg" fail="^superstep: bsp_push_reg: processor 1, superstep 1: .*-5\b"
// RUN: n=2 args="set_tagsize" fail="^superstep: bsp_set_tagsize: processor 1, superstep 1: .*-1\b"
// RUN: n=2 args="move" fail="^superstep: bsp_move: processor 1, superstep 2: .*-1\b"
#include <bsp.h>
#include <string.h>

#include "check.h"

static int x[4], v[4];

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_negative MODE");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    int s = bsp_pid();
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    bsp_push_reg(x, sizeof x);
    bsp_sync(); /* superstep 1 */

    int bad = s == 1;
    if (strcmp(m, "put-nbytes") == 0 && bad)
        bsp_put(0, v, x, 0, -3);
    else if (strcmp(m, "put-offset") == 0 && bad)
        bsp_put(0, v, x, -1, 4);
    else if (strcmp(m, "get-nbytes") == 0 && bad)
        bsp_get(0, x, 0, v, -3);
    else if (strcmp(m, "get-offset") == 0 && bad)
        bsp_get(0, x, -1, v, 4);
    else if (strcmp(m, "hpput-nbytes") == 0 && bad)
        bsp_hpput(0, v, x, 0, -3);
    else if (strcmp(m, "hpget-offset") == 0 && bad)
        bsp_hpget(0, x, -1, v, 4);
    else if (strcmp(m, "send") == 0 && bad)
        bsp_send(0, NULL, v, -1);
    else if (strcmp(m, "push_reg") == 0)
        bsp_push_reg(v, bad ? -5 : (int)sizeof v);
    else if (strcmp(m, "set_tagsize") == 0) {
        int n = bad ? -1 : 0;
        bsp_set_tagsize(&n);
    } else if (strcmp(m, "move") == 0) {
        bsp_send(1, NULL, v, sizeof v);
        bsp_sync(); /* superstep 2 */
        if (bad)
            bsp_move(v, -1);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
