/* direct_host.c - runs direct_kernel twice in one session (the second run
 * finds the first one's superstep counts in the session segment). */
// RUN: n=2 out="^[$]01: direct ok$"
// RUN: n=3 out="^[$]02: direct ok$"
// RUN: n=4 out="^[$]03: direct ok$"
// RUN: n=8 out="^[$]07: direct ok$"
#include <host_bsp.h>

#include "check.h"

int main(int argc, char **argv)
{
    bsp_init("direct_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    for (int run = 0; run < 2; run++)
        CHECK(ebsp_spmd(), "run %d failed", run);
    bsp_end();
    return 0;
}
