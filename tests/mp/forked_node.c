/* forked_node.c - a child that a node forks is not a node (issue 18, defect
 * 2): node 2 forks and its child calls mp_send (or mp_sync) while the nodes
 * go on exchanging messages; the child stops with one line naming the call
 * (exit status 1) and no message goes astray. */
// RUN: n=3 args="send" out="^node 2: child: superstep: mp_send: called in a process that node 2 forked, which is not a node$"
// RUN: n=3 args="sync" out="^node 2: child: superstep: mp_sync: called in a process that node 2 forked, which is not a node$"
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
    CHECK(argc == 2, "usage: forked_node CALL");
    call = argv[1];
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe(), n = mp_npes();
    struct forked_child c = { -1, -1 };
    if (me == 2)
        c = forked_child_start(child);
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
    if (me == 2) {
        char err[512];
        int status = forked_child_end(c, err, sizeof err);
        CHECK(status == 1, "the child's exit status %d (stderr: %s)", status, err);
        printf("node 2: child: %s", err);
        fflush(stdout);
    }
    mp_quit(0);
    return 0;
}
