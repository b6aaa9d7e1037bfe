/* err_exit.c - a processor that exits (or returns from main, or from the
 * spmd function) without calling bsp_end while the others go on stops the
 * job; the runtime names it, its exit status and the superstep.
 * Usage: err_exit MODE PID STEP: processor PID, in superstep STEP,
 *   exit:   calls exit(4);
 *   return: returns 0 from main;
 *   spmd:   (bsp_init style) returns from the spmd function, after which
 *           main returns 0. */
// RUN: n=4 args="exit 3 2" fail="^superstep: processor 3 exited with status 4 in superstep 2 without calling bsp_end"
// RUN: n=2 args="exit 1 0" fail="^superstep: processor 1 exited with status 4 in superstep 0 without calling bsp_end"
// RUN: n=3 args="return 1 1" fail="^superstep: processor 1 exited with status 0 in superstep 1 without calling bsp_end"
// RUN: n=3 args="spmd 2 1" fail="^superstep: processor 2 exited with status 0 in superstep 1 without calling bsp_end"
// RUN: n=3 args="exit 0 1" fail="^superstep: processor 0 exited with status 4 in superstep 1 without calling bsp_end"
#include <bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *mode;
static int who, when;

static void run(void)
{
    bsp_begin(bsp_nprocs());
    for (int step = 0; step < when; step++)
        bsp_sync();
    if (bsp_pid() == who) {
        if (strcmp(mode, "exit") == 0)
            exit(4);
        return; /* without bsp_end */
    }
    bsp_sync();
    bsp_end();
}

static void spmd(void) { run(); }

int main(int argc, char **argv)
{
    /* Arguments before bsp_init: on mpi every rank runs main, and ranks
     * other than 0 go from bsp_init straight into spmd. */
    CHECK(argc == 4, "usage: err_exit MODE PID STEP");
    mode = argv[1];
    who = atoi(argv[2]), when = atoi(argv[3]);
    if (strcmp(mode, "spmd") == 0)
        bsp_init(spmd, argc, argv);
    if (strcmp(mode, "spmd") == 0)
        spmd(); /* processor `who` comes back here and returns 0 */
    else
        run(); /* in mode "return" processor `who` returns 0 here */
    return 0;
}
