/* fds_kernel.c - kernel of fds_host: popen from every core sees no
 * descriptor of Superstep's. */
// NORUN: the kernel of fds_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>

#include "fds_check.h"

int main(void)
{
    bsp_begin();
    char who[32];
    snprintf(who, sizeof who, "kernel %d", bsp_pid());
    check_exec_sees_no_fds(who);
    bsp_sync();
    bsp_end();
    return 0;
}
