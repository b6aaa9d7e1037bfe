/* barrier_threads.c - the job barrier, the word waits and the failure word
 * with threads as processors, so that ThreadSanitizer (make test TSAN=1)
 * sees every access: sums over many rounds, data written before a barrier
 * read after it, and a failure that wakes every waiter.
 */
// RUN: args="sum 4 2000"
// RUN: args="fail 4"
#include "barrier/barrier.h"
#include "check.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static struct segment seg;
static struct barrier *bar;
static uint32_t nthreads;
static int rounds;
static uint64_t slots[64]; /* plain memory: the barrier must order it */

static void *sum_thread(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    bool ok;
    for (int r = 0; r < rounds; r++) {
        slots[me] = (uint64_t)r * 100 + me;
        uint64_t sum = barrier_wait(bar, nthreads, BAR_FIELD(0) | (me % 2 ? BAR_FIELD(1) : 0), &ok, NULL);
        CHECK(ok, "barrier failed");
        CHECK(BAR_GET(sum, 0) == nthreads && BAR_GET(sum, 1) == nthreads / 2, "round %d: wrong sum", r);
        uint32_t peer = (me + 1) % nthreads;
        CHECK(slots[peer] == (uint64_t)r * 100 + peer, "round %d: a peer's write is not visible", r);
        barrier_wait(bar, nthreads, BAR_FIELD(0), &ok, NULL);
    }
    return NULL;
}

static void *fail_thread(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    bool ok;
    if (me == 0) {
        struct timespec ts = { 0, 200 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        barrier_fail(bar, 5);
        return NULL;
    }
    barrier_wait(bar, nthreads, BAR_FIELD(0), &ok, NULL);
    CHECK(!ok, "a waiter passed a barrier that thread 0 never reached");
    CHECK(!wait_word(bar, &bar->gen, atomic_load(&bar->gen), -1), "a word wait ignored the failure");
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(argc >= 3, "usage: barrier_threads sum T ROUNDS | fail T");
    CHECK(seg_create(&seg, 1ull << 24, 64) == 0, "seg_create");
    bar = seg_ptr(&seg, seg_alloc(&seg, sizeof *bar, SEG_LINE));
    nthreads = (uint32_t)atoi(argv[2]);
    CHECK(nthreads >= 1 && nthreads <= 64, "1 to 64 threads");
    rounds = argc > 3 ? atoi(argv[3]) : 0;
    barrier_init(bar, nthreads);
    barrier_set_oversubscribed(true);
    bool sum = !strcmp(argv[1], "sum");
    pthread_t t[64];
    for (uint32_t i = 0; i < nthreads; i++)
        CHECK(pthread_create(&t[i], NULL, sum ? sum_thread : fail_thread, (void *)(uintptr_t)i) == 0, "create");
    for (uint32_t i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
    seg_detach(&seg);
    return 0;
}
