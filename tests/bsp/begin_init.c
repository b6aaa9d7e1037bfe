/* begin_init.c - the bsp_init(spmd, argc, argv) style: main calls bsp_init
 * first, then spmd(), which brackets the parallel part with bsp_begin and
 * bsp_end.  Only processor 0 returns from spmd() into main.  Output is
 * counted by begin_once.sh. */
// RUN: n=1
// RUN: n=2 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
// RUN: n=3 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
// RUN: n=4 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
// RUN: n=8 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
// RUN: n=4 args="x y z" nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static int nargs = -1; /* set in main before spmd(): seen by all processors */
static pid_t caller;
static int ran_spmd;

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(p == atoi(getenv("SUPERSTEP_NPROCS")), "nprocs %d", p);
    CHECK(nargs >= 0, "processor %d did not see main's globals", s);
    /* Processor 0 is the caller, or (shm) the worker it forked as supervisor. */
    CHECK((s == 0) == (getpid() == caller || getppid() == caller), "processor %d: wrong process", s);
    ran_spmd = 1;

    /* A little communication to show the processors are really running. */
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
    bsp_init(spmd, argc, argv);
    caller = getpid();
    nargs = argc - 1;
    printf("before spmd\n"); /* not flushed: must still appear once */
    spmd();
    CHECK((getpid() == caller || getppid() == caller) && ran_spmd, "only processor 0 returns from spmd()");
    printf("after spmd %d\n", nargs);
    return 0;
}
