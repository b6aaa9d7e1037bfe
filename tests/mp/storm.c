/* storm.c - all-to-all: every node sends COUNT messages to every node
 * (itself included) with random sizes up to MAXSIZE, random classes and
 * tags (sign bit included), interleaving sends with whatever receives are
 * waiting.  Each receiver checks, per sender and class, that messages come
 * in the order sent, with the tag, length and bytes sent.
 * Usage: storm [COUNT [MAXSIZE [SEED]]] */
// RUN: n=2
// RUN: n=4 args="300 5000 7"
// RUN: n=3 args="40 200000 3"
// RUN: n=8 args="100 2000 11"
// RUN: n=16 args="20 600 5"
#include "mp_test.h"

#include <stdio.h>

/* What message 'seq' of class 'cls' from src to dst looks like. */
static uint64_t key_of(int src, int dst, int cls, long seq, uint64_t seed)
{
    return mix(seed ^ mix(((uint64_t)src << 40) ^ ((uint64_t)dst << 20) ^ ((uint64_t)cls << 60) ^ (uint64_t)seq));
}

static int tag_of(int cls, long seq, uint64_t key)
{
    unsigned t = (unsigned)((seq + 1) & 0xfffff) | (unsigned)((key >> 8) & 0x3ff) << 20;
    if (cls)
        t |= MP_SYSTEM;
    if (key & 1)
        t |= 0x80000000u;
    return (int)t;
}

static size_t size_of(uint64_t key, size_t maxsize)
{
    if ((key >> 20) % 8 == 0)
        return 0;
    if ((key >> 24) % 4 == 0) /* mostly small: a quarter up to the maximum */
        return (size_t)((key >> 32) % (maxsize + 1));
    size_t small = maxsize < 64 ? maxsize : 64;
    return (size_t)((key >> 32) % (small + 1));
}

static int n, me;
static size_t maxsize;
static uint64_t seed;
static long *next_seq;  /* [src*2+cls]: next expected sequence number */
static long *got_from;  /* [src]: messages received */
static unsigned char *buf;

static bool receive_one(double wait)
{
    int tag = 0, from = 0;
    bool got;
    size_t len = mp_recv_timeout(maxsize, buf, &tag, &from, wait, &got);
    if (!got)
        return false;
    CHECK(from >= 1 && from <= n && tag != MP_QUIT, "node %d: bad sender %d / tag %d", me, from, tag);
    int cls = (tag & MP_SYSTEM) != 0;
    long seq = next_seq[from * 2 + cls]++;
    uint64_t key = key_of(from, me, cls, seq, seed);
    CHECK(tag == tag_of(cls, seq, key), "node %d: from %d class %d message %ld: tag %d, expected %d (out of order?)",
          me, from, cls, seq, tag, tag_of(cls, seq, key));
    CHECK(len == size_of(key, maxsize), "node %d: from %d message %ld: %zu bytes, expected %zu", me, from, seq, len,
          size_of(key, maxsize));
    size_t bad = bad_byte(buf, len, key);
    CHECK(bad == (size_t)-1, "node %d: from %d message %ld: byte %zu of %zu wrong", me, from, seq, bad, len);
    got_from[from]++;
    return true;
}

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 200;
    maxsize = argc > 2 ? (size_t)atol(argv[2]) : 1000;
    seed = argc > 3 ? (uint64_t)atol(argv[3]) : 1;
    CHECK(mp_start(&argc, &argv), "mp_start");
    CHECK(mp_sync(), "mp_sync");
    n = mp_npes();
    me = mp_this_pe();
    next_seq = calloc((size_t)(n + 1) * 2, sizeof *next_seq);
    got_from = calloc((size_t)n + 1, sizeof *got_from);
    long *sent_seq = calloc((size_t)(n + 1) * 2, sizeof *sent_seq);
    int *order = malloc((size_t)n * sizeof *order);
    unsigned char *out = malloc(maxsize + 1);
    buf = malloc(maxsize + 1);
    CHECK(next_seq && got_from && sent_seq && order && out && buf, "malloc");

    uint64_t r = mix(seed * 1000003 + (uint64_t)me);
    for (long round = 0; round < count; round++) {
        for (int i = 0; i < n; i++)
            order[i] = i + 1;
        for (int i = n - 1; i > 0; i--) { /* a random order of destinations */
            r = mix(r);
            int j = (int)(r % (uint64_t)(i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (int i = 0; i < n; i++) {
            int dst = order[i];
            r = mix(r);
            int cls = (r & 7) == 0; /* one in eight is a system message */
            long seq = sent_seq[dst * 2 + cls]++;
            uint64_t key = key_of(me, dst, cls, seq, seed);
            size_t len = size_of(key, maxsize);
            fill(out, len, key);
            CHECK(mp_send(dst, tag_of(cls, seq, key), out, len), "send");
        }
        while (receive_one(0))
            ;
    }
    for (int src = 1; src <= n; src++)
        while (got_from[src] < count)
            CHECK(receive_one(30), "node %d: waited 30 s for message %ld from node %d", me, got_from[src], src);
    CHECK(!mp_probe(), "node %d: a message left over", me);
    mp_sync(); /* nobody reports before everyone has received everything */
    printf("node %d: %ld messages from each of %d nodes\n", me, count, n);
    free(next_seq);
    free(got_from);
    free(sent_seq);
    free(order);
    free(out);
    free(buf);
    finish();
    return 0;
}
