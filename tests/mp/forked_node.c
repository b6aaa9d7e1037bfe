/* forked_node.c - a child that a node forks is not a node (issue 18, defect
 * 2; issue 36: however it was made, forked_child.h): node 2 forks and its
 * child calls mp_send (or mp_sync); the call is refused with one line
 * naming it, the node and the child's pid (exit status 1), and the line
 * fails the job (status 1).  Node 2 waits for the child before the nodes
 * go on exchanging messages: the job stops there (on mpi, mp.h's MPI
 * transport, at node 2's next mp_sync: the child, for which MPI is not,
 * marks the failure in a page it shares with node 2 only).  "clone": the
 * same in a child made by clone without CLONE_VM. */
// RUN: n=3 args="send fork" fail="^superstep: mp_send: node 2: called in a child process \(pid [0-9]+\) of node 2, not the node$"
// RUN: n=3 args="sync sysfork" fail="^superstep: mp_sync: node 2: called in a child process \(pid [0-9]+\) of node 2, not the node$"
// RUN: n=3 args="send clone" fail="^superstep: mp_send: node 2: called in a child process \(pid [0-9]+\) of node 2, not the node$"
#include <mp.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "forked_child.h"

static const char *call;

static void child(void)
{
    if (!strcmp(call, "send"))
        mp_send(1, 7, "x", 1);
    else
        mp_sync();
    fprintf(stderr, "the call returned\n");
}

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: forked_node CALL HOW");
    call = argv[1];
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe(), n = mp_npes();
    if (me == 2) {
        int status = forked_child_end(forked_child_start(argv[2], child));
        CHECK(status == 1, "the child's exit status %d", status);
    }
    for (int round = 0; round < 20; round++) {
        int v = me * 1000 + round;
        mp_send(me % n + 1, round, &v, sizeof v);
        int got = -1, tag, from;
        size_t len = mp_recv(sizeof got, &got, &tag, &from);
        int left = (me + n - 2) % n + 1;
        CHECK(len == sizeof got && tag == round && from == left && got == left * 1000 + round,
              "node %d, round %d: message %d with tag %d from %d", me, round, got, tag, from);
        CHECK(mp_sync(), "sync");
    }
    mp_quit(0);
    return 0;
}
