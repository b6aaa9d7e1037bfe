/* early_host.c - host of early.sh: runs early_kernel once, whose
 * processors fail before their bsp_begin as EARLY_MODE says (the kernels
 * inherit the environment); exits 0 when the run succeeded, 2 when it
 * failed (ebsp_spmd returned 0).  Alone it runs the clean mode.
 * Usage: early_host */
// RUN: n=2 out="^run ok$"
#include <stdio.h>

#include "host_once.h"

int main(int argc, char **argv)
{
    int ok = host_run_once("early_kernel", argc, argv);
    printf("run %s\n", ok ? "ok" : "failed");
    return ok ? 0 : 2;
}
