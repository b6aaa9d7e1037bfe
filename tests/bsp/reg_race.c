/* reg_race.c - regression: registration changes in back-to-back one-barrier
 * syncs.  A fast processor leaves a sync and records its next change while a
 * slow one still compares the previous ones; the records are kept per parity
 * of the superstep so that never reads as a mismatch.
 * The longer limits are for the mpi device with MPICH (ch4:ucx): with more
 * ranks than the 2 cores CI has, a superstep there costs 3-4 ms (measured,
 * quiet machine: n=4 15-17 s, n=8 24 s; Open MPI 1 s and 1.6 s), and CI runs
 * four cases at a time. */
// RUN: n=2
// RUN: n=4 timeout=180
// RUN: n=8 args="500" timeout=180
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static char buf[64];

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    bsp_begin(bsp_nprocs());
    for (int i = 0; i < rounds; i++) {
        bsp_push_reg(buf, sizeof buf);
        bsp_sync();
        int v = i;
        bsp_put((bsp_pid() + 1) % bsp_nprocs(), &v, buf, 0, sizeof v);
        bsp_pop_reg(buf);
        bsp_sync();
        CHECK(*(int *)buf == i, "round %d: buf holds %d", i, *(int *)buf);
    }
    if (bsp_pid() == 0)
        printf("reg_race: OK\n");
    bsp_end();
    return 0;
}
