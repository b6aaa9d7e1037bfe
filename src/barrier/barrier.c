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

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

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

/* Sleep on w->word for at most 'slice', counted in w->sleepers; not at all
 * when 'ready' holds after the count (a waker fences between its change
 * and its look at the count: it either wakes us or we see its change). */
static void sleep_slice(struct wait *w, int64_t slice)
{
    if (w->sleepers)
        atomic_fetch_add(w->sleepers, 1);
    if (w->counted && remote_fence_ready())
        syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0);
    uint32_t v = w->value;
    bool go = true;
    if (w->ready) { /* 'word' is a wake counter: read it before the last look */
        atomic_thread_fence(memory_order_seq_cst);
        v = atomic_load(w->word);
        go = !w->ready(w->arg);
    }
    if (go && slice == INT64_MAX)
        futex_sleep_unbounded(w->word, v);
    else if (go)
        futex_sleep(w->word, v, slice);
    if (w->sleepers)
        atomic_fetch_sub(w->sleepers, 1);
}

/* Always inlined into barrier_wait, whose struct is then constants; what
 * the spin looks at is read into locals once (a call does not change it),
 * so the spin loads only the shared words. */
static inline __attribute__((always_inline)) bool wait_loop(struct wait *w)
{
    _Atomic uint32_t *const word = w->word;
    const uint32_t value = w->value;
    bool (*const ready)(void *) = w->ready;
    void *const arg = w->arg;
    struct barrier *const b = w->b;
    int64_t spin = w->spin_ns == WAIT_NO_SPIN ? 0 : w->spin_ns ? w->spin_ns : oversubscribed ? SPIN_NS_OVER : SPIN_NS;
    int64_t yield_end = w->no_yield || spin > YIELD_NS ? spin : YIELD_NS;
    bool busy = spin > 0;
    /* The barrier's policy looks 64 times without a clock (a given spin is
     * timed from the start: mp.h's adaptive one may be a microsecond), and
     * a watched wait reads the clock at once (one that returns often must
     * still run the watch). */
    bool clockless = busy && !w->spin_ns && !(w->late && w->late->period);
    int64_t t0 = 0, t = 0;
    w->slept = false;
    for (unsigned i = 0;; i++) {
        if (ready ? ready(arg) : atomic_load_explicit(word, memory_order_acquire) != value)
            return true;
        if (b && barrier_failed(b))
            return false;
        if (i < 64 && clockless) {
            cpu_relax();
            continue;
        }
        if ((i & 15) == 0 || !busy || !t0) {
            t = now_ns();
            if (!t0)
                t0 = t;
            if (!w->start) {
                w->start = t;
                late_start(&w->timer, w->late, t);
            }
            if (w->deadline && t >= w->deadline)
                return false;
            late_check(&w->timer, t);
        }
        if (t - t0 < spin) {
            cpu_relax();
        } else if (t - t0 < yield_end || !word) {
            sched_yield();
        } else {
            if (w->slept && w->late && w->late->dead)
                w->late->dead(); /* a slice slept in vain: is a peer dead unseen? */
            int64_t slice = b ? SLEEP_SLICE_NS : INT64_MAX; /* no failure word to re-check: no slices */
            if (w->deadline && w->deadline - t < slice)
                slice = w->deadline - t;
            if (w->timer.due != INT64_MAX && w->timer.due - t < slice)
                slice = w->timer.due - t + 1;
            w->slept = true;
            sleep_slice(w, slice);
            t = now_ns();
        }
    }
}

bool wait_for(struct wait *w)
{
    return wait_loop(w);
}

void wake_sleepers(_Atomic uint32_t *word, _Atomic uint32_t *sleepers)
{
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(sleepers, memory_order_relaxed)) {
        atomic_fetch_add(word, 1);
        wake_word(word);
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
    struct wait w = { .word = &b->gen, .value = gen, .sleepers = &b->sleepers, .b = b, .late = late };
    if (!wait_loop(&w) || barrier_failed(b)) {
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
    struct wait w = { .word = word, .value = value, .b = b, .deadline = timeout_ns < 0 ? 0 : now_ns() + timeout_ns };
    return wait_for(&w);
}

bool counted_wait(struct barrier *b, struct counted_word *w, uint32_t value)
{
    struct wait wt = { .word = &w->value, .value = value, .sleepers = &w->sleepers, .b = b, .counted = true };
    return wait_for(&wt);
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
