/* mismatch_kernel.c - kernel of mismatch_host: processor 0 calls one
 * collective call, the others another (MODE = first_second). */
// NORUN: the kernel of mismatch_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>

#include "check.h"

#include <string.h>

static void call(const char *what)
{
    if (!strcmp(what, "hsync"))
        ebsp_host_sync();
    else if (!strcmp(what, "sync"))
        bsp_sync();
    else if (!strcmp(what, "barrier"))
        ebsp_barrier();
    else if (!strcmp(what, "end"))
        bsp_end();
    else
        CHECK(0, "unknown call %s", what);
}

int main(int argc, char **argv)
{
    bsp_begin();
    CHECK(argc == 2, "usage: mismatch_kernel MODE");
    char first[16] = "", *second = strchr(argv[1], '_');
    CHECK(second && second - argv[1] < 16, "bad mode %s", argv[1]);
    memcpy(first, argv[1], (size_t)(second - argv[1]));
    call(bsp_pid() == 0 ? first : second + 1);
    bsp_sync();
    bsp_end();
    return 0;
}
