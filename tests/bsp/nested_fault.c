/* nested_fault.c - a fault inside an inner run (MulticoreBSP's nested
 * runs) stops the whole job: one line, which names the processor and
 * superstep of the inner run and where the inner run was started (the
 * outer processor and its superstep), and a non-zero exit
 * (nested_fault.sh checks the status and that there is one line).
 * Every outer processor starts an inner run of 3 in outer superstep 1.
 * Usage: nested_fault MODE O P S
 *   segv, abort, bspabort: in the inner run of outer processor O, inner
 *     processor P writes through NULL / calls abort() / calls bsp_abort in
 *     inner superstep S (the others wait in bsp_sync);
 *   deep: in the inner run of outer processor O, inner processor 1 starts
 *     a run of 2 in inner superstep 1, whose processor P faults in S;
 *   outer: outer processor O faults in outer superstep 1 while the others
 *     compute in their inner runs (the line names no inner run);
 *   exec: in the inner run of outer processor O, inner processor P replaces
 *     itself with a long sleep in inner superstep S: named at once as an
 *     exec (inner processor 0 is outer processor O: its exec is the outer
 *     run's monitor's, or the supervisor's, to see, and the inner run's
 *     processors must not hold its exec pipe open);
 *   leave: after the inner runs, outer processor O leaves with _exit(0) in
 *     outer superstep 2: the supervisor still watches processor 0 (an inner
 *     run's end is not the job's). */
// RUN: n=2 args="segv 1 1 2" fail="^superstep: processor 1 killed by signal 11 \(SIGSEGV\) in superstep 2 \(in the inner run that processor 1 started in superstep 1\)$"
// RUN: n=3 args="segv 0 2 0" fail="^superstep: processor 2 killed by signal 11 \(SIGSEGV\) in superstep 0 \(in the inner run that processor 0 started in superstep 1\)$"
// RUN: n=2 args="segv 1 0 1" fail="^superstep: processor 0 killed by signal 11 \(SIGSEGV\) in superstep 1 \(in the inner run that processor 1 started in superstep 1\)$"
// RUN: n=2 args="segv 0 0 1" fail="^superstep: processor 0 killed by signal 11 \(SIGSEGV\) in superstep 1 \(in the inner run that processor 0 started in superstep 1\)$"
// RUN: n=2 args="abort 1 2 1" fail="^superstep: processor 2 killed by signal 6 \(SIGABRT\) in superstep 1 \(in the inner run that processor 1 started in superstep 1\)$"
// RUN: n=2 args="bspabort 0 1 2" fail="^superstep: bsp_abort: processor 1, superstep 2: inner 1 \(in the inner run that processor 0 started in superstep 1\)$"
// RUN: n=2 args="bspabort 1 0 1" fail="^superstep: bsp_abort: processor 0, superstep 1: inner 0 \(in the inner run that processor 1 started in superstep 1\)$"
// RUN: n=2 args="deep 1 1 0" fail="^superstep: processor 1 killed by signal 11 \(SIGSEGV\) in superstep 0 \(in the inner run that processor 1 started in superstep 1, in the inner run that processor 1 started in superstep 1\)$"
// RUN: n=2 args="exec 1 0 1" timeout=30 fail="^superstep: processor 1 called exec in superstep 1 without calling bsp_end$" nompi="a rank's exec is named by its watcher, but under Open MPI the job ends only with the exec'd program (tests/mpi/leave.sh execlong)"
// RUN: n=3 args="exec 2 0 0" timeout=30 fail="^superstep: processor 2 called exec in superstep 1 without calling bsp_end$" nompi="a rank's exec is named by its watcher, but under Open MPI the job ends only with the exec'd program (tests/mpi/leave.sh execlong)"
// RUN: n=2 args="exec 0 0 1" timeout=30 fail="^superstep: processor 0 called exec in superstep 1 without calling bsp_end$" nompi="a rank's exec is named by its watcher, but under Open MPI the job ends only with the exec'd program (tests/mpi/leave.sh execlong)"
// RUN: n=2 args="exec 1 2 1" timeout=30 fail="^superstep: processor 2 called exec in superstep 1 without calling bsp_end \(in the inner run that processor 1 started in superstep 1\)$"
// RUN: n=2 args="leave 0 0 0" fail="^superstep: processor 0 exited with status 0 in superstep 2 without calling bsp_end$" nompi="a rank's _exit is mpirun's to report (tests/mpi/faults.sh)"
// RUN: n=3 args="leave 2 0 0" fail="^superstep: processor 2 exited with status 0 in superstep 2 without calling bsp_end$" nompi="a rank's _exit is mpirun's to report (tests/mpi/faults.sh)"
// RUN: n=3 args="outer 2 0 0" timeout=20 fail="^superstep: processor 2 killed by signal 11 \(SIGSEGV\) in superstep 1$"
#include <bsp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static const char *mode;
static int o, fp, fs;

__attribute__((noinline, no_sanitize("address", "undefined")))
static void write_null(int *volatile *where)
{
    **where = 1;
}

static void fault(void)
{
    static int *volatile nowhere;
    if (!strcmp(mode, "abort"))
        abort();
    if (!strcmp(mode, "bspabort"))
        bsp_abort("inner %d\n", (int)bsp_pid());
    if (!strcmp(mode, "exec"))
        execl("/bin/sleep", "sleep", "60", (char *)NULL);
    write_null(&nowhere);
}

/* A run of p processors in which processor fp faults in superstep fs. */
static void faulty(int p)
{
    bsp_begin(p);
    for (int s = 0; s < 4; s++) {
        if ((int)bsp_pid() == fp && s == fs)
            fault();
        bsp_sync();
    }
    bsp_end();
}

static void deep_inner(void)
{
    faulty(2);
}

static bool here; /* this outer processor is O: set before bsp_init, so its inner run's processors see it */

/* The inner run of outer processor O in modes segv, abort, bspabort, exec. */
static void faulty_inner(void)
{
    faulty(3);
}

/* The inner run of every other outer processor: 3 processors.  Inner
 * processors 1 and 2 start here (MulticoreBSP's rule), so what differs
 * between outer processors is decided before bsp_init, not by bsp_pid. */
static void inner(void)
{
    bsp_begin(3);
    for (int s = 0; s < 4; s++) {
        if (here && !strcmp(mode, "deep") && bsp_pid() == 1 && s == 1) {
            bsp_init(deep_inner, 0, NULL);
            deep_inner();
        }
        if (!strcmp(mode, "outer")) { /* compute a while: the failure comes from outside */
            struct timespec ts = { 0, 200 * 1000 * 1000 };
            nanosleep(&ts, NULL);
        }
        bsp_sync();
    }
    bsp_end();
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    bsp_sync(); /* outer superstep 1 */
    if (!strcmp(mode, "outer") && (int)bsp_pid() == o) {
        struct timespec ts = { 0, 100 * 1000 * 1000 };
        nanosleep(&ts, NULL); /* the others are in their inner runs */
        fault();
    }
    here = (int)bsp_pid() == o;
    bool faults_here = here && (!strcmp(mode, "segv") || !strcmp(mode, "abort") || !strcmp(mode, "bspabort") ||
                                !strcmp(mode, "exec"));
    void (*run)(void) = faults_here ? faulty_inner : inner;
    bsp_init(run, 0, NULL);
    run();
    bsp_sync();
    if (!strcmp(mode, "leave") && (int)bsp_pid() == o)
        _exit(0);
    bsp_end();
}

int main(int argc, char **argv)
{
    CHECK(argc == 5, "usage: nested_fault MODE O P S");
    mode = argv[1];
    o = atoi(argv[2]);
    fp = atoi(argv[3]);
    fs = atoi(argv[4]);
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
