/* begin_twice.c - bsp_begin inside an SPMD section without bsp_init before
 * it: the 1998 standard's rule (one bsp_begin per program; BSPonMPI's test
 * begin_1) stops the job with one line.  Only MulticoreBSP's pattern,
 * bsp_init in the SPMD section and then bsp_begin, starts an inner run
 * (nested_begin.c), and one bsp_init announces one inner run.
 * Modes: "main" (bsp_begin twice in main, as begin_1 does), "spmd" (twice
 * in an SPMD function that main started with bsp_init), "used" (an inner
 * run announced and ended, then bsp_begin again without a new bsp_init). */
// RUN: n=2 args="main" fail="^superstep: bsp_begin: processor [01], superstep 0: called twice \(an inner run, MulticoreBSP's nested BSP, calls bsp_init first in the SPMD section\)$"
// RUN: n=2 args="spmd" fail="^superstep: bsp_begin: processor [01], superstep 1: called twice"
// RUN: n=2 args="used" fail="^superstep: bsp_begin: processor [01], superstep 2: called twice"
#include <bsp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static const char *mode = "";

static void inner(void)
{
    bsp_begin(2);
    bsp_sync();
    bsp_end();
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    bsp_sync();
    if (!strcmp(mode, "used")) {
        bsp_init(inner, 0, NULL);
        inner();
        CHECK((int)bsp_nprocs() == 2, "after the inner run: nprocs %d", (int)bsp_nprocs());
        bsp_sync();
    }
    bsp_begin(2);
    fprintf(stderr, "processor %d: the second bsp_begin returned\n", (int)bsp_pid());
    bsp_end();
}

int main(int argc, char **argv)
{
    mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "main")) {
        bsp_begin(bsp_nprocs());
        bsp_begin(2);
        fprintf(stderr, "processor %d: the second bsp_begin returned\n", (int)bsp_pid());
        bsp_end();
        return 0;
    }
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
