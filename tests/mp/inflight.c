/* inflight.c - many messages in flight from one sender, of every size
 * around the transports' boundaries, to a receiver that is slow to look.
 * Every node first sends the next node (a ring; one node sends to itself)
 * COUNT messages, the sizes cycling through 0, 1, 8, around 256 and 4 KiB
 * (the MPI transport's small copy and slot: a message up to a slot is one
 * MPI message, a longer one a header then its payload), 64 KiB and 1 MiB,
 * the classes chosen at random, then one of BIG MiB; only then, after a
 * nap, does it receive.  So every node's sends are in flight at once
 * (beyond the window and the receives posted ahead: a send that waited
 * for its receiver would hang here), a payload and its header travel
 * behind hundreds of others, and large system messages overtake large
 * ordinary ones from the same sender.  Each message must come, per class,
 * in the order sent, with its tag, length and bytes.
 * Usage: inflight [COUNT [BIG]]  (BIG in MiB; default 1000 messages, 64 MiB) */
// RUN: n=2 timeout=180
// RUN: n=3 args="1200 8" timeout=180
// RUN: n=1 args="500 4"
#include "mp_test.h"

#include <stdio.h>

static const size_t sizes[] = { 0, 1, 8, 255, 256, 257, 4071, 4072, 4073, 4096, 65536, 1 << 20 };
#define NSIZES (sizeof sizes / sizeof *sizes)

static uint64_t key_of(int src, long i)
{
    return mix(((uint64_t)src << 32) ^ (uint64_t)i);
}

static size_t size_of(long i, long count, size_t big)
{
    return i == count ? big : sizes[(size_t)i % NSIZES];
}

static int class_of(int src, long i)
{
    return (int)(key_of(src, i) >> 63);
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 1000;
    size_t big = (size_t)(argc > 2 ? atol(argv[2]) : 64) << 20;
    if (sanitizing()) {
        count = count < 200 ? count : 200;
        big = big < (4u << 20) ? big : (4u << 20);
    }
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int n = mp_npes(), me = mp_this_pe();
    int dst = me % n + 1, src = (me + n - 2) % n + 1;
    unsigned char *buf = malloc(big > (1u << 20) ? big : (1u << 20));
    CHECK(buf, "out of memory");
    /* Message i (i = count: the big one) carries its number in its tag and
     * in its first 8 bytes where it has them. */
    for (long i = 0; i <= count; i++) {
        size_t len = size_of(i, count, big);
        int cls = class_of(me, i);
        fill(buf, len, key_of(me, i));
        if (len >= 8)
            memcpy(buf, &i, 8);
        CHECK(mp_send(dst, (cls ? MP_SYSTEM : 0) | (int)i, buf, len), "node %d: send %ld", me, i);
    }
    nap(0.3); /* the receiver is slow: everything waits for it */
    long next[2] = { -1, -1 }; /* the last message received of each class */
    for (long got = 0; got <= count; got++) {
        int tag = 0, from = 0;
        size_t len = mp_recv(big > (1u << 20) ? big : (1u << 20), buf, &tag, &from);
        CHECK(from == src, "node %d: a message from node %d, expected only node %d's", me, from, src);
        int cls = (tag & MP_SYSTEM) != 0;
        long i = tag & ~MP_SYSTEM;
        CHECK(i >= 0 && i <= count && class_of(src, i) == cls, "node %d: tag %d is no message sent", me, tag);
        long want = next[cls] + 1;
        while (want <= count && class_of(src, want) != cls)
            want++;
        CHECK(i == want, "node %d: class %d: message %ld came where %ld was next", me, cls, i, want);
        next[cls] = i;
        size_t expect = size_of(i, count, big);
        CHECK(len == expect, "node %d: message %ld has %zu bytes, sent %zu", me, i, len, expect);
        long first = 0;
        if (len >= 8)
            memcpy(&first, buf, 8);
        CHECK(len < 8 || first == i, "node %d: message %ld carries the bytes of message %ld", me, i, first);
        if (len >= 8)
            fill(buf, 8, key_of(src, i)); /* put back what the number replaced */
        size_t bad = bad_byte(buf, len, key_of(src, i));
        CHECK(bad == (size_t)-1, "node %d: message %ld (%zu bytes): byte %zu differs", me, i, len, bad);
    }
    CHECK(!mp_probe(), "node %d: a message left over", me);
    if (me == 1)
        printf("node 1: %ld messages and one of %zu MiB each way, in order and intact\n", count, big >> 20);
    free(buf);
    CHECK(mp_sync(), "final barrier");
    finish();
    return 0;
}
