/* stall_kernel.c - kernel of stall_host: processor 1 computes for ever, the
 * others call MODE (sync, barrier, hsync). */
// NORUN: the kernel of stall_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>

#include "check.h"
#include "late.h"

#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    bsp_begin();
    CHECK(argc == 2, "usage: stall_kernel MODE");
    if (bsp_pid() == 1)
        sleep_forever();
    if (!strcmp(argv[1], "sync"))
        bsp_sync();
    else if (!strcmp(argv[1], "barrier"))
        ebsp_barrier();
    else
        ebsp_host_sync();
    bsp_end();
    return 0;
}
