/*
 * dma.c - the DMA engine: one helper thread per kernel process.
 *
 * ebsp_dma_push queues a copy and returns; the thread, started at the first
 * push, does the copies one at a time in push order and publishes the
 * number of the last one done.  A handle holds its copy's number, so
 * ebsp_dma_wait only compares two counters unless it must sleep.  Both
 * sides wait with barrier.h's wait_for: the thread for work (sleeping at
 * once: it must not take the core of the kernel it serves), a kernel for
 * its copy (also ended by the job's failure); each wakes the other
 * through a wake counter only when the other sleeps (wake_sleepers).
 */
#include <e_bsp.h>

#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "ebsp/ebsp.h"
#include "launch/launch.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#define DMA_MAGIC 0x444d4131u /* "DMA1": the handle holds a pushed copy */

struct dma_task {
    void *dst;
    const void *src;
    size_t n;
};

static struct {
    pthread_mutex_t mu;           /* the queue, for the pusher and the thread */
    pthread_t thread;
    bool started;
    struct dma_task *q;           /* ring: copy number s at q[s % cap] */
    uint64_t cap;
    uint64_t pushed, taken;       /* under mu */
    _Atomic uint64_t done;        /* number of the last copy finished */
    _Atomic uint32_t work, work_sleepers;  /* wake counter: copies pushed */
    _Atomic uint32_t done_wake, done_sleepers;
} dma = { .mu = PTHREAD_MUTEX_INITIALIZER };

static bool have_work(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&dma.mu);
    bool more = dma.taken != dma.pushed;
    pthread_mutex_unlock(&dma.mu);
    return more;
}

static void *dma_main(void *arg)
{
    (void)arg;
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals stay with the main thread */
    for (;;) {
        /* No failure word: a failing job ends this process, and this thread with it. */
        struct wait w = { .word = &dma.work, .ready = have_work, .sleepers = &dma.work_sleepers,
                          .spin_ns = WAIT_NO_SPIN, .no_yield = true };
        wait_for(&w);
        pthread_mutex_lock(&dma.mu);
        uint64_t seq = ++dma.taken;
        struct dma_task t = dma.q[seq % dma.cap];
        pthread_mutex_unlock(&dma.mu);
        if (t.n)
            memmove(t.dst, t.src, t.n);
        atomic_store_explicit(&dma.done, seq, memory_order_release);
        wake_sleepers(&dma.done_wake, &dma.done_sleepers);
    }
    return NULL;
}

/* Make room for one more queued copy (under mu). */
static void dma_reserve(void)
{
    if (dma.pushed - dma.taken < dma.cap)
        return;
    uint64_t cap = dma.cap ? 2 * dma.cap : 64;
    struct dma_task *q = malloc(cap * sizeof *q);
    if (!q)
        bsp_error("ebsp_dma_push", "out of memory for the DMA queue");
    for (uint64_t s = dma.taken + 1; s <= dma.pushed; s++)
        q[s % cap] = dma.q[s % dma.cap];
    free(dma.q);
    dma.q = q;
    dma.cap = cap;
}

void ebsp_dma_push(ebsp_dma_handle *desc, void *dst, const void *src, size_t nbytes)
{
    ebsp_require_begun("ebsp_dma_push"); /* before bsp_begin: no engine yet (tests/ebsp/early.sh) */
    if (!desc)
        bsp_error("ebsp_dma_push", "NULL handle");
    if (nbytes && (!dst || !src))
        bsp_error("ebsp_dma_push", "NULL %s with nbytes %zu", dst ? "source" : "destination", nbytes);
    if (nbytes > (1ull << 40))
        bsp_error("ebsp_dma_push", "absurd nbytes %zu (more than 2^40)", nbytes);
    pthread_mutex_lock(&dma.mu);
    if (!dma.started) {
        if (pthread_create(&dma.thread, NULL, dma_main, NULL) != 0) {
            pthread_mutex_unlock(&dma.mu);
            bsp_error("ebsp_dma_push", "cannot start the DMA thread");
        }
        dma.started = true;
    }
    dma_reserve();
    uint64_t seq = ++dma.pushed;
    dma.q[seq % dma.cap] = (struct dma_task){ dst, src, nbytes };
    pthread_mutex_unlock(&dma.mu);
    wake_sleepers(&dma.work, &dma.work_sleepers);
    desc->config = DMA_MAGIC;
    desc->count = (unsigned)seq;
    desc->outer_stride = (unsigned)(seq >> 32);
    desc->inner_stride = (unsigned)nbytes;
    desc->src_addr = (void *)src;
    desc->dst_addr = dst;
    ebsp_stats.dma_pushed++;
}

static bool copied(void *seq)
{
    return atomic_load_explicit(&dma.done, memory_order_acquire) >= *(uint64_t *)seq;
}

static void wait_seq(uint64_t seq)
{
    if (copied(&seq))
        return;
    ebsp_stats.dma_waited_busy++;
    struct wait w = { .word = &dma.done_wake, .ready = copied, .arg = &seq, .sleepers = &dma.done_sleepers,
                      .b = &job.ls->barrier };
    if (!wait_for(&w))
        launch_stopped();
}

void ebsp_dma_wait(ebsp_dma_handle *desc)
{
    ebsp_require_begun("ebsp_dma_wait");
    if (!desc)
        bsp_error("ebsp_dma_wait", "NULL handle");
    if (desc->config != DMA_MAGIC)
        return;
    wait_seq((uint64_t)desc->count | (uint64_t)desc->outer_stride << 32);
    desc->config = 0;
}

void dma_drain(void)
{
    pthread_mutex_lock(&dma.mu);
    uint64_t last = dma.pushed;
    pthread_mutex_unlock(&dma.mu);
    if (last)
        wait_seq(last);
}
