/* barrier.c - the barrier on its own: every arrival is counted, the
 * contributions' fields add up, nobody passes early (a shared counter is
 * checked on both sides of each barrier), and a failure wakes every
 * waiter, spinning or asleep. */
// RUN: args="sum 2 3000"
// RUN: args="sum 16 300"
// RUN: args="fail 8"
#include "barrier/barrier.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static struct segment seg;
static struct barrier *bar;
static _Atomic uint64_t *counter;

static void run_sum(uint32_t p, int rounds)
{
    for (uint32_t me = 0; me < p; me++) {
        if (fork() != 0)
            continue;
        barrier_set_oversubscribed(p > 2);
        for (int r = 0; r < rounds; r++) {
            atomic_fetch_add(counter, 1);
            bool ok;
            uint64_t sum = barrier_wait(bar, p, BAR_FIELD(0) | (me % 2 ? BAR_FIELD(1) : 0), &ok, NULL);
            CHECK(ok, "barrier failed");
            CHECK(BAR_GET(sum, 0) == p && BAR_GET(sum, 1) == p / 2, "round %d: sum fields %llu %llu", r,
                  (unsigned long long)BAR_GET(sum, 0), (unsigned long long)BAR_GET(sum, 1));
            uint64_t seen = atomic_load(counter);
            CHECK(seen >= (uint64_t)(r + 1) * p, "round %d: passed with %llu of %llu arrivals", r,
                  (unsigned long long)seen, (unsigned long long)(r + 1) * p);
            barrier_wait(bar, p, BAR_FIELD(0), &ok, NULL); /* nobody counts the next round early */
        }
        _exit(0);
    }
}

static void run_fail(uint32_t p)
{
    for (uint32_t me = 0; me < p; me++) {
        if (fork() != 0)
            continue;
        bool ok;
        if (me == 0) {
            struct timespec ts = { 0, 300 * 1000 * 1000 }; /* let the others fall asleep */
            nanosleep(&ts, NULL);
            barrier_fail(bar, 5);
            _exit(0);
        }
        barrier_wait(bar, p, BAR_FIELD(0), &ok, NULL);
        CHECK(!ok, "waiter passed a barrier that processor 0 never reached");
        _exit(0);
    }
}

int main(int argc, char **argv)
{
    CHECK(argc >= 3, "usage: barrier sum P ROUNDS | fail P");
    CHECK(seg_create(&seg, 1ull << 26, 16) == 0, "seg_create");
    bar = seg_ptr(&seg, seg_alloc(&seg, sizeof *bar, SEG_LINE));
    counter = seg_ptr(&seg, seg_alloc(&seg, sizeof *counter, SEG_LINE));
    barrier_init(bar, 16);
    uint32_t p = (uint32_t)atoi(argv[2]);
    if (!strcmp(argv[1], "sum"))
        run_sum(p, atoi(argv[3]));
    else
        run_fail(p);
    int status, bad = 0;
    while (wait(&status) > 0)
        bad += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    CHECK(bad == 0, "%d processes failed", bad);
    return 0;
}
