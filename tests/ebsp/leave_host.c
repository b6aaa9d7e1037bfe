/* leave_host.c - an Epiphany host that leaves while its kernels run (from
 * the sync callback: _exit(0), exec of /bin/true or of a long sleep; or
 * killed by SIGKILL from a kernel): the supervisor names it, the status is
 * non-zero and no kernel is left running.
 * Usage: leave_host MODE */
// RUN: n=2 args="_exit0" fail="^superstep: host exited with status 0 in ebsp_spmd while its kernels ran$" nompi="the supervisor is shm's: on mpi, mpirun sees the host leave (docs/mpi.md)"
// RUN: n=2 args="execlong" fail="^superstep: host called exec in ebsp_spmd while its kernels ran$" nompi="the supervisor is shm's: on mpi, mpirun sees the host leave (docs/mpi.md)"
// RUN: n=2 args="exec" fail="^superstep: host called exec in ebsp_spmd while its kernels ran$" nompi="the supervisor is shm's: on mpi, mpirun sees the host leave (docs/mpi.md)"
// RUN: n=3 args="kill" fail="^superstep: host killed by signal 9 \(SIGKILL\) in ebsp_spmd while its kernels ran$" nompi="the supervisor is shm's: on mpi, mpirun sees the host leave (docs/mpi.md)"
#include <host_bsp.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "leave.h"

static const char *mode;

static void on_sync(void)
{
    leave_as(mode);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: leave_host MODE");
    mode = argv[1];
    setenv("LEAVE_MODE", mode, 1);
    CHECK(bsp_init("leave_kernel", argc, argv) == 1, "bsp_init");
    CHECK(bsp_begin(bsp_nprocs()) == 1, "bsp_begin");
    ebsp_set_sync_callback(on_sync);
    CHECK(ebsp_spmd() == 1, "the run failed");
    bsp_end();
    return 0;
}
