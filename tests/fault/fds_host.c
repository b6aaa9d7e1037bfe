/* fds_host.c - an Epiphany host whose kernels (fds_kernel) run popen: the
 * programs they exec hold no descriptor of Superstep's (the session and job
 * segments the kernels inherit are close-on-exec once attached); nor do
 * those the host itself execs while the kernels run and after. */
// RUN: n=1 out="^fds ok 1$"
// RUN: n=3 out="^fds ok 3$"
#include <host_bsp.h>

#include "fds_check.h"

int main(int argc, char **argv)
{
    bsp_init("fds_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    check_exec_sees_no_fds("host in a session");
    CHECK(ebsp_spmd() == 1, "the kernels failed");
    check_exec_sees_no_fds("host after ebsp_spmd");
    int p = bsp_nprocs();
    bsp_end();
    printf("fds ok %d\n", p);
    return 0;
}
