/* faults.c - on the mpi device no failure leaves a rank waiting: before
 * bsp_begin (processor 0 reading its input, another rank in spmd), in it,
 * and after bsp_end, the whole job ends at once with the one-line
 * diagnosis (or the program's own exit status).  The runner's time limit
 * catches a hang; "processes left behind" catches a rank that survived.
 * Usage: faults STYLE MODE R [S]: STYLE init (bsp_init, p from processor
 * 0) or main (bsp_begin in main on every rank); on rank R:
 *   exit S   exit(S) before bsp_begin;
 *   segv     a NULL write before bsp_begin;
 *   error    bsp_pid() before bsp_begin: its error line;
 *   abort    bsp_abort before bsp_begin;
 *   after S  (R = 0) exit(S) after bsp_end;
 *   asegv    (R = 0) a NULL write after bsp_end (MPI is still up for a
 *            next run: the job stops with its line, as in a run);
 *   aerror   (R = 0) bsp_pid() after bsp_end.
 * faults.sh checks the exit statuses of the cases without a line. */
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN init exit 2 0" fail="^superstep: bsp_begin: processor 2 ended the program with status 0 before calling bsp_begin$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN main exit 1 0" fail="^superstep: bsp_begin: processor 1 ended the program with status 0 before calling bsp_begin$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN init exit 0 0"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN init segv 1" fail="^superstep: processor 1 killed by signal 11 \(SIGSEGV\) before bsp_begin$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN init segv 0" fail="^superstep: processor 0 killed by signal 11 \(SIGSEGV\) before bsp_begin$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN init error 2" fail="^superstep: bsp_pid: called outside bsp_begin \.\.\. bsp_end$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN main error 0" fail="^superstep: bsp_pid: called outside bsp_begin \.\.\. bsp_end$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN init abort 1" fail="^superstep: bsp_abort: .*before the job$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN init aerror 0" fail="^superstep: bsp_pid: called outside bsp_begin \.\.\. bsp_end$"
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN main asegv 0" fail="^superstep: processor 0 killed by signal 11 \(SIGSEGV\)$"
#include <bsp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const char *mode;
static int who, status, me;

/* A real NULL dereference; the sanitizers are told to let it happen. */
__attribute__((noinline, no_sanitize("address", "undefined"))) static void write_null(int *volatile *where)
{
    **where = 1;
}

static void fault(void)
{
    static int *volatile nowhere;
    if (!strcmp(mode, "exit") || !strcmp(mode, "after"))
        exit(status);
    if (!strcmp(mode, "segv") || !strcmp(mode, "asegv"))
        write_null(&nowhere);
    if (!strcmp(mode, "error") || !strcmp(mode, "aerror"))
        printf("%d\n", (int)bsp_pid());
    if (!strcmp(mode, "abort"))
        bsp_abort("%s\n", "before the job");
}

static bool after(void)
{
    return mode[0] == 'a' && strcmp(mode, "abort");
}

static void spmd(void)
{
    if (me == who && !after())
        fault();
    bsp_begin(bsp_nprocs());
    bsp_sync();
    bsp_end();
    if (after())
        fault(); /* only processor 0 comes back from bsp_end */
}

int main(int argc, char **argv)
{
    /* Arguments are read before bsp_init, so every rank has them. */
    CHECK(argc >= 4, "usage: faults init|main MODE R [S]");
    mode = argv[2], who = atoi(argv[3]), status = argc > 4 ? atoi(argv[4]) : 0;
    const char *r = getenv("OMPI_COMM_WORLD_RANK") ? getenv("OMPI_COMM_WORLD_RANK") : getenv("PMI_RANK");
    me = r ? atoi(r) : 0;
    if (!strcmp(argv[1], "init"))
        bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
