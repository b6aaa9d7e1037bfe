/* order.c - order per pair within each class while sender and receiver
 * run together.  Every node k >= 2 sends the main node COUNT messages,
 * choosing the class at random; the main node receives them with
 * mp_recv_from, visiting senders in a random order and taking a random
 * number at a time, so one sender's messages wait while another's are
 * taken.  Within a class each sender's messages must come in order;
 * mp_recv_from(k) must return only node k's messages.
 * Usage: order [COUNT] */
// RUN: n=2
// RUN: n=5 args="3000"
// RUN: n=3 args="20000"
#include "mp_test.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 2000;
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int n = mp_npes(), me = mp_this_pe();
    if (me != 1) {
        uint64_t r = mix((uint64_t)me);
        long seq[2] = { 0, 0 };
        for (long i = 0; i < count; i++) {
            r = mix(r);
            int cls = (int)(r & 1);
            long s = seq[cls]++;
            int tag = (cls ? MP_SYSTEM : 0) | (int)s;
            uint64_t payload[2] = { (uint64_t)me, (uint64_t)s };
            CHECK(mp_send(1, tag, payload, (r >> 8) % 3 ? sizeof payload : 0), "send");
        }
        uint64_t total[2] = { (uint64_t)seq[0], (uint64_t)seq[1] }; /* how many of each class */
        CHECK(mp_send(1, 1 << 29, total, sizeof total), "send totals");
    } else {
        long (*seq)[2] = calloc((size_t)n + 1, sizeof *seq);
        bool *finished = calloc((size_t)n + 1, sizeof(bool));
        int left = n - 1;
        uint64_t r = 12345;
        while (left) {
            r = mix(r);
            int src = 2 + (int)(r % (uint64_t)(n - 1));
            if (finished[src])
                continue;
            long take = 1 + (long)((r >> 16) % 50);
            for (long t = 0; t < take && !finished[src]; t++) {
                uint64_t payload[2] = { 0, 0 };
                int tag = 0;
                bool got;
                size_t len = mp_recv_from(src, sizeof payload, payload, &tag, 30, &got);
                CHECK(got, "nothing from node %d for 30 s", src);
                if (tag == 1 << 29) {
                    CHECK(len == sizeof payload && payload[0] == (uint64_t)seq[src][0] &&
                              payload[1] == (uint64_t)seq[src][1],
                          "node %d's totals %llu/%llu, received %ld/%ld", src, (unsigned long long)payload[0],
                          (unsigned long long)payload[1], seq[src][0], seq[src][1]);
                    finished[src] = true;
                    left--;
                    break;
                }
                int cls = (tag & MP_SYSTEM) != 0;
                long s = tag & ~MP_SYSTEM;
                CHECK(s == seq[src][cls], "from node %d class %d: message %ld, expected %ld", src, cls, s,
                      seq[src][cls]);
                CHECK(len == 0 || (payload[0] == (uint64_t)src && payload[1] == (uint64_t)s),
                      "recv_from(%d) returned node %llu's message %llu", src, (unsigned long long)payload[0],
                      (unsigned long long)payload[1]);
                seq[src][cls]++;
            }
        }
        CHECK(!mp_probe(), "left over");
        printf("node 1: %ld messages from each of %d nodes, in order\n", count, n - 1);
        free(seq);
        free(finished);
    }
    CHECK(mp_sync(), "final barrier"); /* the main node probed before anyone reports */
    finish();
    return 0;
}
