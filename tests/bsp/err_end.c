/* err_end.c - bsp_end is collective: a processor calling it while others
 * call bsp_sync is an error, reported for the bsp_end.
 * Usage: err_end PID STEP: processor PID calls bsp_end in superstep STEP
 * while the others go on to bsp_sync. */
// RUN: n=2 args="1 3" fail="^superstep: bsp_end: processor 1, superstep 3: .*bsp_sync"
// RUN: n=4 args="1 3" fail="^superstep: bsp_end: processor 1, superstep 3: .*bsp_sync"
// RUN: n=3 args="0 2" fail="^superstep: bsp_end: processor 0, superstep 2: .*bsp_sync"
// RUN: n=3 args="2 0" fail="^superstep: bsp_end: processor 2, superstep 0: .*bsp_sync"
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: err_end PID STEP");
    int who = atoi(argv[1]), when = atoi(argv[2]);
    bsp_begin(bsp_nprocs());
    for (int step = 0; step < when; step++)
        bsp_sync();
    if (bsp_pid() != who)
        bsp_sync();
    bsp_end();
    return 0;
}
