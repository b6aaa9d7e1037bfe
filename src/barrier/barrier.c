/*
 * barrier.c - counter barrier with a spin, yield, sleep wait.
 *
 * Spinning is fastest while every processor has a core of its own; with
 * more processors than cores a spinner steals the time of the peer it waits
 * for, so then it yields almost at once, and anyone waiting long sleeps on a
 * futex (one FUTEX_WAKE releases all sleepers together).
 */
#include "barrier/barrier.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static bool oversubscribed;

void barrier_set_oversubscribed(bool over)
{
    oversubscribed = over;
}

bool barrier_oversubscribed(void)
{
    return oversubscribed;
}

int64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

void futex_sleep(_Atomic uint32_t *word, uint32_t value, int64_t ns)
{
    struct timespec ts = { ns / 1000000000, ns % 1000000000 };
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, value, &ts, NULL, 0);
}

void futex_sleep_unbounded(_Atomic uint32_t *word, uint32_t value)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAIT, value, NULL, NULL, 0);
}

void wake_word(_Atomic uint32_t *word)
{
    syscall(SYS_futex, (uint32_t *)word, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

void barrier_init(struct barrier *b, uint32_t nprocs)
{
    (void)nprocs;
    atomic_store(&b->arrived, 0);
    atomic_store(&b->gen, 0);
    atomic_store(&b->sleepers, 0);
    atomic_store(&b->result, 0);
    atomic_store(&b->failed, 0);
}

/* Spin this long before yielding, and yield this long before sleeping.  The
 * spin outlasts a yield's return latency on a loaded machine (about 80 us
 * here): a waiter that yields too early comes back late, makes its peers
 * wait past their own spin, and the job falls into lock-step yielding. */
#define SPIN_NS 200000
#define SPIN_NS_OVER 0
#define YIELD_NS 2000000
#define SLEEP_SLICE_NS 100000000 /* re-check the failure word at least this often */

/*
 * counted_set's store and its look at the sleepers need a full fence
 * between them, else a waiter falling asleep just then could be missed;
 * at the end of every bsp_sync that fence cost a tenth of an empty
 * superstep at p = 2.  So the waiter pays instead, and only when it goes
 * to sleep: it makes every registered process run a full fence with
 * membarrier(2) (an asymmetric fence, what the call is for).  Each setter
 * registers at its first counted_set (a fork inherits it); where the
 * kernel refuses, every setter fences itself.
 */
static int remote_fence = -1; /* -1: not asked yet; 1: registered; 0: refused */

static bool remote_fence_ready(void)
{
    if (remote_fence < 0)
        remote_fence = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED, 0, 0) == 0;
    return remote_fence;
}

/* 'counted': the word is a counted_word's, whose setter does not fence. */
static bool wait_change(struct barrier *b, _Atomic uint32_t *word, uint32_t value, _Atomic uint32_t *sleepers,
                        bool counted, int64_t timeout_ns, const struct late_watch *watch)
{
    int64_t spin = oversubscribed ? SPIN_NS_OVER : SPIN_NS;
    int64_t start = 0, t = 0;
    struct late_timer late = { NULL, 0, INT64_MAX };
    for (unsigned i = 0;; i++) {
        if (atomic_load_explicit(word, memory_order_acquire) != value)
            return true;
        if (barrier_failed(b))
            return false;
        if (i < 64 && !oversubscribed) {
            cpu_relax();
            continue;
        }
        if ((i & 15) == 0 || oversubscribed) {
            t = now_ns();
            if (!start) {
                start = t;
                late_start(&late, watch, t);
            }
            if (timeout_ns >= 0 && t - start >= timeout_ns)
                return false;
            late_check(&late, t);
        }
        if (t - start < spin) {
            cpu_relax();
        } else if (t - start < YIELD_NS) {
            sched_yield();
        } else {
            int64_t slice = SLEEP_SLICE_NS;
            if (timeout_ns >= 0 && timeout_ns - (t - start) < slice)
                slice = timeout_ns - (t - start) + 1;
            if (late.due - t < slice)
                slice = late.due - t + 1;
            if (sleepers)
                atomic_fetch_add(sleepers, 1);
            if (counted && remote_fence_ready())
                syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0);
            futex_sleep(word, value, slice);
            if (sleepers)
                atomic_fetch_sub(sleepers, 1);
            t = now_ns();
        }
    }
}

uint64_t barrier_wait(struct barrier *b, uint32_t nprocs, uint64_t contribution, bool *ok,
                      const struct late_watch *late)
{
    uint32_t gen = atomic_load_explicit(&b->gen, memory_order_acquire);
    uint64_t sum = atomic_fetch_add(&b->arrived, contribution) + contribution;
    *ok = true;
    if (BAR_GET(sum, 0) == nprocs) {
        atomic_store_explicit(&b->arrived, 0, memory_order_relaxed);
        atomic_store_explicit(&b->result, sum, memory_order_relaxed);
        atomic_store(&b->gen, gen + 1);
        if (atomic_load(&b->sleepers))
            wake_word(&b->gen);
        return sum;
    }
    if (!wait_change(b, &b->gen, gen, &b->sleepers, false, -1, late) || barrier_failed(b)) {
        *ok = false;
        return 0;
    }
    return atomic_load_explicit(&b->result, memory_order_relaxed);
}

bool barrier_fail(struct barrier *b, uint32_t code)
{
    uint32_t zero = 0;
    bool first = atomic_compare_exchange_strong(&b->failed, &zero, code ? code : 1);
    atomic_fetch_add(&b->gen, 1);
    wake_word(&b->gen);
    atomic_fetch_add(&b->failed_wake, 1);
    wake_word(&b->failed_wake);
    return first;
}

bool wait_word(struct barrier *b, _Atomic uint32_t *word, uint32_t value, int64_t timeout_ns)
{
    return wait_change(b, word, value, NULL, false, timeout_ns, NULL);
}

bool counted_wait(struct barrier *b, struct counted_word *w, uint32_t value)
{
    return wait_change(b, &w->value, value, &w->sleepers, true, -1, NULL);
}

void counted_set(struct counted_word *w, uint32_t value)
{
    atomic_store_explicit(&w->value, value, memory_order_release);
    if (remote_fence_ready())
        atomic_signal_fence(memory_order_seq_cst); /* the compiler keeps the order; a sleeper's membarrier, the CPU */
    else
        atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&w->sleepers, memory_order_relaxed))
        wake_word(&w->value);
}
