/* forked_kernel.c - kernel of forked_host: processor 2 forks in superstep 1
 * (HOW: forked_child.h) and its child makes a kernel call, which is refused
 * with one line (exit status 1) that fails the run; processor 2 waits for
 * the child before the processors go on putting to their neighbours. */
// RUN: n=1 fail="^superstep: bsp_begin: this kernel was not started by a host program"
#include <e_bsp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "forked_child.h"

static const char *call;

static void child(void)
{
    if (!strcmp(call, "sync"))
        bsp_sync();
    else
        ebsp_message("from the child");
    fprintf(stderr, "the call returned\n");
}

int main(int argc, char **argv)
{
    call = argc > 1 ? argv[1] : "sync";
    const char *how = argc > 2 ? argv[2] : "fork";
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs();
    int cell[8];
    bsp_push_reg(cell, sizeof cell);
    bsp_sync(); /* superstep 1 */
    if (s == 2) {
        int status = forked_child_end(forked_child_start(how, child));
        CHECK(status == 1, "the child's exit status %d", status);
    }
    for (int step = 0; step < 8; step++) {
        int v = s * 100 + step;
        bsp_put((s + 1) % p, &v, cell, step * (int)sizeof v, sizeof v);
        bsp_sync();
        CHECK(cell[step] == (s + p - 1) % p * 100 + step, "processor %d, step %d: %d", s, step, cell[step]);
    }
    bsp_end();
    return 0;
}
