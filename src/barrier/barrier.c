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
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static bool oversubscribed;
static int64_t watch_ns;                    /* 0: SUPERSTEP_STALL_TIMEOUT off */
static void (*watch_hook)(int64_t waited_ns);

void wait_watch(int64_t period_ns, void (*hook)(int64_t waited_ns))
{
    watch_ns = hook ? period_ns : 0;
    watch_hook = hook;
}

void barrier_set_oversubscribed(bool over)
{
    oversubscribed = over;
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
#define YIELD_NS 2000000
#define SLEEP_SLICE_NS 100000000 /* look at the failure word at least this often */
#define NAP_MIN_NS 1000          /* a polled wait's sleeps: from this, doubling ... */
#define NAP_MAX_NS 1000000       /* ... up to this */

/* Is the condition met?  Reads the word first (*seen), so that a change
 * made after the look wakes the sleep that follows it. */
static bool met(const struct wait *w, uint32_t *seen)
{
    if (!w->ready)
        return atomic_load_explicit(w->word, memory_order_acquire) != w->value;
    if (w->word)
        *seen = atomic_load_explicit(w->word, memory_order_acquire);
    return w->ready(w->arg);
}

/* Sleep once, at most ns; false when the condition was met meanwhile.
 * With 'sleepers', the count goes up (a full fence) before the last look,
 * and a waker changes the word before it reads the count: either this
 * look sees the change, or the waker sees a sleeper and wakes it. */
static bool sleep_once(const struct wait *w, uint32_t seen, int64_t ns)
{
    _Atomic uint32_t none = 0;
    bool slept = true;
    if (w->sleepers) {
        atomic_fetch_add(w->sleepers, 1);
        slept = !met(w, &seen);
    }
    if (slept)
        futex_sleep(w->word ? w->word : &none, w->word ? seen : 0, ns);
    if (w->sleepers)
        atomic_fetch_sub(w->sleepers, 1);
    if (slept && w->slice)
        w->slice(w->arg);
    return slept;
}

enum wait_end wait_for(const struct wait *w)
{
    bool spin = !oversubscribed;
    bool may_sleep = !w->no_sleep && (!w->polled || oversubscribed);
    int64_t spin_ns = w->spin_ns ? w->spin_ns : SPIN_NS, yield_ns = w->no_yield && may_sleep ? 0 : YIELD_NS;
    int64_t start = 0, t = 0, watch_at = w->collective ? watch_ns : 0, nap = NAP_MIN_NS;
    uint32_t seen = w->value;
    for (unsigned i = 0;; i++) {
        if (met(w, &seen))
            return WAIT_READY;
        if (w->b && barrier_failed(w->b))
            return WAIT_FAILED;
        if (i < 64 && spin) {
            cpu_relax();
            continue;
        }
        if ((i & 15) == 0 || !spin || w->polled) {
            t = now_ns();
            if (!start)
                start = t;
            if (w->timeout_ns >= 0 && t - start >= w->timeout_ns)
                return WAIT_TIMEOUT;
            if (watch_at && t - start >= watch_at) {
                watch_hook(t - start); /* reports and stops, or finds nobody late yet */
                watch_at += watch_ns;
            }
        }
        if (spin && t - start < spin_ns) {
            cpu_relax();
        } else if (t - start < yield_ns || !may_sleep) {
            sched_yield();
        } else {
            int64_t slice = w->polled ? nap : SLEEP_SLICE_NS;
            nap = nap * 2 < NAP_MAX_NS ? nap * 2 : NAP_MAX_NS;
            if (w->timeout_ns >= 0 && w->timeout_ns - (t - start) < slice)
                slice = w->timeout_ns - (t - start) + 1;
            if (watch_at && watch_at - (t - start) < slice)
                slice = watch_at - (t - start) + 1;
            if (!sleep_once(w, seen, slice))
                return WAIT_READY;
            t = now_ns();
        }
    }
}

uint64_t barrier_wait(struct barrier *b, uint32_t nprocs, uint64_t contribution, bool *ok)
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
    struct wait w = { .word = &b->gen, .value = gen, .sleepers = &b->sleepers, .b = b, .timeout_ns = -1,
                      .collective = true };
    if (wait_for(&w) != WAIT_READY || barrier_failed(b)) {
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
    struct wait w = { .word = word, .value = value, .b = b, .timeout_ns = timeout_ns };
    return wait_for(&w) == WAIT_READY;
}
