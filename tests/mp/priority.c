/* priority.c - system messages from the main node overtake a full queue.
 * Before a barrier, the main node sends node 2 QUEUE ordinary messages and
 * then SYS system messages; every other node k >= 3 sends node 2 QUEUE/4
 * ordinary then 3 system messages.  After the barrier node 2 must receive:
 * the main node's system messages in order, then the other system
 * messages (per sender in order), then the ordinary ones (per sender in
 * order).  mp_probe_info must describe each message before it is taken.
 * Usage: priority [QUEUE [SYS]] */
// RUN: n=2
// RUN: n=4 args="20000 50"
// RUN: n=3 args="200000 3" timeout=240
#include "mp_test.h"

#include <stdio.h>

#define MSG 24

static int tag_for(int src, int cls, long i)
{
    return (cls ? MP_SYSTEM : 0) | (src << 22) | (int)i;
}

int main(int argc, char **argv)
{
    long queue = argc > 1 ? atol(argv[1]) : 5000;
    long sys = argc > 2 ? atol(argv[2]) : 10;
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int n = mp_npes(), me = mp_this_pe();
    CHECK(n >= 2, "needs two nodes");
    unsigned char b[MSG];
    long nq = me == 1 ? queue : queue / 4, ns = me == 1 ? sys : 3;
    if (me != 2) {
        for (long i = 0; i < nq; i++) {
            fill(b, MSG, mix((uint64_t)(me * 1000000 + i)));
            CHECK(mp_send(2, tag_for(me, 0, i), b, MSG), "send");
        }
        for (long i = 0; i < ns; i++) {
            fill(b, i % MSG, mix((uint64_t)(me * 1000000 + i) ^ 1));
            CHECK(mp_send(2, tag_for(me, 1, i), b, (size_t)(i % MSG)), "send");
        }
    }
    CHECK(mp_sync(), "barrier after the sends");
    if (me == 2) {
        long *next_sys = calloc((size_t)n + 1, sizeof(long)), *next_ord = calloc((size_t)n + 1, sizeof(long));
        long total = queue + sys + (long)(n - 2) * (queue / 4 + 3), done = 0;
        int phase = 0; /* 0: main's system, 1: other system, 2: ordinary */
        while (done < total) {
            size_t plen = 0;
            int ptag = 0, psrc = 0;
            CHECK(mp_probe() && mp_probe_info(MP_ANY, &plen, &ptag, &psrc), "message %ld of %ld not waiting", done,
                  total);
            int tag, src;
            size_t len = mp_recv(sizeof b, b, &tag, &src);
            CHECK(len == plen && tag == ptag && src == psrc, "probe_info said %zu/%d/%d, recv gave %zu/%d/%d", plen,
                  ptag, psrc, len, tag, src);
            int cls = (tag & MP_SYSTEM) != 0;
            int want_phase = cls ? (src == 1 ? 0 : 1) : 2;
            CHECK(want_phase >= phase, "message %ld: tag %d from node %d (class %d) after phase %d", done, tag, src,
                  cls, phase);
            phase = want_phase;
            long i = cls ? next_sys[src]++ : next_ord[src]++;
            CHECK(tag == tag_for(src, cls, i), "from node %d class %d: tag %d, expected %d", src, cls, tag,
                  tag_for(src, cls, i));
            size_t want_len = cls ? (size_t)(i % MSG) : MSG;
            uint64_t key = mix((uint64_t)(src * 1000000 + i)) ^ (uint64_t)cls;
            if (cls)
                key = mix((uint64_t)(src * 1000000 + i) ^ 1);
            CHECK(len == want_len && bad_byte(b, len, key) == (size_t)-1, "from node %d message %ld: bad payload",
                  src, i);
            done++;
        }
        CHECK(!mp_probe(), "left over");
        printf("node 2: %ld messages in priority order\n", total);
        free(next_sys);
        free(next_ord);
    }
    finish();
    return 0;
}
