/* message_host.c - prints what message_kernel sends (checked by message.sh);
 * arguments are passed on to the kernel. */
// RUN: n=2 args="10" out="01: done 1$"
#include <host_bsp.h>

int main(int argc, char **argv)
{
    bsp_init("message_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    int ok = ebsp_spmd();
    bsp_end();
    return ok ? 0 : 1;
}
