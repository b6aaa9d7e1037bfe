/* mismatch_host.c - Epiphany kernels (mismatch_kernel) waiting in different
 * collective calls are reported with one line and a non-zero status, never
 * left waiting or ended silently.  Processor 0 calls the first call of MODE,
 * every other processor the second:
 *   hsync_sync, hsync_barrier, hsync_end, sync_end
 * (barrier_sync and barrier_end, ebsp_barrier meeting bsp_sync or bsp_end,
 * are not detected yet: see docs/reliability.md.)
 * Usage: mismatch_host MODE */
// RUN: n=2 args="hsync_sync" fail="^superstep: ebsp_host_sync: processor 0, superstep 0: called ebsp_host_sync while processor 1 called bsp_sync"
// RUN: n=3 args="hsync_barrier" fail="^superstep: ebsp_host_sync: processor 0, superstep 0: called ebsp_host_sync while processor 1 called (bsp_sync, )?ebsp_barrier"
// RUN: n=2 args="hsync_end" fail="^superstep: ebsp_host_sync: processor 0, superstep 0: called ebsp_host_sync while processor 1 called (bsp_sync, ebsp_barrier or )?bsp_end"
// RUN: n=2 args="sync_end" fail="^superstep: bsp_end: processor 1, superstep 0: called bsp_end while processor 0 called bsp_sync"
#include <host_bsp.h>

#include "check.h"

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: mismatch_host MODE");
    bsp_init("mismatch_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    int ok = ebsp_spmd();
    bsp_end();
    return ok == 1 ? 0 : 1;
}
