/* begin.c - how a program starts and ends on the mpi device (what
 * tests/bsp/begin_main.c and begin_init.c check for shm, where processors
 * are forked at bsp_begin).  Under mpirun every rank runs the program:
 *   main:  bsp_begin(bsp_nprocs()) in main: bsp_nprocs() before bsp_begin is
 *          the number of ranks; processor s is rank s; only processor 0
 *          returns from bsp_end, with its state;
 *   init:  bsp_init(spmd) first in main: ranks other than 0 go straight into
 *          spmd (without what main sets after bsp_init, as the BSPlib
 *          standard says), and only processor 0 runs the rest of main.
 *   fewer K: bsp_begin(K) with K below the number of ranks: ranks K.. take
 *          no part and end quietly.
 * begin.sh counts the output lines. */
// RUN: n=1 cmd="$MPIRUN -n 1 $BIN main" out="^after bsp_end$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN main" out="^after bsp_end$"
// RUN: n=4 cmd="$MPIRUN -n 4 $BIN init" out="^after spmd 1$"
// RUN: n=8 cmd="$MPIRUN -n 8 $BIN init" out="^after spmd 1$"
// RUN: n=4 cmd="$MPIRUN -n 4 $BIN fewer 3" out="^after bsp_end$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN fewer 1" out="^after bsp_end$"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int state;
static int nargs = -1;
static int ran_spmd;

/* The MPI rank, from the launcher's environment (Open MPI, MPICH). */
static int launcher_rank(void)
{
    const char *v = getenv("OMPI_COMM_WORLD_RANK");
    if (!v)
        v = getenv("PMI_RANK");
    return v ? atoi(v) : -1;
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(s == launcher_rank(), "processor %d is rank %d", s, launcher_rank());
    CHECK((s == 0) == (nargs >= 0), "processor %d: nargs %d (only processor 0 ran main)", s, nargs);
    ran_spmd = 1;
    int *ids = calloc(p, sizeof *ids);
    bsp_push_reg(ids, p * sizeof *ids);
    bsp_sync();
    for (int t = 0; t < p; t++)
        bsp_put(t, &s, ids, s * sizeof s, sizeof s);
    bsp_sync();
    for (int t = 0; t < p; t++)
        CHECK(ids[t] == t, "processor %d: ids[%d] = %d", s, t, ids[t]);
    bsp_pop_reg(ids);
    bsp_sync();
    free(ids);
    printf("processor %d\n", s);
    bsp_end();
}

int main(int argc, char **argv)
{
    CHECK(argc >= 2, "usage: begin main|init|fewer K");
    if (!strcmp(argv[1], "init")) {
        bsp_init(spmd, argc, argv);
        nargs = argc - 1;
        printf("before spmd\n");
        spmd();
        CHECK(ran_spmd, "spmd did not run");
        printf("after spmd %d\n", nargs);
        return 0;
    }
    int world = atoi(getenv("OMPI_COMM_WORLD_SIZE") ? getenv("OMPI_COMM_WORLD_SIZE")
                                                    : getenv("PMI_SIZE") ? getenv("PMI_SIZE") : "-1");
    CHECK(bsp_nprocs() == world, "bsp_nprocs() before bsp_begin is %d, the job has %d ranks", bsp_nprocs(), world);
    int want = !strcmp(argv[1], "fewer") && argc > 2 ? atoi(argv[2]) : bsp_nprocs();
    state = 7;
    pid_t self = getpid();
    bsp_begin(want);
    int s = bsp_pid();
    CHECK(bsp_nprocs() == want, "nprocs %d, asked for %d", bsp_nprocs(), want);
    CHECK(s == launcher_rank(), "processor %d is rank %d", s, launcher_rank());
    CHECK(state == 7, "processor %d: state %d", s, state);
    state = 100 + s;
    printf("processor %d\n", s);
    bsp_sync();
    bsp_end();
    CHECK(s == 0 && getpid() == self, "processor %d returned from bsp_end", s);
    CHECK(state == 100, "processor 0 lost its state: %d", state);
    printf("after bsp_end\n");
    return 0;
}
