/* quit.c - clean endings; exit status 0 and nothing left behind.
 *   recv:     the others wait in mp_recv when the main node quits; they get
 *             the quit notice (again on a second call), mp_send then
 *             returns false, and they end with mp_quit(0);
 *   sync:     the others wait in a second mp_sync, which returns false;
 *   return:   the others return from main after the notice, without mp_quit;
 *   main_return: the main node returns from main without mp_quit;
 *   early:    the others quit first (after sending), the main node later;
 *   overtake: the quit notice overtakes the main node's ordinary messages
 *             but not its system messages sent before it;
 *   from:     a node waiting in mp_recv_from(3) (node 3 sends nothing) and
 *             one in mp_probe_wait get the notice;
 *   after:    output written after mp_quit on the other nodes appears.
 * Usage: quit MODE */
// RUN: n=4 args="recv" out="node 1: all ended"
// RUN: n=1 args="recv" out="node 1: all ended"
// RUN: n=3 args="sync" out="node 1: all ended"
// RUN: n=3 args="return" out="node 1: all ended"
// RUN: n=3 args="main_return"
// RUN: n=4 args="early" out="node 1: all ended"
// RUN: n=3 args="overtake" out="node 2: overtaken"
// RUN: n=4 args="from" out="node 2: quit seen"
// RUN: n=3 args="after" out="node 3 after mp_quit"
#include "mp_test.h"

#include <stdio.h>

static void expect_quit(size_t len, int tag, int from)
{
    CHECK(len == 0 && tag == MP_QUIT && from == 1, "node %d: got %zu bytes tag %d from %d, expected the quit notice",
          mp_this_pe(), len, tag, from);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: quit MODE");
    const char *m = argv[1];
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe(), n = mp_npes();
    char b[8] = "1234567";
    int tag = 0, from = 0;
    if (me == 1) {
        if (strcmp(m, "early") == 0)
            for (int k = 2; k <= n; k++) {
                size_t len = mp_recv(sizeof b, b, &tag, &from);
                CHECK(len == 3 && tag == 9, "expected a result");
            }
        if (strcmp(m, "overtake") == 0) {
            for (int i = 0; i < 10; i++)
                mp_send(2, 1, b, 4);
            mp_send(2, MP_SYSTEM | 2, b, 5);
        }
        if (strcmp(m, "main_return") == 0) {
            printf("node 1: returning\n");
            return 0;
        }
        nap(0.05);
        CHECK(mp_quit(0), "mp_quit");
        CHECK(mp_this_pe() == 1 && mp_is_main() && mp_npes() == n, "queries after mp_quit");
        printf("node 1: all ended\n");
        return 0;
    }
    if (strcmp(m, "sync") == 0) {
        CHECK(!mp_sync(), "node %d: mp_sync returned true although the main node quit", me);
        CHECK(!mp_sync(), "a second time");
        CHECK(!mp_send(1, 1, b, 1), "mp_send after the quit notice");
    } else if (strcmp(m, "early") == 0) {
        mp_send(1, 9, b, 3);
        CHECK(mp_quit(0), "early quit");
        return 0;
    } else if (strcmp(m, "overtake") == 0) {
        if (me == 2) {
            while (!mp_probe_node(3)) /* node 3 sends nothing: true once the main node quit */
                nap(0.001);
            size_t len = mp_recv(sizeof b, b, &tag, &from);
            CHECK(len == 5 && tag == (MP_SYSTEM | 2) && from == 1, "the system message first, got tag %d", tag);
            len = mp_recv(sizeof b, b, &tag, &from);
            expect_quit(len, tag, from);
            printf("node 2: overtaken\n");
        } else {
            size_t len = mp_recv(sizeof b, b, &tag, &from);
            expect_quit(len, tag, from);
        }
    } else if (strcmp(m, "from") == 0) {
        bool got = false;
        if (me == 2) {
            size_t len = mp_recv_from(3, sizeof b, b, &tag, MP_FOREVER, &got);
            CHECK(got, "mp_recv_from gave up");
            expect_quit(len, tag, 1);
            printf("node 2: quit seen\n");
        } else if (me == 3) {
            CHECK(mp_probe_wait(2, MP_FOREVER), "mp_probe_wait gave up");
            CHECK(mp_probe_info(2, NULL, &tag, &from) && tag == MP_QUIT && from == 1, "probe_info of the notice");
            size_t len = mp_recv(0, NULL, &tag, &from);
            expect_quit(len, tag, from);
        } else {
            size_t len = mp_recv_timeout(sizeof b, b, &tag, &from, 60, &got);
            expect_quit(len, tag, from);
            CHECK(got, "timeout");
        }
    } else {
        size_t len = mp_recv(sizeof b, b, &tag, &from);
        expect_quit(len, tag, from);
        tag = from = 0;
        len = mp_recv(sizeof b, b, &tag, &from);
        expect_quit(len, tag, from);
        CHECK(mp_probe(), "the notice stays waiting");
        CHECK(!mp_send(1, 1, b, 1), "mp_send after the quit notice must return false");
    }
    if (strcmp(m, "return") == 0 || strcmp(m, "main_return") == 0)
        return 0;
    CHECK(mp_quit(0), "mp_quit");
    if (strcmp(m, "after") == 0)
        printf("node %d after mp_quit\n", me);
    return 0;
}
