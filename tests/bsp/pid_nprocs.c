/* pid_nprocs.c - bsp_nprocs() is the same everywhere and the pids 0..p-1
 * are each taken by exactly one processor.  p = 64 exceeds the number of
 * cores; that must work too.  With an argument k, bsp_begin(k) starts k
 * processors even when more are available. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
// RUN: n=64
// RUN: n=4 args="3"
// RUN: n=8 args="1"
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

int main(int argc, char **argv)
{
    int avail = bsp_nprocs();
    int want = argc > 1 ? atoi(argv[1]) : avail;
    bsp_begin(want);
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(p == want, "bsp_nprocs() = %d after bsp_begin(%d)", p, want);
    CHECK(s >= 0 && s < p, "pid %d out of 0..%d", s, p - 1);
    CHECK(bsp_pid() == s && bsp_nprocs() == p, "pid or nprocs changed");

    /* Gather (pid, nprocs) everywhere: each slot must be written exactly once. */
    int *seen = calloc(2 * p, sizeof *seen);
    bsp_push_reg(seen, 2 * p * sizeof *seen);
    bsp_sync();
    int mine[2] = {s + 1, p};
    for (int t = 0; t < p; t++)
        bsp_put(t, mine, seen, 2 * s * sizeof *seen, sizeof mine);
    bsp_sync();
    for (int t = 0; t < p; t++) {
        CHECK(seen[2 * t] == t + 1, "processor %d: slot %d holds %d", s, t, seen[2 * t] - 1);
        CHECK(seen[2 * t + 1] == p, "processor %d thinks nprocs is %d", t, seen[2 * t + 1]);
    }
    CHECK(bsp_pid() == s && bsp_nprocs() == p, "pid or nprocs changed");
    bsp_pop_reg(seen);
    bsp_sync();
    free(seen);
    bsp_end();
    return 0;
}
