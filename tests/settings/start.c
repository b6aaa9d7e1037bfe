/* start.c - a program that starts a job and says so: used by bad_values.sh
 * to see that a bad setting stops a program before anything starts.
 *   bsp:   bsp_nprocs, bsp_begin, bsp_end; prints "started" on processor 0
 *   mp:    mp_start, mp_quit; prints "started" on node 1
 *   count: prints bsp_nprocs() (without starting)
 * Usage: start bsp|mp|count */
// RUN: n=2 args="bsp" out="^started 2$"
// RUN: n=3 args="mp" out="^started 3$"
// RUN: n=7 args="count" out="^7$"
#include <bsp.h>
#include <mp.h>

#include "check.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: start bsp|mp|count");
    if (!strcmp(argv[1], "count")) {
        printf("%u\n", bsp_nprocs());
        return 0;
    }
    if (!strcmp(argv[1], "mp")) {
        if (!mp_start(&argc, &argv))
            return 1; /* mp_start said why */
        if (mp_is_main())
            printf("started %d\n", mp_npes());
        mp_quit(0);
        return 0;
    }
    bsp_begin(bsp_nprocs());
    if (bsp_pid() == 0)
        printf("started %u\n", bsp_nprocs());
    bsp_end();
    return 0;
}
