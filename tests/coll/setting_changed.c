/* changed.c - a SUPERSTEP_* setting changed to garbage while the job runs
 * (issue 18, defect 4): the getter that reads it again reports it through
 * the job's one failure path, so the job says it once, naming the
 * processor and the superstep, and every processor stops with status 1
 * (before: the processor exited from src/settings, and the job printed a
 * second line for that exit on shm, only "ended without mp_quit"-like lines
 * under mpirun).  Processor 1 (0 when p = 1) sets SUPERSTEP_COLL_ALG to a
 * word that is not accepted, then every processor broadcasts. */
// RUN: n=4 fail="^superstep: processor 1, superstep [0-9]+: SUPERSTEP_COLL_ALG='garbage' is not accepted: expected .*$"
// RUN: n=1 fail="^superstep: processor 0, superstep [0-9]+: SUPERSTEP_COLL_ALG='garbage' is not accepted: expected .*$"
#include <bsc.h>
#include <stdlib.h>

#include "check.h"

static int x, y;

int main(void)
{
    bsp_begin(bsp_nprocs());
    unsigned p = bsp_nprocs(), me = bsp_pid();
    bsp_push_reg(&y, sizeof y);
    bsc_sync(bsc_start);
    if (me == (p > 1 ? 1u : 0u))
        setenv("SUPERSTEP_COLL_ALG", "garbage", 1);
    bsc_bcast(bsc_start, 0, bsc_all, &x, &y, sizeof x);
    bsc_sync(bsc_flush);
    bsp_end();
    return 0;
}
