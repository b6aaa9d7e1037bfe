/* order_host.c - runs order_kernel with this program's arguments (see
 * order.sh); exit status 0 when the run succeeded, 3 when it failed. */
// RUN: n=2 args="rounds 4" out="^[$]01: 3$"
#include <host_bsp.h>

int main(int argc, char **argv)
{
    bsp_init("order_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    int ok = ebsp_spmd();
    bsp_end();
    return ok ? 0 : 3;
}
