/* forked_child.c - a child that a processor forks is not a processor
 * (issue 18, defect 2): p = 5, processor 2 forks in superstep 1 and its
 * child makes a BSPlib call while the parent goes on; the child stops with
 * one line naming the call (exit status 1), and the job's data stays
 * right.  Usage: forked_child CALL (sync, put, pid, nprocs, begin, end,
 * qsize; exit: the child calls exit(0), which is its own business). */
// RUN: n=5 args="sync" out="^processor 2: child: superstep: bsp_sync: called in a process that processor 2 forked in superstep 1, which is not a processor$"
// RUN: n=5 args="put" out="^processor 2: child: superstep: bsp_put: called in a process that processor 2 forked in superstep 1, which is not a processor$"
// RUN: n=5 args="pid" out="^processor 2: child: superstep: bsp_pid: called in a process"
// RUN: n=5 args="nprocs" out="^processor 2: child: superstep: bsp_nprocs: called in a process"
// RUN: n=5 args="begin" out="^processor 2: child: superstep: bsp_begin: called in a process"
// RUN: n=5 args="end" out="^processor 2: child: superstep: bsp_end: called in a process"
// RUN: n=5 args="qsize" out="^processor 2: child: superstep: bsp_qsize: called in a process"
// RUN: n=5 args="exit" out="^processor 2: child ended with 0, silent$"
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
    CHECK(argc == 2, "usage: forked_child CALL");
    call = argv[1];
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(p >= 3, "needs processor 2");
    bsp_push_reg(cell, sizeof cell);
    int tag = 4;
    bsp_set_tagsize(&tag);
    bsp_sync(); /* superstep 1 */
    struct forked_child c = { -1, -1 };
    if (s == 2)
        c = forked_child_start(child);
    /* The job goes on: each superstep every processor puts its id into its
     * right neighbour and sends it a message. */
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
    if (s == 2) {
        char err[512];
        int status = forked_child_end(c, err, sizeof err);
        if (!strcmp(call, "exit")) {
            CHECK(status == 0 && !*err, "the child's exit status %d (stderr: %s)", status, err);
            printf("processor 2: child ended with 0, silent\n");
            bsp_end();
            return 0;
        }
        CHECK(status == 1, "the child's exit status %d (stderr: %s)", status, err);
        CHECK(strchr(err, '\n') == err + strlen(err) - 1, "not one line: %s", err);
        printf("processor 2: child: %s", err);
    }
    bsp_end();
    return 0;
}
