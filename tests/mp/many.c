/* many.c - many nodes (more than 255, many more than CPUs) with tiny
 * traffic: a token goes round the ring of all nodes twice, every node sends
 * the main node its number, and every node meets at mp_sync a few times.
 * Usage: many */
// RUN: n=300 timeout=120 out="300 nodes"
// RUN: n=64 out="64 nodes"
#include "mp_test.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe(), n = mp_npes();
    int next = me % n + 1;
    int token = 0, tag, from;
    for (int lap = 0; lap < 2; lap++) {
        if (me == 1) {
            token = lap * n;
            mp_send(next, 1, &token, sizeof token);
            size_t len = mp_recv(sizeof token, &token, &tag, &from);
            CHECK(len == sizeof token && from == n && token == lap * n + n - 1, "lap %d: token %d from %d", lap, token,
                  from);
        } else {
            size_t len = mp_recv(sizeof token, &token, &tag, &from);
            CHECK(len == sizeof token && from == me - 1 && token == lap * n + me - 2, "node %d: token %d from %d", me,
                  token, from);
            token++;
            mp_send(next, 1, &token, sizeof token);
        }
    }
    CHECK(mp_sync(), "barrier");
    mp_send(1, MP_SYSTEM | 3, &me, sizeof me);
    if (me == 1) {
        long sum = 0;
        for (int k = 1; k <= n; k++) {
            int v;
            CHECK(mp_recv(sizeof v, &v, &tag, &from) == sizeof v && v == from, "gather");
            sum += v;
        }
        CHECK(sum == (long)n * (n + 1) / 2, "sum %ld", sum);
    }
    CHECK(mp_sync() && mp_sync(), "barriers");
    if (me == 1)
        printf("%d nodes\n", n);
    finish();
    return 0;
}
