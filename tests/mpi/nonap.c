/*
 * nonap.c - 2000 empty supersteps on the mpi device, for nonap.sh (which
 * counts each rank's sleeps under strace between the two marks: MPI's own
 * start and end sleep as long as they take).
 */
// RUN: n=2 cmd="$MPIRUN -n 2 $BIN" out="^synced$"
#include <bsp.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    bsp_sync();
    access("/nonap-start", F_OK); /* the marks strace sees */
    for (int i = 0; i < 2000; i++)
        bsp_sync();
    access("/nonap-end", F_OK);
    if (bsp_pid() == 0)
        printf("synced\n");
    bsp_end();
    return 0;
}
