/* pingpong.c - nodes in pairs (1-2, 3-4, ...) bounce a message back and
 * forth; each bounce checks length, tag, sender and every byte.
 * Usage: pingpong [ROUNDS [SIZE]]  (default 1000 rounds of 64 bytes) */
// RUN: n=2
// RUN: n=2 args="200 100000"
// RUN: n=2 args="20 3000000"
// RUN: n=5 args="300 777"
// RUN: n=1 args="10 10"
// RUN: cmd="$BINDIR/bsprun -n 4 $BIN 100 8" out="node 4 of 4: 100 rounds"
#include "mp_test.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 1000;
    size_t size = argc > 2 ? (size_t)atol(argv[2]) : 64;
    CHECK(mp_this_pe() == 0 && !mp_is_main(), "before mp_start");
    int want = mp_npes();
    CHECK(mp_start(&argc, &argv), "mp_start failed");
    CHECK(mp_sync(), "mp_sync failed");
    int me = mp_this_pe(), n = mp_npes();
    CHECK(n == want && me >= 1 && me <= n, "node %d of %d (expected %d nodes)", me, n, want);
    CHECK(mp_is_main() == (me == 1), "mp_is_main on node %d", me);
    int partner = me % 2 ? me + 1 : me - 1;
    unsigned char *buf = malloc(size + 1), *want_buf = malloc(size + 1);
    CHECK(buf && want_buf, "malloc");
    if (partner <= n) {
        for (long r = 0; r < rounds; r++) {
            bool mine = (r % 2) == (me % 2 ? 0 : 1); /* odd nodes serve the even rounds */
            uint64_t key = mix((uint64_t)r * 7919 + (uint64_t)(me < partner ? me : partner));
            int tag = (int)(r & 0xffff) | ((r & 1) ? INT32_MIN : 0);
            if (mine) {
                fill(buf, size, key);
                CHECK(mp_send(partner, tag, buf, size), "send");
            } else {
                int got_tag = 0, from = 0;
                memset(buf, 0, size);
                size_t len = mp_recv(size + 1, buf, &got_tag, &from);
                CHECK(len == size && got_tag == tag && from == partner,
                      "node %d round %ld: got %zu bytes tag %d from %d, expected %zu tag %d from %d", me, r, len,
                      got_tag, from, size, tag, partner);
                size_t bad = bad_byte(buf, size, key);
                CHECK(bad == (size_t)-1, "node %d round %ld: byte %zu wrong", me, r, bad);
            }
        }
    }
    CHECK(mp_sync(), "second mp_sync failed"); /* an unpaired node must not report early */
    printf("node %d of %d: %ld rounds of %zu bytes\n", me, n, partner <= n ? rounds : 0, size);
    free(buf);
    free(want_buf);
    finish();
    return 0;
}
