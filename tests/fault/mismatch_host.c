/* mismatch_host.c - Epiphany kernels (mismatch_kernel) waiting in different
 * collective calls are reported with one line and a non-zero status, never
 * left waiting or ended silently.  Processor 0 calls the first call of MODE,
 * every other processor the second:
 *   hsync_sync, hsync_barrier, hsync_end, sync_end, barrier_sync,
 *   sync_barrier, barrier_end, end_barrier
 * Usage: mismatch_host MODE */
// RUN: n=2 args="hsync_sync" fail="^superstep: ebsp_host_sync: processor 0, superstep 0: called ebsp_host_sync while processor 1 called bsp_sync"
// RUN: n=3 args="hsync_barrier" fail="^superstep: ebsp_host_sync: processor 0, superstep 0: called ebsp_host_sync while processor 1 called ebsp_barrier$"
// RUN: n=2 args="hsync_end" fail="^superstep: ebsp_host_sync: processor 0, superstep 0: called ebsp_host_sync while processor 1 called bsp_end$"
// RUN: n=2 args="barrier_sync" fail="^superstep: ebsp_barrier: processor 0, superstep 0: called ebsp_barrier while processor 1 called bsp_sync$"
// RUN: n=3 args="sync_barrier" fail="^superstep: ebsp_barrier: processor 1, superstep 0: called ebsp_barrier while processor 0 called bsp_sync$"
// RUN: n=2 args="barrier_end" fail="^superstep: bsp_end: processor 1, superstep 0: called bsp_end while processor 0 called ebsp_barrier$"
// RUN: n=3 args="end_barrier" fail="^superstep: bsp_end: processor 0, superstep 0: called bsp_end while processor 1 called ebsp_barrier$"
// RUN: n=2 args="sync_end" fail="^superstep: bsp_end: processor 1, superstep 0: called bsp_end while processor 0 called bsp_sync"
#include "check.h"
#include "host_once.h"

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: mismatch_host MODE");
    return host_run_once("mismatch_kernel", argc, argv) == 1 ? 0 : 1;
}
