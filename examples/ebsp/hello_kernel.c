/* hello_kernel.c - the kernel of the Epiphany BSP hello example: every
 * processor says hello through ebsp_message, which the host prints with the
 * processor's id.  Started by hello_host (its ebsp_spmd). */
#include <e_bsp.h>

int main(void)
{
    bsp_begin();
    ebsp_message("Hello world from core %d/%d", bsp_pid(), bsp_nprocs());
    bsp_end();
    return 0;
}
