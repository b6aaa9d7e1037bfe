/* stall_host.c - SUPERSTEP_STALL_TIMEOUT in Epiphany kernels (stall_kernel):
 * processor 1 computes for ever while the others wait in bsp_sync,
 * ebsp_barrier or ebsp_host_sync (MODE); one line names it and the
 * setting, and the run fails (ebsp_spmd returns 0: exit status 1).
 * Usage: stall_host MODE */
// RUN: n=3 args="sync" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: bsp_sync: processor [02], superstep 0: waited [0-9]+ s for processor 1, still computing in superstep 0 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=3 args="barrier" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: ebsp_barrier: processor [02], superstep 0: waited [0-9]+ s for processor 1, still computing in superstep 0 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=3 args="hsync" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: ebsp_host_sync: processor [02], superstep 0: waited [0-9]+ s for processor 1, still computing in superstep 0 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
#include "check.h"
#include "host_once.h"

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: stall_host MODE");
    return host_run_once("stall_kernel", argc, argv) == 1 ? 0 : 1;
}
