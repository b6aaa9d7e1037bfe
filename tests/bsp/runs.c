/* runs.c - several bsp_begin ... bsp_end runs one after the other in one
 * program, each on the processors it asks for (MulticoreBSP's multistart):
 * each run checks bsp_nprocs and bsp_pid and passes ids around a ring with
 * bsp_put; processor 0 prints a line per run and main's lines between them.
 * On the mpi device processors other than 0 start each later run from the
 * function given to bsp_init (the others run only the runs, never main).
 * Modes: "two": a run in main itself (bsp_begin first in main), then one
 * through bsp_init (MulticoreBSP's hello_world); "three": three runs, each
 * through bsp_init with a function of its own (multistart); "again": one
 * function, registered once, run three times; "noinit": a second run in
 * main without bsp_init (fine where processors fork; on mpi the others
 * have nothing to start).  Processor 0 fails: "crash_between" (SIGSEGV
 * between the runs), "crash_in" (SIGSEGV in the second run's superstep
 * 1), "exit_between" (exit(3) between the runs).  tests/mpi/runs.sh counts
 * the lines under mpirun and runs the failing modes there. */
// RUN: n=4 args="two" out="^runs: 2 4 done$"
// RUN: n=4 args="three" out="^runs: 2 4 3 done$"
// RUN: n=4 args="again" out="^runs: 3 3 3 done$"
// RUN: n=4 args="noinit" out="^runs: 2 3 done$" nompi="processors 1.. cannot continue from processor 0's bsp_begin: tests/mpi/runs.sh"
#include <bsp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* One run on k processors: a put to the right neighbour, checked. */
static void ring(int k)
{
    CHECK(bsp_nprocs() == k, "run of %d: bsp_nprocs() = %d", k, (int)bsp_nprocs());
    int s = (int)bsp_pid();
    CHECK(s >= 0 && s < k, "run of %d: bsp_pid() = %d", k, s);
    int left = -1, mine = 100 * k + s;
    bsp_push_reg(&left, sizeof left);
    bsp_sync();
    bsp_put((s + 1) % k, &mine, &left, 0, sizeof mine);
    bsp_sync();
    CHECK(left == 100 * k + (s + k - 1) % k, "run of %d, processor %d: left = %d", k, s, left);
    bsp_pop_reg(&left);
    printf("run %d processor %d\n", k, s);
    fflush(stdout);
}

static void run2(void)
{
    bsp_begin(2);
    ring(2);
    bsp_end();
}

static void run4(void)
{
    bsp_begin(4);
    ring(4);
    bsp_end();
}

static void run3(void)
{
    bsp_begin(3);
    ring(3);
    bsp_end();
}

static void crash_in(void)
{
    bsp_begin(3);
    bsp_sync();
    if (bsp_pid() == 0)
        raise(SIGSEGV);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    if (!strcmp(mode, "two")) {
        bsp_begin(2); /* every rank runs main up to here (mpi) */
        ring(2);
        bsp_end();
        printf("between runs\n");
        bsp_init(run4, argc, argv);
        run4();
        printf("runs: 2 4 done\n");
    } else if (!strcmp(mode, "three")) {
        bsp_init(run2, argc, argv);
        run2();
        printf("between runs\n");
        bsp_init(run4, argc, argv);
        run4();
        printf("between runs\n");
        bsp_init(run3, argc, argv);
        run3();
        printf("runs: 2 4 3 done\n");
    } else if (!strcmp(mode, "again")) {
        bsp_init(run3, argc, argv);
        for (int i = 0; i < 3; i++) {
            run3();
            printf("between runs\n");
        }
        printf("runs: 3 3 3 done\n");
    } else if (!strcmp(mode, "noinit")) {
        bsp_begin(2);
        ring(2);
        bsp_end();
        bsp_begin(3);
        ring(3);
        bsp_end();
        printf("runs: 2 3 done\n");
    } else if (!strcmp(mode, "crash_between") || !strcmp(mode, "exit_between") || !strcmp(mode, "crash_in")) {
        bsp_init(run2, argc, argv);
        run2();
        printf("between runs\n");
        fflush(stdout);
        if (!strcmp(mode, "crash_between"))
            raise(SIGSEGV);
        if (!strcmp(mode, "exit_between"))
            exit(3);
        bsp_init(crash_in, argc, argv);
        crash_in();
    } else {
        fprintf(stderr, "runs: unknown mode '%s'\n", mode);
        return 2;
    }
    return 0;
}
