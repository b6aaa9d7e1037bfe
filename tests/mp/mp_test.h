/* mp_test.h - helpers shared by the mp tests: a hash for reproducible
 * contents, and the usual ending (every node reports to the main node,
 * which quits; the others wait for the quit notice). */
#ifndef SUPERSTEP_MP_TEST_H
#define SUPERSTEP_MP_TEST_H

#include <mp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

#define TAG_DONE 0x3ffffff0

static inline uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

static inline void fill(unsigned char *p, size_t n, uint64_t key)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(mix(key + i / 8) >> (8 * (i % 8)));
}

static inline size_t bad_byte(const unsigned char *p, size_t n, uint64_t key)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != (unsigned char)(mix(key + i / 8) >> (8 * (i % 8))))
            return i;
    return (size_t)-1;
}

static inline double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static inline void nap(double s)
{
    struct timespec ts = { (time_t)s, (long)((s - (double)(time_t)s) * 1e9) };
    nanosleep(&ts, NULL);
}

static inline bool sanitizing(void)
{
    const char *s = getenv("SANITIZE");
    return s && strcmp(s, "1") == 0;
}

/* Every node but the main one reports; the main node quits once all have;
 * the others end on the quit notice. */
static inline void finish(void)
{
    int me = mp_this_pe();
    if (mp_is_main()) {
        for (int i = 1; i < mp_npes(); i++) {
            int tag = 0, from = 0;
            size_t n = mp_recv(0, NULL, &tag, &from);
            CHECK(n == 0 && tag == TAG_DONE, "node 1: expected a DONE, got tag %d (%zu bytes) from %d", tag, n, from);
        }
        CHECK(mp_quit(0), "mp_quit(0) failed on the main node");
    } else {
        CHECK(mp_send(1, TAG_DONE, NULL, 0), "node %d: DONE not sent", me);
        int tag = 0, from = 0;
        size_t n = mp_recv(0, NULL, &tag, &from);
        CHECK(n == 0 && tag == MP_QUIT && from == 1, "node %d: expected the quit notice, got tag %d from %d", me, tag,
              from);
        CHECK(mp_quit(0), "node %d: mp_quit(0) failed", me);
    }
}

#endif
