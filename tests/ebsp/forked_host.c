/* forked_host.c - runs forked_kernel: a child that a kernel forks is not a
 * processor (issue 18, defect 2; issue 36); its Epiphany BSP calls are
 * refused with one line, which fails the run: ebsp_spmd returns 0 (a host
 * goes on after a failed run, and this one then ends with 1).
 * Usage: forked_host CALL HOW (sync, message; fork, sysfork, clone). */
// RUN: n=4 args="sync fork" fail="^superstep: bsp_sync: processor 2, superstep 1: called in a child process \(pid [0-9]+\) of processor 2, not the processor$"
// RUN: n=4 args="sync sysfork" fail="^superstep: bsp_sync: processor 2, superstep 1: called in a child process \(pid [0-9]+\) of processor 2, not the processor$"
// RUN: n=4 args="message clone" fail="^superstep: ebsp_message: processor 2, superstep 1: called in a child process \(pid [0-9]+\) of processor 2, not the processor$"
#include <host_bsp.h>

#include "check.h"

int main(int argc, char **argv)
{
    bsp_init("forked_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    CHECK(ebsp_spmd() == 0, "the run succeeded");
    bsp_end();
    return 1;
}
