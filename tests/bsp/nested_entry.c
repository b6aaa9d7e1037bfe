/* nested_entry.c - MulticoreBSP's rule for where a run's processors start:
 * after bsp_init(f), the processor that calls bsp_begin becomes processor
 * 0 and goes on after its own bsp_begin, which need not be f's, while
 * processors 1 .. P-1 run f from its first line (its bsp_begin joins the
 * run they are in, its argument unused) and end with it.  The same at the
 * top level and in a nested run (MulticoreBSP's hierarchical BSP).
 * Every outer processor announces an inner run with bsp_init(worker) and
 * then calls leader(), which begins it: the leader adds 1 and what every
 * worker k registered (k + 1), so an inner run of Q sums Q(Q+1)/2 and the
 * outer run P of them.  A worker that went on in leader() as a copy of the
 * caller (fork semantics) would offer the leader's 1 instead, and return
 * into the outer run's code.
 * Usage: nested_entry Q [split|return]: Q processors per inner run; with
 * "split", main also announces the outer run with bsp_init(outer) and then
 * calls outer_lead(), which only processor 0 may run; with "return", the
 * workers return from worker() without bsp_end in inner superstep 1: each
 * is a processor that exited without bsp_end (it does not go on in the
 * outer run's code). */
// RUN: n=2 args="2" out="^sum is 6\.000000$"
// RUN: n=3 args="3" out="^sum is 18\.000000$"
// RUN: n=1 args="4" out="^sum is 10\.000000$"
// RUN: n=2 args="2 split" out="^sum is 6\.000000$"
// RUN: n=3 args="1 split" out="^sum is 3\.000000$"
// RUN: n=2 args="2 return" fail="^superstep: processor 1 exited with status 0 in superstep 1 without calling bsp_end \(in the inner run that processor [01] started in superstep 1\)$"
#include <bsp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static int q;
static bool returns; /* "return" */
static pid_t caller;  /* the outer processor that started this inner run */
static double *sums;  /* processor 0's table of the inner runs' sums */

/* An inner run's processors 1 .. Q-1 start here. */
static void worker(void)
{
    CHECK(getpid() != caller, "the caller ran the inner run's bsp_init function");
    bsp_begin(1); /* joins the inner run: the count is the leader's */
    int k = (int)bsp_pid();
    CHECK(k > 0 && (int)bsp_nprocs() == q, "worker %d of %d (inner runs of %d)", k, (int)bsp_nprocs(), q);
    double mine = k + 1;
    bsp_push_reg(&mine, sizeof mine);
    bsp_sync();
    if (returns)
        return;
    bsp_sync(); /* the leader reads mine */
    bsp_pop_reg(&mine);
    bsp_end();
}

/* Only the caller runs this: inner processor 0. */
static double leader(void)
{
    bsp_begin(q);
    CHECK(bsp_pid() == 0 && getpid() == caller, "inner processor %d ran the leader's code", (int)bsp_pid());
    double *got = calloc((size_t)q, sizeof *got);
    CHECK(got, "calloc");
    got[0] = 1;
    bsp_push_reg(got, q * (int)sizeof *got);
    bsp_sync();
    for (int k = 1; k < q; k++)
        bsp_get(k, got, 0, &got[k], sizeof *got);
    bsp_sync();
    double sum = 0;
    for (int k = 0; k < q; k++)
        sum += got[k];
    bsp_pop_reg(got);
    bsp_end();
    free(got);
    return sum;
}

/* The outer run's work, after its bsp_begin. */
static void outer_body(void)
{
    int p = (int)bsp_nprocs();
    sums = calloc((size_t)p, sizeof *sums);
    CHECK(sums, "calloc");
    bsp_push_reg(sums, p * (int)sizeof *sums);
    bsp_sync();
    caller = getpid();
    bsp_init(worker, 0, NULL);
    double s = leader();
    bsp_put(0, &s, sums, (int)bsp_pid() * (int)sizeof s, sizeof s);
    bsp_sync();
}

static void report(void)
{
    int p = (int)bsp_nprocs();
    double sum = 0;
    for (int t = 0; t < p; t++)
        sum += sums[t];
    printf("sum is %f\n", sum);
    CHECK(sum == p * q * (q + 1) / 2.0, "sum %f, expected %f", sum, p * q * (q + 1) / 2.0);
}

static void outer(void)
{
    bsp_begin(bsp_nprocs());
    outer_body();
    if (bsp_pid() == 0)
        report();
    bsp_end();
}

/* With "split": processor 0's own entry into the outer run. */
static void outer_lead(void)
{
    bsp_begin(bsp_nprocs());
    CHECK(bsp_pid() == 0, "outer processor %d ran processor 0's code", (int)bsp_pid());
    outer_body();
    report();
    bsp_end();
}

int main(int argc, char **argv)
{
    CHECK(argc > 1, "usage: nested_entry Q [split|return]");
    q = atoi(argv[1]);
    bool split = argc > 2 && !strcmp(argv[2], "split");
    returns = argc > 2 && !strcmp(argv[2], "return");
    bsp_init(outer, argc, argv);
    if (split)
        outer_lead();
    else
        outer();
    return 0;
}
