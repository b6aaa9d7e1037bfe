/* begin_main.c - bsp_begin(bsp_nprocs()) called directly in main.
 * Processor 0 continues the calling process and keeps its state after
 * bsp_end (on shm it runs in the caller's child, the caller waiting as the
 * supervisor: docs/architecture.md; on mpi it is the caller itself); the
 * other processors are forked at bsp_begin, so they start with a copy of the
 * caller's globals.  Output is counted by begin_once.sh. */
// RUN: n=1
// RUN: n=2 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
// RUN: n=3 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
// RUN: n=4 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
// RUN: n=8 nompi="processors are MPI ranks started by mpirun, not forked by bsp_begin (tests/mpi/begin.c)"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static int state;

/* The calling process itself, or the worker it forked as supervisor. */
static int continues(pid_t caller)
{
    return getpid() == caller || getppid() == caller;
}

int main(void)
{
    const char *env = getenv("SUPERSTEP_NPROCS");
    CHECK(env != NULL, "the runner sets SUPERSTEP_NPROCS");
    int avail = bsp_nprocs();
    CHECK(avail == atoi(env), "bsp_nprocs() before bsp_begin is %d, SUPERSTEP_NPROCS=%s",
          avail, env);

    pid_t caller = getpid();
    state = 7;
    /* Not flushed on purpose: forking must not duplicate buffered output. */
    printf("before bsp_begin\n");

    bsp_begin(avail);
    int s = bsp_pid();
    CHECK(bsp_nprocs() == avail, "nprocs %d, asked for %d", bsp_nprocs(), avail);
    CHECK(s >= 0 && s < avail, "pid %d", s);
    if (s == 0)
        CHECK(continues(caller), "processor 0 does not continue the calling process");
    else
        CHECK(!continues(caller), "processor %d continues the calling process", s);
    CHECK(state == 7, "processor %d starts with state %d, not the caller's 7", s, state);
    state = 100 + s;
    printf("processor %d\n", s);
    bsp_sync();
    CHECK(state == 100 + s, "processor %d: state %d", s, state);
    bsp_end();

    /* Only processor 0, the calling process, gets here. */
    CHECK(continues(caller), "a processor other than 0 returned from bsp_end");
    CHECK(state == 100, "processor 0 lost its state: %d", state);
    printf("after bsp_end\n");
    return 0;
}
