/* hello.c - the smallest BSP program: every processor says hello.
 *
 * Run it with, e.g., `bsprun -n 4 ./hello`.  bsp_nprocs() called before
 * bsp_begin tells how many processors are available. */
#include <bsp.h>
#include <stdio.h>

int main(void)
{
    bsp_begin(bsp_nprocs()); /* from here on, bsp_nprocs() copies run this */
    printf("Hello from processor %d of %d\n", bsp_pid(), bsp_nprocs());
    bsp_end();
    return 0;
}
