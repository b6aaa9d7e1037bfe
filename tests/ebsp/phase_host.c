/* phase_host.c - Epiphany BSP's host phase rules.  Usage: phase_host MODE.
 *   tagsize_early  ebsp_set_tagsize between bsp_init and bsp_begin counts
 *                  for the session (the kernel starts with it)
 *   end_init       bsp_end after bsp_init alone undoes bsp_init; bsp_init
 *                  may then be called again, and a session runs
 *   tagsize_none   ebsp_set_tagsize before bsp_init: an error
 *   end_twice      bsp_end after bsp_init and bsp_end: an error */
// RUN: n=2 args="tagsize_early" out="^[$]01: tagsize 4, tag 77$"
// RUN: n=2 args="end_init" out="^[$]01: tagsize 0, tag -1$"
// RUN: n=1 args="tagsize_none" fail="^superstep: ebsp_set_tagsize: host: called before bsp_init$"
// RUN: n=1 args="end_twice" fail="^superstep: bsp_end: host: called before bsp_init$"
#include <host_bsp.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: phase_host MODE");
    const char *mode = argv[1];
    int t = 4;
    if (!strcmp(mode, "tagsize_none"))
        ebsp_set_tagsize(&t);
    CHECK(bsp_init("phase_kernel", argc, argv) == 1, "bsp_init failed");
    if (!strcmp(mode, "end_init") || !strcmp(mode, "end_twice")) {
        CHECK(bsp_end() == 1, "bsp_end after bsp_init failed");
        if (!strcmp(mode, "end_twice"))
            bsp_end();
        CHECK(bsp_init("phase_kernel", argc, argv) == 1, "second bsp_init failed");
    }
    if (!strcmp(mode, "tagsize_early")) {
        ebsp_set_tagsize(&t);
        CHECK(t == 0, "old tag size %d, not 0", t);
    }
    bsp_begin(bsp_nprocs());
    if (!strcmp(mode, "tagsize_early")) {
        int tag = 77, v = 1;
        for (int q = 0; q < bsp_nprocs(); q++)
            ebsp_send_down(q, &tag, &v, sizeof v);
    }
    CHECK(ebsp_spmd() == 1, "the run failed");
    bsp_end();
    return 0;
}
