/* leave_kernel.c - kernel of leave_host: meets the host in ebsp_host_sync
 * (where the host's sync callback leaves), and with LEAVE_MODE=kill
 * processor 1 kills the host (its parent) while the others wait. */
// NORUN: the kernel of leave_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
    bsp_begin();
    const char *mode = getenv("LEAVE_MODE");
    bsp_sync();
    if (mode && !strcmp(mode, "kill")) {
        if (bsp_pid() == 1)
            kill(getppid(), SIGKILL);
        bsp_sync();
    } else {
        ebsp_host_sync();
    }
    bsp_sync();
    bsp_end();
    return 0;
}
