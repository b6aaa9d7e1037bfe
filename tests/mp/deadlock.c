/* deadlock.c - mp.h: when every running node waits for ever and nothing in
 * flight can end a wait, the job stops with one line naming every waiting
 * node (exit 1), instead of waiting for ever; waits that something can still
 * end are never reported.
 *   all:       every node in mp_recv, nothing sent
 *   cycle:     node k receives from node k+1 (the last from node 1)
 *   mixed:     node 1 in mp_sync, the others in mp_recv / mp_probe_wait
 *   unmatched: a message from node 2 in flight to node 1, which receives
 *              from node 3 only
 *   slow:      every node but node 2 waits while node 2 computes for 1.5 s
 *              and then sends: no deadlock, exit 0
 *   timed:     node 1 waits with a timeout while the others wait for ever:
 *              no deadlock (the timeout ends it), exit 0
 *   ring:      a token goes round the nodes 4 times; its holder sleeps
 *              0.25 s before passing it on while every other node waits for
 *              ever (long enough to say so: on mpi each has told node 1 it
 *              waits, and those reports go stale as the token moves): no
 *              deadlock, exit 0
 *   ended:     node 3 ends (mp_quit), then nodes 1 and 2 receive from each
 *              other: a deadlock of the running nodes, node 3 not named
 * Usage: deadlock MODE */
// RUN: n=4 args="all" fail="^superstep: mp: deadlock: every running node waits for ever and no message in flight can end a wait: node 1 receives from any node, node 2 receives from any node, node 3 receives from any node, node 4 receives from any node$"
// RUN: n=2 args="all" fail="^superstep: mp: deadlock: .*: node 1 receives from any node, node 2 receives from any node$"
// RUN: n=3 args="cycle" fail="^superstep: mp: deadlock: .*: node 1 receives from node 2, node 2 receives from node 3, node 3 receives from node 1$"
// RUN: n=3 args="mixed" fail="^superstep: mp: deadlock: .*: node 1 in mp_sync, node 2 receives from any node, node 3 receives from node 1$"
// RUN: n=3 args="unmatched" fail="^superstep: mp: deadlock: .*: node 1 receives from node 3, node 2 receives from any node, node 3 receives from node 1$"
// RUN: n=4 args="slow" out="^node 1: got 7 from 2$"
// RUN: n=3 args="timed" out="^node 1: timed out$"
// RUN: n=4 args="ring" timeout=120 out="^node 1: token back 4 times$"
// RUN: n=3 args="ended" fail="^superstep: mp: deadlock: .*: node 1 receives from node 2, node 2 receives from node 1$"
#include <mp.h>

#include "check.h"
#include "fault/late.h"

#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: deadlock MODE");
    const char *m = argv[1];
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe(), n = mp_npes(), tag, from, v = 0;
    bool got;
    if (!strcmp(m, "all")) {
        mp_recv(sizeof v, &v, &tag, &from);
    } else if (!strcmp(m, "cycle")) {
        mp_recv_from(me % n + 1, sizeof v, &v, &tag, MP_FOREVER, &got);
    } else if (!strcmp(m, "mixed")) {
        if (me == 1)
            mp_sync();
        else if (me == 2)
            mp_recv(sizeof v, &v, &tag, &from);
        else
            mp_probe_wait(1, MP_FOREVER);
    } else if (!strcmp(m, "unmatched")) {
        if (me == 2) {
            v = 5;
            CHECK(mp_send(1, 0, &v, sizeof v), "send");
            mp_recv(sizeof v, &v, &tag, &from);
        } else if (me == 1) {
            mp_recv_from(3, sizeof v, &v, &tag, MP_FOREVER, &got);
        } else {
            mp_recv_from(1, sizeof v, &v, &tag, MP_FOREVER, &got);
        }
    } else if (!strcmp(m, "slow")) {
        if (me == 2) {
            compute(1.5);
            v = 7;
            CHECK(mp_send(1, 0, &v, sizeof v), "send");
        } else if (me == 1) {
            mp_recv(sizeof v, &v, &tag, &from);
            printf("node 1: got %d from %d\n", v, from);
        }
        if (me != 1)
            mp_recv(sizeof v, &v, &tag, &from); /* the quit notice */
    } else if (!strcmp(m, "timed")) {
        if (me == 1) {
            mp_recv_timeout(sizeof v, &v, &tag, &from, 1.0, &got);
            CHECK(!got, "node 1 got a message");
            printf("node 1: timed out\n");
        } else {
            mp_recv(sizeof v, &v, &tag, &from); /* the quit notice */
        }
    } else if (!strcmp(m, "ring")) {
        int rounds = 4;
        if (me == 1) {
            for (int r = 0; r < rounds; r++) {
                struct timespec nap = { 0, 250000000 };
                nanosleep(&nap, NULL);
                CHECK(mp_send(2, 0, &r, sizeof r), "send");
                mp_recv_from(n, sizeof v, &v, &tag, MP_FOREVER, &got);
                CHECK(got && v == r, "token %d came back as %d", r, v);
            }
            printf("node 1: token back %d times\n", rounds);
        } else {
            for (int r = 0; r < rounds; r++) {
                mp_recv_from(me - 1, sizeof v, &v, &tag, MP_FOREVER, &got);
                CHECK(got && v == r, "node %d: token %d", me, v);
                struct timespec nap = { 0, 250000000 };
                nanosleep(&nap, NULL);
                CHECK(mp_send(me % n + 1, 0, &v, sizeof v), "send");
            }
            mp_recv(sizeof v, &v, &tag, &from); /* the quit notice */
        }
    } else if (!strcmp(m, "ended")) {
        if (me == 3) {
            mp_quit(0);
            return 0;
        }
        mp_recv_from(3 - me, sizeof v, &v, &tag, MP_FOREVER, &got);
    } else {
        CHECK(0, "unknown mode %s", m);
    }
    mp_quit(0);
    return 0;
}
