/* watch_kernel.c - the kernel of watch_host.c: one superstep, then ends. */
// NORUN: the kernel of watch_host.c
#include <e_bsp.h>

int main(void)
{
    bsp_begin();
    bsp_sync();
    bsp_end();
    return 0;
}
