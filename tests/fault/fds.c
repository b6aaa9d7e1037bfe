/* fds.c - no descriptor of Superstep's (segment, pidfds, eventfd) survives
 * an exec of another program started from a processor (popen: sh, ls):
 *   bsp:  every BSPlib processor, in the first superstep and after a sync
 *   mp:   every mp.h node
 *   ends: processor 0 after bsp_end, and node 1 after mp_quit
 * Usage: fds bsp|mp */
// RUN: n=3 args="bsp" out="^fds ok 3$"
// RUN: n=3 args="mp" out="^fds ok 3$"
#include <bsp.h>
#include <mp.h>

#include "fds_check.h"

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: fds bsp|mp");
    char who[32];
    if (!strcmp(argv[1], "mp")) {
        CHECK(mp_start(&argc, &argv), "mp_start");
        snprintf(who, sizeof who, "node %d", mp_this_pe());
        check_exec_sees_no_fds(who);
        CHECK(mp_sync(), "mp_sync");
        int n = mp_npes();
        bool main_node = mp_is_main();
        mp_quit(0);
        if (main_node) {
            check_exec_sees_no_fds("node 1 after mp_quit");
            printf("fds ok %d\n", n);
        }
        return 0;
    }
    bsp_begin(bsp_nprocs());
    snprintf(who, sizeof who, "processor %u", bsp_pid());
    check_exec_sees_no_fds(who);
    bsp_sync();
    check_exec_sees_no_fds(who);
    unsigned p = bsp_nprocs(), me = bsp_pid();
    bsp_end();
    if (me == 0) {
        check_exec_sees_no_fds("processor 0 after bsp_end");
        printf("fds ok %u\n", p);
    }
    return 0;
}
