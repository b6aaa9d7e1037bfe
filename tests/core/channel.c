/* channel.c - the growable SPSC channel on its own: byte order across ring
 * ends and ring changes, a writer that never waits however far ahead it is,
 * ring reuse (capacity stays bounded when traffic is bounded), pre-scan
 * cursors that read without consuming, and a writer and a reader in two
 * processes streaming concurrently.
 * RUN lines: */
// RUN: args="order"
// RUN: args="bounded"
// RUN: args="scan"
// RUN: args="stream 200000"
#include "channel/channel.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static struct segment seg;

static struct channel *new_channel(void)
{
    uint64_t off = seg_alloc(&seg, sizeof(struct channel), SEG_LINE);
    CHECK(off, "segment exhausted");
    struct channel *ch = seg_ptr(&seg, off);
    memset(ch, 0, sizeof *ch);
    return ch;
}

static unsigned char byte_at(uint64_t i) { return (unsigned char)(i * 131 + (i >> 9)); }

static void write_bytes(struct chan_writer *w, uint64_t *pos, size_t n)
{
    unsigned char buf[70000];
    CHECK(n <= sizeof buf, "n %zu", n);
    for (size_t i = 0; i < n; i++)
        buf[i] = byte_at(*pos + i);
    CHECK(chan_write(w, buf, n), "write of %zu failed", n);
    *pos += n;
}

static void read_check(struct chan_reader *r, uint64_t *pos, size_t n)
{
    unsigned char buf[70000];
    chan_read(r, buf, n);
    for (size_t i = 0; i < n; i++)
        CHECK(buf[i] == byte_at(*pos + i), "byte %llu: got %u want %u",
              (unsigned long long)(*pos + i), buf[i], byte_at(*pos + i));
    *pos += n;
}

/* Writes of every size far ahead of the reader, read back in other sizes. */
static void test_order(void)
{
    struct channel *ch = new_channel();
    struct chan_writer w;
    struct chan_reader r;
    chan_writer_init(&w, &seg, ch);
    chan_reader_init(&r, &seg, ch);
    uint64_t wpos = 0, rpos = 0;
    srand(1);
    for (int round = 0; round < 50; round++) {
        int k = rand() % 40;
        for (int i = 0; i < k; i++)
            write_bytes(&w, &wpos, (size_t)(rand() % (i % 7 == 0 ? 65536 : 100)));
        chan_publish(&w);
        CHECK(chan_available(&r) == wpos - rpos, "available %llu want %llu",
              (unsigned long long)chan_available(&r), (unsigned long long)(wpos - rpos));
        while (rpos < wpos) {
            size_t n = (size_t)(rand() % 5000) + 1;
            if (n > wpos - rpos)
                n = (size_t)(wpos - rpos);
            read_check(&r, &rpos, n);
        }
        chan_release(&r);
    }
}

/* The same burst again and again: the rings stop growing. */
static void test_bounded(void)
{
    struct channel *ch = new_channel();
    struct chan_writer w;
    struct chan_reader r;
    chan_writer_init(&w, &seg, ch);
    chan_reader_init(&r, &seg, ch);
    uint64_t wpos = 0, rpos = 0, cap_after_warmup = 0;
    for (int round = 0; round < 2000; round++) {
        for (int i = 0; i < 16; i++)
            write_bytes(&w, &wpos, 60000); /* about 1 MiB per round */
        chan_publish(&w);
        while (rpos < wpos)
            read_check(&r, &rpos, 60000);
        chan_release(&r);
        if (round == 10)
            cap_after_warmup = chan_capacity(&seg, ch);
    }
    uint64_t cap = chan_capacity(&seg, ch);
    CHECK(cap == cap_after_warmup, "capacity grew from %llu to %llu with bounded traffic",
          (unsigned long long)cap_after_warmup, (unsigned long long)cap);
    CHECK(cap < (8u << 20), "capacity %llu for 1 MiB bursts", (unsigned long long)cap);
}

/* A scan cursor sees the bytes the consumer will, and consumes nothing. */
static void test_scan(void)
{
    struct channel *ch = new_channel();
    struct chan_writer w;
    struct chan_reader r;
    chan_writer_init(&w, &seg, ch);
    chan_reader_init(&r, &seg, ch);
    uint64_t wpos = 0, rpos = 0;
    for (int i = 0; i < 30; i++)
        write_bytes(&w, &wpos, 3000);
    chan_publish(&w);
    struct chan_reader c = chan_scan_cursor(&r);
    unsigned char buf[1000];
    uint64_t at = 0;
    while (at < wpos) {
        size_t n = wpos - at < sizeof buf ? (size_t)(wpos - at) : sizeof buf;
        chan_scan_read(&c, buf, n);
        for (size_t i = 0; i < n; i++)
            CHECK(buf[i] == byte_at(at + i), "scan byte %llu", (unsigned long long)(at + i));
        at += n;
    }
    CHECK(chan_available(&r) == wpos, "the scan consumed bytes");
    while (rpos < wpos)
        read_check(&r, &rpos, 3000);
}

/* Writer and reader in two processes, the reader following publications. */
static void test_stream(uint64_t total)
{
    struct channel *ch = new_channel();
    pid_t pid = fork();
    CHECK(pid >= 0, "fork");
    if (pid == 0) {
        struct chan_writer w;
        chan_writer_init(&w, &seg, ch);
        uint64_t pos = 0;
        srand(7);
        while (pos < total) {
            size_t n = (size_t)(rand() % 3000);
            if (n > total - pos)
                n = (size_t)(total - pos);
            write_bytes(&w, &pos, n);
            chan_publish(&w);
        }
        _exit(0);
    }
    struct chan_reader r;
    chan_reader_init(&r, &seg, ch);
    uint64_t pos = 0;
    while (pos < total) {
        uint64_t n = chan_available(&r);
        if (n > 65536)
            n = 65536;
        if (n)
            read_check(&r, &pos, (size_t)n);
        chan_release(&r);
    }
    int status;
    CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0, "writer failed");
}

int main(int argc, char **argv)
{
    CHECK(argc >= 2, "usage: channel order|bounded|scan|stream N");
    CHECK(seg_create(&seg, 1ull << 30, 2) == 0, "seg_create");
    if (!strcmp(argv[1], "order"))
        test_order();
    else if (!strcmp(argv[1], "bounded"))
        test_bounded();
    else if (!strcmp(argv[1], "scan"))
        test_scan();
    else if (!strcmp(argv[1], "stream"))
        test_stream(strtoull(argv[2], NULL, 10) * 100);
    else
        CHECK(0, "unknown mode %s", argv[1]);
    seg_detach(&seg);
    return 0;
}
