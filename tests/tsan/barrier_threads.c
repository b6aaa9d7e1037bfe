/* barrier_threads.c - the job barrier, the word waits and the failure word
 * with threads as processors, so that ThreadSanitizer (make test TSAN=1)
 * sees every access: sums over many rounds, data written before a barrier
 * read after it, and a failure that wakes every waiter; and wait_for with
 * a condition and a wake counter (mp.h's receive, a kernel's DMA): thread
 * 0 hands the others data, round after round, and waits for each to take
 * it (TSan checks that the wait orders the data).
 */
// RUN: args="sum 4 2000"
// RUN: args="fail 4"
// RUN: args="handoff 3 2000"
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

static _Atomic uint64_t posted, taken;      /* rounds handed out; takes of this round */
static _Atomic uint32_t post_wake, post_sleepers, take_wake, take_sleepers;
static uint64_t payload;                     /* plain memory: the wait must order it */

static bool round_posted(void *r)
{
    return atomic_load_explicit(&posted, memory_order_acquire) >= *(uint64_t *)r;
}

static bool all_taken(void *r)
{
    return atomic_load_explicit(&taken, memory_order_acquire) == *(uint64_t *)r * (nthreads - 1);
}

static void *handoff_thread(void *arg)
{
    uint32_t me = (uint32_t)(uintptr_t)arg;
    for (uint64_t r = 1; r <= (uint64_t)rounds; r++) {
        if (me == 0) {
            payload = r * 7;
            atomic_store_explicit(&posted, r, memory_order_release);
            wake_sleepers(&post_wake, &post_sleepers);
            struct wait w = { .word = &take_wake, .ready = all_taken, .arg = &r, .sleepers = &take_sleepers, .b = bar };
            CHECK(wait_for(&w), "round %llu: the wait for the takers failed", (unsigned long long)r);
        } else {
            struct wait w = { .word = &post_wake, .ready = round_posted, .arg = &r, .sleepers = &post_sleepers,
                              .b = bar };
            CHECK(wait_for(&w), "round %llu: the wait for the data failed", (unsigned long long)r);
            CHECK(payload == r * 7, "round %llu: the data is not visible", (unsigned long long)r);
            atomic_fetch_add_explicit(&taken, 1, memory_order_release);
            wake_sleepers(&take_wake, &take_sleepers);
        }
    }
    return NULL;
}

int main(int argc, char **argv)
{
    CHECK(argc >= 3, "usage: barrier_threads sum T ROUNDS | fail T | handoff T ROUNDS");
    CHECK(seg_create(&seg, 1ull << 24, 64) == 0, "seg_create");
    bar = seg_ptr(&seg, seg_alloc(&seg, sizeof *bar, SEG_LINE));
    nthreads = (uint32_t)atoi(argv[2]);
    CHECK(nthreads >= 1 && nthreads <= 64, "1 to 64 threads");
    rounds = argc > 3 ? atoi(argv[3]) : 0;
    barrier_init(bar, nthreads);
    barrier_set_oversubscribed(true);
    void *(*body)(void *) = !strcmp(argv[1], "sum") ? sum_thread : !strcmp(argv[1], "fail") ? fail_thread : handoff_thread;
    pthread_t t[64];
    for (uint32_t i = 0; i < nthreads; i++)
        CHECK(pthread_create(&t[i], NULL, body, (void *)(uintptr_t)i) == 0, "create");
    for (uint32_t i = 0; i < nthreads; i++)
        pthread_join(t[i], NULL);
    seg_detach(&seg);
    return 0;
}
