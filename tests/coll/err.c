/* err.c - bad arguments to bsc.h's calls: one line naming the call, the
 * processor, the superstep and the value; exit status 1 (err.sh checks
 * the status and that the line is the only one).
 * Usage: err CASE.  Processor 1 (0 when p = 1) makes the bad call in
 * superstep 2 (after the first bsc_sync's two) while the others wait. */
// RUN: n=2 args="past" fail="^superstep: bsc_put: processor 1, superstep 4: step 0 is before the current step 2 "
// RUN: n=3 args="root" fail="^superstep: bsc_bcast: processor 1, superstep 2: root 3 out of range \(nprocs 3\)$"
// RUN: n=2 args="reducer" fail="^superstep: bsc_reduce: processor 1, superstep 2: NULL reducer$"
// RUN: n=4 args="member" fail="^superstep: bsc_gather: processor 1, superstep 3: root 0 is not a member of the group$"
// RUN: n=3 args="self" fail="^superstep: bsc_group_create_neighbourhood: processor 1, superstep 2: the neighbours must include the calling processor 1$"
// RUN: n=2 args="size" fail="^superstep: bsc_put: processor 1, superstep 2: size 18446744073709551613 is absurd"
// RUN: n=2 args="unregistered" fail="^superstep: bsc_bcast: processor 0, superstep 2: address 0x[0-9a-f]+ is not registered$"
// RUN: n=3 args="q" fail="^superstep: bsc_bcast_qtree_single: processor 1, superstep 2: q 1: a tree needs q >= 2$"
// RUN: n=1 args="pid" fail="^superstep: bsc_get: processor 0, superstep 2: pid 1 out of range \(nprocs 1\)$"
#include <bsc.h>
#include <string.h>

#include "check.h"

static int x, y;

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err CASE");
    const char *c = argv[1];
    bsp_begin(bsp_nprocs());
    unsigned p = bsp_nprocs(), me = bsp_pid(), bad = p > 1 ? 1 : 0;
    bsc_sync(bsc_start); /* the library's start: two supersteps */
    if (!strcmp(c, "member")) { /* root 0 is not among the odd processors */
        bsc_group_t odd = bsc_group_create_partition(me % 2);
        if (me == bad)
            bsc_gather(bsc_start, 0, odd, &x, &y, sizeof x);
    }
    if (!strcmp(c, "past") && me == bad) {
        bsc_sync(2);
        bsc_put(0, 0, &x, &y, 0, sizeof x);
    }
    if (me == bad) {
        int tmp[8];
        if (!strcmp(c, "root"))
            bsc_bcast(bsc_start, p, bsc_all, &x, &y, sizeof x);
        if (!strcmp(c, "reducer"))
            bsc_reduce(bsc_start, 0, bsc_all, &x, &y, tmp, NULL, &x, 1, sizeof x);
        if (!strcmp(c, "self")) {
            bsc_pid_t nb[1] = { 0 };
            bsc_group_create_neighbourhood(nb, 1);
        }
        if (!strcmp(c, "size"))
            bsc_put(bsc_start, 0, &x, &y, 0, (bsc_size_t)(int)-3);
        if (!strcmp(c, "q"))
            bsc_bcast_qtree_single(bsc_start, 0, bsc_all, &x, &y, sizeof x, 1);
        if (!strcmp(c, "pid"))
            bsc_get(bsc_start, p, &x, 0, &y, sizeof x);
    }
    if (!strcmp(c, "unregistered")) /* y is registered nowhere */
        bsc_bcast(bsc_start, 0, bsc_all, &x, &y, sizeof x);
    bsc_sync(bsc_flush);
    bsp_end();
    return 0;
}
