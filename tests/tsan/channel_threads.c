/* channel_threads.c - a channel's writer and reader as two threads of one
 * process, so that ThreadSanitizer (make test TSAN=1) sees every access:
 * streaming as mp's shm transport uses it (publish, available, peek,
 * release), across many ring changes and reuses; a reader that reads as far
 * as the rings' heads allow, as mp's receiver does for a payload whose
 * length it knows from the header; and superstep use (mark, marked).
 * Without TSan it checks the bytes arrive in order.
 */
// RUN: args="stream 3000000"
// RUN: args="heads 3000000"
// RUN: args="marks 2000"
#include "channel/channel.h"
#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

static struct segment seg;
static struct channel *ch;
static uint64_t total;
static _Atomic uint64_t marked_round; /* marks mode: the round the writer marked */
static _Atomic uint64_t read_round;   /* marks mode: the round the reader finished */

static unsigned char byte_at(uint64_t i) { return (unsigned char)(i * 131 + (i >> 9)); }

static void write_bytes(struct chan_writer *w, uint64_t *pos, size_t n)
{
    unsigned char buf[4096];
    for (size_t i = 0; i < n; i++)
        buf[i] = byte_at(*pos + i);
    CHECK(chan_write(w, buf, n), "segment exhausted");
    *pos += n;
}

static void read_check(struct chan_reader *r, uint64_t *pos, uint64_t n)
{
    while (n) {
        size_t len;
        const unsigned char *p = chan_peek(r, n, &len);
        CHECK(p && len, "nothing to read with %llu bytes announced", (unsigned long long)n);
        for (size_t i = 0; i < len; i++)
            CHECK(p[i] == byte_at(*pos + i), "byte %llu wrong", (unsigned long long)(*pos + i));
        chan_consume(r, len);
        *pos += len;
        n -= len;
    }
}

static void *stream_writer(void *arg)
{
    (void)arg;
    struct chan_writer w;
    chan_writer_init(&w, &seg, ch);
    uint64_t pos = 0;
    unsigned seed = 7;
    while (pos < total) {
        size_t n = (size_t)(rand_r(&seed) % 4000);
        if (n > total - pos)
            n = (size_t)(total - pos);
        write_bytes(&w, &pos, n);
        chan_publish(&w);
    }
    return NULL;
}

/* The reader's limit: what the writer published ('heads' false), or only
 * the total, so that the rings' heads are the limit ('heads' true). */
static void stream(bool heads)
{
    pthread_t t;
    CHECK(pthread_create(&t, NULL, stream_writer, NULL) == 0, "pthread_create");
    struct chan_reader r;
    chan_reader_init(&r, &seg, ch);
    uint64_t pos = 0;
    while (pos < total) {
        if (heads) {
            size_t len;
            const unsigned char *p = chan_peek(&r, total - pos, &len);
            for (size_t i = 0; i < len; i++)
                CHECK(p[i] == byte_at(pos + i), "byte %llu wrong", (unsigned long long)(pos + i));
            chan_consume(&r, len);
            pos += len;
        } else {
            uint64_t n = chan_available(&r);
            if ((int64_t)n > 0)
                read_check(&r, &pos, n > 20000 ? 20000 : n); /* small reads: the writer laps rings */
        }
        chan_release(&r);
    }
    pthread_join(t, NULL);
}

/* Rounds: the writer writes a growing burst and marks it; the reader reads
 * up to the mark, then lets the writer go on (a superstep's exchange). */
static void *marks_writer(void *arg)
{
    (void)arg;
    struct chan_writer w;
    chan_writer_init(&w, &seg, ch);
    uint64_t pos = 0;
    for (uint64_t round = 1; round <= total; round++) {
        size_t n = (size_t)((round * 977) % 30000);
        while (n) {
            size_t k = n < 4096 ? n : 4096;
            write_bytes(&w, &pos, k);
            n -= k;
        }
        chan_mark(&w, (int)(round & 1), round);
        atomic_store_explicit(&marked_round, round, memory_order_release);
        while (atomic_load_explicit(&read_round, memory_order_acquire) != round)
            ;
    }
    return NULL;
}

static void marks(void)
{
    pthread_t t;
    CHECK(pthread_create(&t, NULL, marks_writer, NULL) == 0, "pthread_create");
    struct chan_reader r;
    chan_reader_init(&r, &seg, ch);
    uint64_t pos = 0;
    for (uint64_t round = 1; round <= total; round++) {
        while (atomic_load_explicit(&marked_round, memory_order_acquire) != round)
            ;
        uint64_t n = chan_marked(&r, (int)(round & 1), round);
        CHECK(n == (round * 977) % 30000, "round %llu: %llu bytes marked", (unsigned long long)round,
              (unsigned long long)n);
        read_check(&r, &pos, n);
        chan_release(&r);
        atomic_store_explicit(&read_round, round, memory_order_release);
    }
    pthread_join(t, NULL);
}

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: channel_threads stream|heads BYTES | marks ROUNDS");
    CHECK(seg_create(&seg, 1ull << 30, 2) == 0, "seg_create");
    uint64_t off = seg_alloc(&seg, sizeof *ch, SEG_LINE);
    CHECK(off, "seg_alloc");
    ch = seg_ptr(&seg, off);
    memset(ch, 0, sizeof *ch);
    total = strtoull(argv[2], NULL, 10);
    if (!strcmp(argv[1], "stream") || !strcmp(argv[1], "heads"))
        stream(!strcmp(argv[1], "heads"));
    else
        marks();
    seg_detach(&seg);
    return 0;
}
