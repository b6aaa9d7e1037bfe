/* interrupt.c - a job that hangs as users' jobs do: processor 1 computes
 * for ever in superstep 1 while the others wait for it in bsp_sync.  Each
 * processor prints "pid S PID" first, processor 1 "computing" once in
 * superstep 1.  tests/fault/interrupt.sh and tests/mpi/interrupt.sh stop
 * it as Ctrl-C and a batch system's time limit do. */
// NORUN: started by tests/fault/interrupt.sh and tests/mpi/interrupt.sh
#include <bsp.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    printf("pid %d %d\n", (int)bsp_pid(), (int)getpid());
    fflush(stdout);
    bsp_sync();
    if (bsp_pid() == 1) {
        printf("computing\n");
        fflush(stdout);
        for (volatile unsigned long i = 0;; i++)
            ;
    }
    bsp_sync();
    bsp_end();
    return 0;
}
