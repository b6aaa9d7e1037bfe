/* timeout.c - waiting with a time limit, and the probes.
 * Node 2 sends node 1 nothing for a while: node 1's mp_recv_timeout and
 * mp_probe_wait give up after about the time asked (0: at once); then node
 * 2 sends, and node 3 too; mp_probe_node, mp_probe_info and mp_recv_from
 * see each sender's own messages.  Last, the message mp_probe_info
 * described is the one the next receive returns, although a system message
 * (which would otherwise go first) arrives in between.
 * Usage: timeout */
// RUN: n=3 out="node 1: timeouts ok"
#include "mp_test.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe();
    char b[64];
    int tag = 0, from = 0;
    bool got = true;
    if (me == 1) {
        double t = now_s();
        size_t len = mp_recv_timeout(sizeof b, b, &tag, &from, 0.2, &got);
        double dt = now_s() - t;
        CHECK(!got && len == 0 && tag == 0 && from == 0, "a message out of nowhere");
        CHECK(dt >= 0.2 && dt < 5, "waited %.3f s for 0.2", dt);
        t = now_s();
        CHECK(!mp_probe_wait(MP_ANY, 0.1), "probe_wait true");
        dt = now_s() - t;
        CHECK(dt >= 0.1 && dt < 5, "probe_wait waited %.3f s for 0.1", dt);
        t = now_s();
        mp_recv_timeout(sizeof b, b, &tag, &from, 0, &got);
        CHECK(!got && now_s() - t < 1, "timeout 0 waits");
        CHECK(!mp_probe() && !mp_probe_node(2) && !mp_probe_info(MP_ANY, NULL, NULL, NULL), "probes");
        mp_send(2, 1, NULL, 0); /* go */
        /* Node 2 sends one message after 0.1 s: a long timeout returns early. */
        t = now_s();
        CHECK(mp_probe_wait(2, 30), "probe_wait for node 2");
        CHECK(now_s() - t < 20, "probe_wait returned late");
        size_t plen;
        CHECK(mp_probe_info(2, &plen, &tag, &from) && plen == 5 && tag == 22 && from == 2, "probe_info %zu %d %d",
              plen, tag, from);
        /* Node 3's message (sent once node 2's arrived) waits while we take node 2's. */
        mp_send(3, 1, NULL, 0);
        CHECK(mp_probe_wait(3, 30), "node 3's message");
        CHECK(mp_probe_node(3) && mp_probe_node(2) && mp_probe(), "both waiting");
        len = mp_recv_from(3, sizeof b, b, &tag, 0, &got);
        CHECK(got && len == 3 && tag == 33 && memcmp(b, "abc", 3) == 0, "from node 3");
        CHECK(!mp_probe_node(3) && mp_probe_node(2), "node 2's still waiting");
        len = mp_recv_from(2, sizeof b, b, &tag, MP_FOREVER, &got);
        CHECK(got && len == 5 && tag == 22 && memcmp(b, "hello", 5) == 0, "from node 2");
        CHECK(!mp_probe(), "nothing left");
        mp_send(2, 1, NULL, 0); /* go on */
        CHECK(mp_probe_wait(2, 30), "node 2's ordinary message");
        CHECK(mp_probe_info(MP_ANY, &plen, &tag, &from) && plen == 4 && tag == 40 && from == 2, "described");
        CHECK(mp_sync() && mp_sync(), "barriers"); /* node 2 sends tag 42, then a system message */
        CHECK(mp_probe_info(2, &plen, &tag, &from) && plen == 4 && tag == 40, "still described");
        len = mp_recv(sizeof b, b, &tag, &from);
        CHECK(len == 4 && tag == 40 && from == 2, "the described message first, got tag %d", tag);
        len = mp_recv(sizeof b, b, &tag, &from);
        CHECK(len == 10 && tag == (MP_SYSTEM | 41), "then the system message, got tag %d", tag);
        len = mp_recv(sizeof b, b, &tag, &from);
        CHECK(len == 1 && tag == 42, "then the ordinary one, got tag %d", tag);
        printf("node 1: timeouts ok\n");
    } else {
        mp_recv(0, NULL, &tag, &from); /* go */
        if (me == 2) {
            nap(0.1);
            mp_send(1, 22, "hello", 5);
            mp_recv(0, NULL, &tag, &from); /* go on */
            mp_send(1, 40, "pin!", 4);
            CHECK(mp_sync(), "barrier");
            mp_send(1, 42, "x", 1);
            mp_send(1, MP_SYSTEM | 41, "0123456789", 10);
            CHECK(mp_sync(), "barrier");
        } else {
            mp_send(1, 33, "abc", 3);
            CHECK(mp_sync() && mp_sync(), "barriers");
        }
    }
    CHECK(mp_sync(), "barrier");
    finish();
    return 0;
}
