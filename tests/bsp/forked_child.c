/* forked_child.c - a child that a processor forks is not a processor
 * (issue 18, defect 2; issue 36: however it was made): p = 5, processor 2
 * forks in superstep 1 (HOW: fork, sysfork = syscall(SYS_fork), which runs
 * no pthread_atfork handler, clone = clone without CLONE_VM) and its child
 * makes a BSPlib call, which is refused with one line naming the call, the
 * processor it was forked from, the superstep and the child's pid; the
 * line fails the job (status 1, as every error line does).  Processor 2
 * waits for the child before its next bsp_sync, so the others wait in that
 * sync: a child that joined the barrier in its place (before issue 36, with
 * sysfork) let them on with corrupt streams.  Usage: forked_child CALL HOW
 * (CALL: sync, put, send, abort, pid, nprocs, begin, end, qsize; exit: the
 * child calls exit(0), which is its own business, and the job succeeds). */
// RUN: n=5 args="sync fork" fail="^superstep: bsp_sync: processor 2, superstep 1: called in a child process \(pid [0-9]+\) of processor 2, not the processor$"
// RUN: n=5 args="sync sysfork" fail="^superstep: bsp_sync: processor 2, superstep 1: called in a child process \(pid [0-9]+\) of processor 2, not the processor$"
// RUN: n=5 args="sync clone" fail="^superstep: bsp_sync: processor 2, superstep 1: called in a child process \(pid [0-9]+\) of processor 2, not the processor$"
// RUN: n=5 args="put sysfork" fail="^superstep: bsp_put: processor 2, superstep 1: called in a child process \(pid [0-9]+\) of processor 2, not the processor$"
// RUN: n=5 args="send sysfork" fail="^superstep: bsp_send: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="abort sysfork" fail="^superstep: bsp_abort: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="abort fork" fail="^superstep: bsp_abort: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="pid fork" fail="^superstep: bsp_pid: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="nprocs sysfork" fail="^superstep: bsp_nprocs: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="begin fork" fail="^superstep: bsp_begin: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="end sysfork" fail="^superstep: bsp_end: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="qsize fork" fail="^superstep: bsp_qsize: processor 2, superstep 1: called in a child process"
// RUN: n=5 args="exit fork" out="^processor 2: child ended with 0$"
// RUN: n=5 args="exit sysfork" out="^processor 2: child ended with 0$"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "forked_child.h"

#define STEPS 6
static const char *call;
static int cell[STEPS];

static void child(void)
{
    int v = 99;
    unsigned n, b;
    if (!strcmp(call, "sync"))
        bsp_sync();
    else if (!strcmp(call, "put"))
        bsp_put(0, &v, cell, 0, sizeof v);
    else if (!strcmp(call, "send"))
        bsp_send(0, &v, &v, sizeof v);
    else if (!strcmp(call, "abort"))
        bsp_abort("child aborts");
    else if (!strcmp(call, "pid"))
        (void)bsp_pid();
    else if (!strcmp(call, "nprocs"))
        (void)bsp_nprocs();
    else if (!strcmp(call, "begin"))
        bsp_begin(2);
    else if (!strcmp(call, "end"))
        bsp_end();
    else if (!strcmp(call, "qsize"))
        bsp_qsize(&n, &b);
    else if (!strcmp(call, "exit"))
        exit(0);
    fprintf(stderr, "the call returned\n");
}

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: forked_child CALL HOW");
    call = argv[1];
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(p >= 3, "needs processor 2");
    bsp_push_reg(cell, sizeof cell);
    int tag = 4;
    bsp_set_tagsize(&tag);
    bsp_sync(); /* superstep 1 */
    if (s == 2) {
        int status = forked_child_end(forked_child_start(argv[2], child));
        CHECK(status == (strcmp(call, "exit") ? 1 : 0), "the child's exit status %d", status);
        if (!strcmp(call, "exit"))
            printf("processor 2: child ended with 0\n");
    }
    /* Each superstep every processor puts its id into its right neighbour
     * and sends it a message: a refused call stops them at the first sync. */
    for (int step = 0; step < STEPS; step++) {
        int v = s * 100 + step;
        bsp_put((s + 1) % p, &v, cell, step * (int)sizeof v, sizeof v);
        bsp_send((s + 1) % p, &step, &v, sizeof v);
        bsp_sync();
        int left = (s + p - 1) % p, n, bytes;
        CHECK(cell[step] == left * 100 + step, "processor %d, step %d: cell %d", s, step, cell[step]);
        bsp_qsize(&n, &bytes);
        CHECK(n == 1 && bytes == sizeof v, "processor %d, step %d: %d messages", s, step, n);
    }
    bsp_end();
    return 0;
}
