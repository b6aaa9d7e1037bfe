/* leave.c - a rank that ends in a way no code of its own sees (SIGKILL,
 * SIGTERM from outside, _exit(0)) in superstep 2: its supervisor names the
 * rank, the signal or status and the superstep, one line, under a plain
 * mpirun and under bsprun (tests/mpi/leave.sh).
 * Usage: leave MODE (kill, term, exit0) */
// RUN: n=1 args="none" out="^done$"
#include <bsp.h>

#include "check.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: leave MODE");
    bsp_begin(bsp_nprocs());
    bsp_sync();
    bsp_sync();
    if (bsp_pid() == 2 || bsp_nprocs() == 1) {
        if (!strcmp(argv[1], "kill"))
            raise(SIGKILL);
        if (!strcmp(argv[1], "term"))
            kill(getpid(), SIGTERM);
        if (!strcmp(argv[1], "exit0"))
            _exit(0);
    }
    bsp_sync();
    if (bsp_pid() == 0)
        printf("done\n");
    bsp_end();
    return 0;
}
