/* low_host.c - runs low_kernel (memories below 4 GiB). */
// RUN: n=4 out="^[$]03: low ok$"
// RUN: n=16 out="^[$]15: low ok$" timeout=120
#include <host_bsp.h>

int main(int argc, char **argv)
{
    bsp_init("low_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    int ok = ebsp_spmd();
    bsp_end();
    return ok ? 0 : 1;
}
