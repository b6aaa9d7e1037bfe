/* nested_deep.c - a run inside an inner run (two levels of MulticoreBSP's
 * nested runs; MulticoreBSP keeps each level's data and restores it at
 * each bsp_end).  Every outer processor starts an inner run of 2; in it
 * every processor (its processor 0, the caller, and the forked one) starts
 * an innermost run of 2.  Each level checks its own pid and nprocs, puts
 * over a variable all three levels register at the same address, and after
 * each inner bsp_end finds its own pid, nprocs and value again.
 * With "too_deep": runs of 1 processor nested inside one another until
 * bsp_begin refuses the eighth inner one with one line, which names every
 * level (a run 7 deep). */
// RUN: n=2
// RUN: n=1
// RUN: n=1 args="too_deep" fail="^superstep: bsp_begin: processor 0, superstep 0: cannot start an inner run: nested too deep \(8 runs inside one another\) \(in the inner run that processor 0 started in superstep 0(, in the inner run that processor 0 started in superstep 0){5}, in the inner run that processor 0 started in superstep 1\)$"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int x;

/* One level: register x, each processor puts base + pid into its next
 * one's x, check; run 'inside' (the next level) between the two syncs. */
static void level(int p, int base, void (*inside)(void))
{
    bsp_begin(p);
    int me = (int)bsp_pid(), n = (int)bsp_nprocs(), next = (me + 1) % n, prev = (me + n - 1) % n;
    CHECK(n == p, "level %d: nprocs %d, asked %d", base, n, p);
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    int v = base + me;
    bsp_put(next, &v, &x, 0, sizeof v);
    if (inside) {
        bsp_init(inside, 0, NULL); /* in the SPMD section: the inner run's, not this one's */
        inside();
        CHECK((int)bsp_pid() == me && (int)bsp_nprocs() == n, "level %d: pid %d of %d after the run inside, was %d of %d",
              base, (int)bsp_pid(), (int)bsp_nprocs(), me, n);
    }
    bsp_sync();
    CHECK(x == base + prev, "level %d processor %d: x %d, expected %d", base, me, x, base + prev);
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
}

static void innermost(void)
{
    level(2, 300, NULL);
}

static void inner(void)
{
    level(2, 200, innermost);
}

static void outer(void)
{
    level((int)bsp_nprocs(), 100, inner);
}

static int levels_left = 20;

static void nest_more(void)
{
    bsp_begin(1);
    if (levels_left-- > 0) {
        bsp_init(nest_more, 0, NULL);
        nest_more();
    }
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "too_deep")) {
        bsp_begin(1);
        bsp_sync();
        bsp_init(nest_more, 0, NULL);
        nest_more();
        bsp_end();
        return 0;
    }
    bsp_init(outer, argc, argv);
    outer();
    printf("done\n");
    return 0;
}
