/* wait_step.c - a program that waits to be stopped from outside, in a known
 * superstep: after S supersteps every processor prints
 * "processor P pid X in superstep S" (flushed), then the last processor
 * waits in pause() and the others in bsp_sync for it.  tests/cluster/
 * failures.sh kills the last one (on node 2) or interrupts the launcher.
 * Usage: wait_step S */
// NORUN: started by tests/cluster/failures.sh
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 2;
    bsp_begin(bsp_nprocs());
    for (int s = 0; s < steps; s++)
        bsp_sync();
    printf("processor %d pid %d in superstep %d\n", bsp_pid(), (int)getpid(), steps);
    fflush(stdout);
    if (bsp_pid() == bsp_nprocs() - 1)
        for (;;)
            pause();
    bsp_sync();
    bsp_end();
    return 0;
}
