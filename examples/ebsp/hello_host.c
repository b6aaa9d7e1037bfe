/* hello_host.c - the host of the Epiphany BSP hello example.
 *
 * Build both halves with bspcc into one directory and run the host:
 *     bspcc hello_host.c -o hello_host && bspcc hello_kernel.c -o hello_kernel
 *     bsprun -n 4 ./hello_host
 * bsp_init names the kernel, looked up beside the host; ebsp_spmd starts it
 * on bsp_nprocs() processors and returns when all have ended. */
#include <host_bsp.h>
#include <stdio.h>

int main(int argc, char **argv)
{
    bsp_init("hello_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    ebsp_spmd();
    bsp_end();
    return 0;
}
