/* forked_host.c - runs forked_kernel: a child that a kernel forks is not a
 * processor (issue 18, defect 2); its Epiphany BSP calls stop it with one
 * line and the run goes on.  Usage: forked_host CALL (sync, message). */
// RUN: n=4 args="sync" out="^kernel 2: child: superstep: bsp_sync: called in a process that processor 2 forked in superstep 1, which is not a processor$"
// RUN: n=4 args="message" out="^kernel 2: child: superstep: ebsp_message: called in a process that processor 2 forked in superstep 1, which is not a processor$"
#include <host_bsp.h>

#include "check.h"

int main(int argc, char **argv)
{
    bsp_init("forked_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    CHECK(ebsp_spmd() == 1, "the run failed");
    bsp_end();
    return 0;
}
