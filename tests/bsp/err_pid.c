/* err_pid.c - a processor id out of range (negative, or >= nprocs) is an
 * error of the call that names it, reported at the call.
 * Usage: err_pid put|get|send|hpput|hpget PID.  Processor 1 (0 when p = 1)
 * makes the bad call in superstep 1 while the others wait in bsp_sync. */
// RUN: n=2 args="put -1" fail="^superstep: bsp_put: processor 1, superstep 1: .*pid -1\b"
// RUN: n=4 args="put 4" fail="^superstep: bsp_put: processor 1, superstep 1: .*pid 4\b"
// RUN: n=1 args="put 1" fail="^superstep: bsp_put: processor 0, superstep 1: .*pid 1\b"
// RUN: n=3 args="put -2147483648" fail="^superstep: bsp_put: processor 1, superstep 1: .*pid -2147483648\b"
// RUN: n=3 args="get -1" fail="^superstep: bsp_get: processor 1, superstep 1: .*pid -1\b"
// RUN: n=8 args="get 8" fail="^superstep: bsp_get: processor 1, superstep 1: .*pid 8\b"
// RUN: n=2 args="get 1000000" fail="^superstep: bsp_get: processor 1, superstep 1: .*pid 1000000\b"
// RUN: n=2 args="send -1" fail="^superstep: bsp_send: processor 1, superstep 1: .*pid -1\b"
// RUN: n=3 args="send 3" fail="^superstep: bsp_send: processor 1, superstep 1: .*pid 3\b"
// RUN: n=1 args="send 1" fail="^superstep: bsp_send: processor 0, superstep 1: .*pid 1\b"
// RUN: n=2 args="hpput -2" fail="^superstep: bsp_hpput: processor 1, superstep 1: .*pid -2\b"
// RUN: n=2 args="hpput 2" fail="^superstep: bsp_hpput: processor 1, superstep 1: .*pid 2\b"
// RUN: n=4 args="hpget -1" fail="^superstep: bsp_hpget: processor 1, superstep 1: .*pid -1\b"
// RUN: n=4 args="hpget 4" fail="^superstep: bsp_hpget: processor 1, superstep 1: .*pid 4\b"
#include <bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int x, y;

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: err_pid CALL PID");
    const char *call = argv[1];
    int bad = atoi(argv[2]);
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    bsp_push_reg(&x, sizeof x);
    bsp_sync(); /* superstep 1 */

    if (s == (p > 1 ? 1 : 0)) {
        if (strcmp(call, "put") == 0)
            bsp_put(bad, &y, &x, 0, sizeof y);
        else if (strcmp(call, "get") == 0)
            bsp_get(bad, &x, 0, &y, sizeof y);
        else if (strcmp(call, "send") == 0)
            bsp_send(bad, NULL, &y, sizeof y);
        else if (strcmp(call, "hpput") == 0)
            bsp_hpput(bad, &y, &x, 0, sizeof y);
        else if (strcmp(call, "hpget") == 0)
            bsp_hpget(bad, &x, 0, &y, sizeof y);
        else
            CHECK(0, "unknown call %s", call);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
