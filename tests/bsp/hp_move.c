/* hp_move.c - registered areas moved into the shared segment (so that
 * bsp_hpput, bsp_hpget and bsp_direct_get reach them with memcpy; see
 * docs/architecture.md, "Direct transfers").  Checks byte by byte, with the
 * move seen in /proc/self/maps (the area's middle page maps the segment's
 * memfd, its partial head page never does), so that the test cannot pass
 * on the old path.  With no setting (SUPERSTEP_HP_MOVE_MIN 256K by
 * default), an area moves at its owner's sync after a peer's first hp
 * transfer into it, not at its registration, and stays moved when popped:
 *   - registered: not moved; after a peer's hpget of it and a sync, moved;
 *   - hpput, hpget, bsp_direct_get and bsp_put, whole and in 5003-byte
 *     pieces crossing every page boundary, into an area with partial head
 *     and tail pages;
 *   - the same address registered twice (the pages stay moved until the
 *     second pop), an overlapping registration of part of the area;
 *   - popped: the pages stay moved, contents kept; registered again;
 *   - an mmap area unmapped before its pop, with new memory at the same
 *     address: the pop leaves the new memory alone, and registering the new
 *     memory moves it at the first transfer; a malloc'd area freed before its pop; the heap's top
 *     freed and trimmed (sbrk) before its pop, then handed out again;
 *   - fork after registration: the child gets a private copy (its writes do
 *     not reach the parent), the parent's area stays moved;
 *   - bsp_end with the area still registered puts the pages back.
 * Usage: hp_move [expect-moved 0|1 [MiB [expect-small 0|1]]]: whether the
 * main area is expected to move (default: when p >= 2), its size (default
 * 1), and whether the 1-2 MiB areas of the other cases are (default: as
 * the main area; with a small segment only they fit). */
// RUN: n=1 nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=2 nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=3 nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=4 nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=8 timeout=120 nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=2 args="0" env="SUPERSTEP_HP_MOVE_MIN=0" nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=2 args="0" env="SUPERSTEP_HP_MOVE_MIN=2M" nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=2 args="0 40 1" env="SUPERSTEP_SEGMENT_SIZE=64M" timeout=300 nompi="moves pages on shm only (and bsp_direct_get)"
// RUN: n=2 args="1 40" timeout=300 nompi="moves pages on shm only (and bsp_direct_get)"
#include <bsp.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define PAGE 4096
#define PIECE 5003

static int s, p, left, right;
static bool expect, expect_small;

/* Byte i of the data processor 'owner' writes in round 'round'. */
static unsigned char val(int owner, int round, size_t i)
{
    return (unsigned char)(i * 131 + (i >> 12) * 7 + (size_t)owner * 29 + (size_t)round * 53 + 1);
}

static void fill(unsigned char *b, size_t n, int owner, int round)
{
    for (size_t i = 0; i < n; i++)
        b[i] = val(owner, round, i);
}

static void verify(const unsigned char *b, size_t n, int owner, int round, const char *what)
{
    for (size_t i = 0; i < n; i++)
        CHECK(b[i] == val(owner, round, i), "processor %d, %s: byte %zu of %zu is %u, expected %u (processor %d, round %d)",
              s, what, i, n, b[i], val(owner, round, i), owner, round);
}

/* Does the page holding addr map the shared segment (/proc/self/maps)? */
static bool in_segment(const void *addr)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f, "cannot read /proc/self/maps");
    char line[512];
    bool found = false, seg = false;
    uintptr_t a = (uintptr_t)addr;
    while (!found && fgets(line, sizeof line, f)) {
        unsigned long lo, hi;
        if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && a >= lo && a < hi) {
            found = true;
            seg = strstr(line, "/memfd:superstep") != NULL;
        }
    }
    fclose(f);
    CHECK(found, "processor %d: %p is not mapped", s, addr);
    return seg;
}

static void expect_moved(const void *addr, bool moved, const char *what)
{
    CHECK(in_segment(addr) == moved, "processor %d: %s: page of %p %s the shared segment", s, what, addr,
          moved ? "is not in" : "is in");
}

/* The left neighbour's hp transfer into 'area' (registered by all) asks
 * its owner to move it, which the owner does at its next sync; then every
 * area is moved (if it is to move) and a peer's transfers reach it. */
static void first_transfer(const void *area)
{
    unsigned char probe[8];
    bsp_hpget(right, area, 0, probe, sizeof probe);
    bsp_sync();
    bsp_sync();
}

/* Every transfer kind into and out of the registered 'area' of n bytes;
 * 'round' numbers the patterns. */
static void transfers(unsigned char *area, size_t n, unsigned char *src, unsigned char *dst, int round)
{
    /* hpput of all of it, from a private buffer. */
    fill(src, n, s, round);
    bsp_hpput(right, src, area, 0, (long)n);
    bsp_sync();
    verify(area, n, left, round, "hpput whole");

    /* hpput in pieces across every page boundary. */
    fill(src, n, s, round + 1);
    for (size_t off = 0; off < n; off += PIECE)
        bsp_hpput(right, src + off, area, (long)off, (long)(n - off < PIECE ? n - off : PIECE));
    bsp_sync();
    verify(area, n, left, round + 1, "hpput pieces");

    /* hpget whole and in pieces: each fills its own area first. */
    fill(area, n, s, round + 2);
    bsp_sync();
    bsp_hpget(left, area, 0, dst, (long)n);
    bsp_sync();
    verify(dst, n, left, round + 2, "hpget whole");
    memset(dst, 0, n);
    for (size_t off = 0; off < n; off += PIECE)
        bsp_hpget(left, area, (long)off, dst + off, (long)(n - off < PIECE ? n - off : PIECE));
    bsp_sync();
    verify(dst, n, left, round + 2, "hpget pieces");

    /* bsp_direct_get, whole and a piece across the head page's end. */
    fill(area, n, s, round + 3);
    bsp_sync();
    memset(dst, 0, n);
    bsp_direct_get(left, area, 0, dst, (long)n);
    verify(dst, n, left, round + 3, "bsp_direct_get whole");
    size_t head = PAGE - (uintptr_t)area % PAGE;
    memset(dst, 0, n);
    bsp_direct_get(left, area, (long)(head - 10), dst, 3 * PAGE);
    for (size_t i = 0; i < 3 * PAGE; i++)
        CHECK(dst[i] == val(left, round + 3, head - 10 + i), "processor %d: bsp_direct_get piece byte %zu", s, i);
    bsp_sync(); /* nobody writes the area before everybody has read it */

    /* A buffered put (at most 1 MiB: the segment may be small). */
    size_t m = n < (1u << 20) ? n : (1u << 20);
    fill(src, m, s, round + 4);
    bsp_put(right, src, area, 0, (long)m);
    bsp_sync();
    verify(area, m, left, round + 4, "bsp_put");
}

/* An mmap'd area unmapped before its pop; new memory at the same address. */
static void unmapped_before_pop(void)
{
    size_t n = 1u << 20;
    unsigned char *src = malloc(n);
    CHECK(src, "out of memory");
    unsigned char *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(m != MAP_FAILED, "mmap");
    fill(m, n, s, 50);
    bsp_push_reg(m, (long)n);
    bsp_sync();
    expect_moved(m + PAGE, false, "mmap area before an hp transfer");
    first_transfer(m);
    expect_moved(m + PAGE, expect_small, "mmap area");
    verify(m, n, s, 50, "mmap area moved");
    fill(src, n, s, 51);
    bsp_hpput(right, src, m, 0, (long)n);
    bsp_sync();
    verify(m, n, left, 51, "hpput into the mmap area");
    CHECK(munmap(m, n) == 0, "munmap");
    unsigned char *again = mmap(m, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    CHECK(again == m, "mmap at the same address");
    fill(m, n, s, 52);
    bsp_pop_reg(m);
    bsp_sync();
    verify(m, n, s, 52, "new memory after the pop of an unmapped area");
    expect_moved(m + PAGE, false, "new memory after the pop");
    /* The new memory moves when registered, the same bytes at the same place. */
    bsp_push_reg(m, (long)n);
    bsp_sync();
    expect_moved(m + PAGE, false, "new memory registered");
    first_transfer(m);
    expect_moved(m + PAGE, expect_small, "new memory after a transfer");
    verify(m, n, s, 52, "new memory moved");
    fill(src, n, s, 53);
    bsp_hpput(right, src, m, 0, (long)n);
    bsp_sync();
    verify(m, n, left, 53, "hpput into the new memory");
    bsp_pop_reg(m);
    bsp_sync();
    expect_moved(m + PAGE, expect_small, "new memory popped (stays moved)");
    verify(m, n, left, 53, "new memory popped");
    munmap(m, n);
    free(src);
}

/* The top of the heap freed before its pop: glibc gives it back with sbrk
 * (which unmaps the moved pages), and hands out the same addresses again.
 * Not under ASan, whose allocator has no heap top. */
static void trimmed_before_pop(void)
{
#if !defined(__SANITIZE_ADDRESS__)
    size_t n = 1u << 20;
    mallopt(M_MMAP_THRESHOLD, 256 << 20);
    mallopt(M_TRIM_THRESHOLD, 128 << 10);
    unsigned char *h = malloc(n);
    CHECK(h, "out of memory");
    fill(h, n, s, 80);
    bsp_push_reg(h, (long)n);
    bsp_sync();
    first_transfer(h);
    expect_moved(h + n / 2, expect_small, "heap top area");
    verify(h, n, s, 80, "heap top area moved");
    void *volatile key = h; /* the registered address, kept past free */
    free(h);
    unsigned char *h2 = malloc(n);
    CHECK(h2, "out of memory");
    fill(h2, n, s, 81);
    bsp_pop_reg(key);
    bsp_sync();
    verify(h2, n, s, 81, "heap memory allocated after trimming a registered area");
    free(h2);
#endif
}

/* A malloc'd area freed before its pop (free may unmap or trim it, or hand
 * it out again): the pop must not touch what is there now. */
static void freed_before_pop(void)
{
    size_t n = 2u << 20;
    unsigned char *c = malloc(n);
    CHECK(c, "out of memory");
    fill(c, n, s, 60);
    bsp_push_reg(c, (long)n);
    bsp_sync();
    first_transfer(c);
    expect_moved(c + 2 * PAGE, expect_small, "malloc'd area");
    void *volatile key = c; /* the registered address, kept past free */
    free(c);
    unsigned char *d = malloc(n); /* often the same address */
    CHECK(d, "out of memory");
    fill(d, n, s, 61);
    bsp_pop_reg(key);
    bsp_sync();
    verify(d, n, s, 61, "memory allocated after freeing a registered area");
    free(d);
}

/* fork after registration: private copies in the child.  The first n
 * bytes of the area hold processor left's pattern of 'round'. */
static void fork_after_registration(unsigned char *area, size_t n, int round)
{
    pid_t child = fork();
    CHECK(child >= 0, "fork");
    if (child == 0) {
        bool ok = true;
        for (size_t i = 0; i < n; i++)
            ok &= area[i] == val(left, round, i);
        memset(area, 0xee, n);
        _exit(ok && !in_segment(area + n / 2) ? 0 : 3);
    }
    int st;
    CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0,
          "processor %d: the forked child saw wrong data or shared pages (status %d)", s, st);
    verify(area, n, left, round, "after the child wrote its copy");
    expect_moved(area + n / 2, expect, "after fork");
}

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    s = bsp_pid();
    p = bsp_nprocs();
    left = (s + p - 1) % p;
    right = (s + 1) % p;
    expect = argc > 1 ? atoi(argv[1]) != 0 : p >= 2;
    size_t mib = argc > 2 ? (size_t)atoi(argv[2]) : 1;
    expect_small = argc > 3 ? atoi(argv[3]) != 0 : expect;

    /* An area with partial head and tail pages: 100 bytes into a buffer,
     * 1000 bytes beyond a multiple of the page size. */
    size_t n = (mib << 20) + 1000;
    unsigned char *buf = malloc(n + 3 * PAGE), *src = malloc(n), *dst = malloc(n);
    CHECK(buf && src && dst, "out of memory");
    unsigned char *area = buf + (PAGE - (uintptr_t)buf % PAGE) + 100;
    fill(area, n, s, 0);
    bsp_push_reg(area, (long)n);
    bsp_sync();
    expect_moved(area + PAGE, false, "registered area before any hp transfer");
    first_transfer(area);
    verify(area, n, s, 0, "contents after the move");
    expect_moved(area + PAGE, expect, "registered area");
    expect_moved(area + n / 2, expect, "registered area");
    expect_moved(area, false, "partial head page");
    expect_moved(area + n - 1, false, "partial tail page");
    transfers(area, n, src, dst, 1);

    /* Registered twice: both registrations work, the pages stay moved
     * until the second pop, and keep their contents. */
    bsp_push_reg(area, (long)n);
    bsp_sync();
    transfers(area, n, src, dst, 10);
    bsp_pop_reg(area);
    bsp_sync();
    expect_moved(area + PAGE, expect, "after the first of two pops");
    transfers(area, n, src, dst, 20);

    /* An overlapping registration of part of the area. */
    unsigned char *part = area + 3 * PAGE + 5;
    size_t pn = 20 * PAGE + 77;
    bsp_push_reg(part, (long)pn);
    bsp_sync();
    fill(src, pn, s, 30);
    bsp_hpput(right, src, part, 0, (long)pn);
    bsp_sync();
    verify(part, pn, left, 30, "hpput into the overlapping registration");
    verify(area, 3 * PAGE + 5, left, 24, "the area before the overlapping registration");
    bsp_pop_reg(part);
    bsp_sync();
    expect_moved(area + PAGE, expect, "after popping the overlapping registration");

    /* Popped: the pages stay moved, contents kept; then registered again
     * (the first transfer takes the old path, the pages are shared again). */
    fill(area, n, s, 40);
    bsp_pop_reg(area);
    bsp_sync();
    expect_moved(area + PAGE, expect, "popped (stays moved)");
    verify(area, n, s, 40, "contents after the pop");
    bsp_push_reg(area, (long)n);
    bsp_sync();
    expect_moved(area + PAGE, expect, "registered again");
    transfers(area, n, src, dst, 41);

    fork_after_registration(area, n < (1u << 20) ? n : (1u << 20), 45); /* transfers' last bsp_put */
    transfers(area, n, src, dst, 46);

    unmapped_before_pop();
    freed_before_pop();
    trimmed_before_pop();

    /* bsp_end with the area registered: the pages come back. */
    fill(area, n, s, 70);
    bsp_end();
    CHECK(!in_segment(area + PAGE), "processor %d: the area is still in the segment after bsp_end", s);
    verify(area, n, s, 70, "contents after bsp_end");
    free(buf);
    free(src);
    free(dst);
    return 0;
}
