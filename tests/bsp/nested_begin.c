/* nested_begin.c - MulticoreBSP's nested (hierarchical) runs: a processor
 * calls bsp_init and bsp_begin inside its SPMD section and becomes
 * processor 0 of an inner run of its own (MulticoreBSP for C 2.x, bsp.h:
 * bsp_pid and bsp_nprocs answer for "the current SPMD run").
 * Usage: nested_begin [Q]: every outer processor, at the same time, starts
 * an inner run of Q processors (default 2) and checks there
 *   - bsp_nprocs() before the inner bsp_begin is the outer run's P in the
 *     caller, and Q in the others, which run inner() from its first line
 *     already in the inner run (MulticoreBSP's rule: nested_entry.c);
 *   - inside, bsp_nprocs() == Q, the pids are 0..Q-1, each exactly once
 *     (every inner processor puts its pid into processor 0's table), and
 *     inner processor 0 is the caller (same process id);
 *   - after the inner bsp_end, bsp_pid and bsp_nprocs are the outer ones
 *     and only the caller came back (one line per outer processor);
 *   - the inner processors may run on every CPU the program started with
 *     (not only on the one the outer run pinned the caller to), and the
 *     caller is pinned as before after the inner run.
 * "repro" as the argument: issue 19's reproducer, unchanged. */
// RUN: n=2 args="repro" out="^outer 0 of 2$"
// RUN: n=2
// RUN: n=3 args="3" out="^outer 2 of 3 back from 3$"
// RUN: n=1 args="4"
#include <bsp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

static void in(void)
{
    bsp_begin(2);
    bsp_end();
}

static int repro(void)
{
    bsp_begin(2);
    bsp_init(in, 0, NULL);
    in();
    printf("outer %d of %d\n", (int)bsp_pid(), (int)bsp_nprocs());
    bsp_end();
    return 0;
}

static int q = 2;
static int outer_p, outer_me;
static pid_t caller;
static int cpus_at_start, cpus_outer;

static int cpus_now(void)
{
    cpu_set_t set;
    CHECK(sched_getaffinity(0, sizeof set, &set) == 0, "sched_getaffinity");
    return CPU_COUNT(&set);
}

static void inner(void)
{
    int before = getpid() == caller ? outer_p : q;
    CHECK((int)bsp_nprocs() == before, "before the inner bsp_begin: bsp_nprocs %d, expected %d", (int)bsp_nprocs(), before);
    bsp_begin(q);
    int me = (int)bsp_pid();
    CHECK((int)bsp_nprocs() == q, "inner bsp_nprocs %d, asked %d", (int)bsp_nprocs(), q);
    CHECK(me >= 0 && me < q, "inner pid %d of %d", me, q);
    CHECK(cpus_now() == cpus_at_start, "inner processor %d may use %d CPUs, the program %d", me, cpus_now(), cpus_at_start);
    CHECK((me == 0) == (getpid() == caller), "inner processor %d: caller %d, me %d", me, (int)caller, (int)getpid());
    int *seen = calloc((size_t)q, sizeof *seen);
    CHECK(seen, "calloc");
    bsp_push_reg(seen, q * (int)sizeof *seen);
    bsp_sync();
    int one = 1;
    bsp_put(0, &one, seen, me * (int)sizeof one, sizeof one);
    bsp_sync();
    if (me == 0)
        for (int k = 0; k < q; k++)
            CHECK(seen[k] == 1, "inner processor %d put %d times", k, seen[k]);
    bsp_pop_reg(seen);
    bsp_end();
    free(seen);
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    outer_p = (int)bsp_nprocs();
    outer_me = (int)bsp_pid();
    caller = getpid();
    cpus_outer = cpus_now();
    bsp_init(inner, 0, NULL);
    inner();
    CHECK((int)bsp_pid() == outer_me && (int)bsp_nprocs() == outer_p, "after the inner run: pid %d of %d, was %d of %d",
          (int)bsp_pid(), (int)bsp_nprocs(), outer_me, outer_p);
    CHECK(getpid() == caller, "a process other than the caller came back from the inner run");
    CHECK(cpus_now() == cpus_outer, "outer processor %d: %d CPUs after the inner run, %d before", outer_me, cpus_now(), cpus_outer);
    printf("outer %d of %d back from %d\n", outer_me, outer_p, q);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "repro"))
        return repro();
    if (argc > 1)
        q = atoi(argv[1]);
    cpus_at_start = cpus_now();
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
