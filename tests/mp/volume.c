/* volume.c - bulk traffic through small messages and small buffers.
 * Every node streams its share of MIB mebibytes to the next node (a ring;
 * a single node sends to itself) in messages of SIZE bytes, and waits for
 * an acknowledgement every WINDOW bytes, so the channels stay small.  The
 * receiver checks every 8-byte word of the stream.  Under SANITIZE=1 the
 * volume is divided by 4.
 * Usage: volume [MIB [SIZE]]  (default 1024 MiB in 4096-byte messages) */
// RUN: n=2 timeout=240
// RUN: n=3 args="96 104" timeout=240
// RUN: n=4 args="256 65536" timeout=240
#include "mp_test.h"

#include <inttypes.h>
#include <stdio.h>

#define WINDOW (1u << 20)
#define TAG_DATA 5
#define TAG_ACK (MP_SYSTEM | 6)

int main(int argc, char **argv)
{
    uint64_t mib = argc > 1 ? (uint64_t)atol(argv[1]) : 1024;
    size_t size = argc > 2 ? (size_t)atol(argv[2]) : 4096;
    if (sanitizing())
        mib = (mib + 3) / 4;
    CHECK(size >= 8 && size % 8 == 0, "SIZE must be a multiple of 8");
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int n = mp_npes(), me = mp_this_pe();
    int dst = me % n + 1, src = (me + n - 2) % n + 1;
    uint64_t share = (mib << 20) / (uint64_t)n / size * size;
    uint64_t key = mix((uint64_t)me);
    /* The stream's words repeat every WINDOW bytes: word i is mix(key + i % words). */
    size_t words = WINDOW / 8;
    uint64_t *pattern = malloc(WINDOW + size);
    uint64_t *in = malloc(size);
    CHECK(pattern && in, "malloc");
    for (size_t i = 0; i < (WINDOW + size) / 8; i++)
        pattern[i] = mix(key + i % words);
    uint64_t rkey = mix((uint64_t)src);
    uint64_t sent = 0, received = 0, acked = 0, acks_due = 0;
    double t0 = now_s();
    while (sent < share || received < share || acked < sent) {
        /* Send while the window allows. */
        while (sent < share && sent - acked < 4 * (uint64_t)WINDOW) {
            CHECK(mp_send(dst, TAG_DATA, (char *)pattern + sent % WINDOW, size), "send");
            sent += size;
        }
        int tag, from;
        size_t len = mp_recv(size, in, &tag, &from);
        if (tag == TAG_ACK) {
            CHECK(from == dst && len == 0, "bad ack");
            acked += WINDOW;
            if (acked > sent)
                acked = sent;
            continue;
        }
        CHECK(tag == TAG_DATA && from == src && len == size, "node %d: tag %d from %d, %zu bytes", me, tag, from, len);
        size_t w0 = (size_t)(received % WINDOW) / 8;
        for (size_t i = 0; i < size / 8; i++)
            if (in[i] != mix(rkey + (w0 + i) % words))
                CHECK(0, "node %d: word %zu of the stream from node %d is wrong", me, (size_t)(received / 8 + i), src);
        received += size;
        if (received / WINDOW > acks_due || received == share) {
            acks_due = received / WINDOW;
            CHECK(mp_send(src, TAG_ACK, NULL, 0), "ack");
        }
    }
    double t = now_s() - t0;
    CHECK(mp_sync(), "barrier");
    printf("node %d: %" PRIu64 " MiB in %zu-byte messages in %.2f s (%.0f MiB/s)\n", me, share >> 20, size, t,
           (double)share / 1048576.0 / t);
    free(pattern);
    free(in);
    finish();
    return 0;
}
