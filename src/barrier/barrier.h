/*
 * barrier.h - the barrier every superstep meets at, and the waits beside it.
 *
 * A central counter in the segment.  Each arrival adds its contribution (a
 * count of one plus flags packed in higher bits); the last arrival publishes
 * the sum and opens the next generation.  Waiters spin briefly, yield while
 * peers are runnable, then sleep on the generation futex.  Every wait also
 * watches the job's failure word, so nobody waits on a dead peer.
 */
#ifndef SUPERSTEP_BARRIER_H
#define SUPERSTEP_BARRIER_H

#include "segment/segment.h"

#include <stdbool.h>

struct barrier {
    _Atomic uint64_t arrived;      /* sum of this generation's contributions */
    char pad0[SEG_LINE - sizeof(uint64_t)];
    _Atomic uint32_t gen;          /* futex word: generation number */
    _Atomic uint32_t sleepers;
    _Atomic uint64_t result;       /* sum of the last completed generation */
    char pad1[SEG_LINE - 2 * sizeof(uint32_t) - sizeof(uint64_t)];
    _Atomic uint32_t failed;       /* non-zero: the job has failed */
    _Atomic uint32_t failed_wake;  /* futex word bumped when failing */
    char pad2[SEG_LINE - 2 * sizeof(uint32_t)];
};

/* A contribution: 1 << BAR_COUNT_SHIFT counts the arrival; fields above. */
#define BAR_FIELD(i) (1ull << (16 * (i)))   /* field i of four 16-bit fields */
#define BAR_GET(sum, i) (((sum) >> (16 * (i))) & 0xffff)

void barrier_init(struct barrier *b, uint32_t nprocs);

/* Arrive with 'contribution' (which must include BAR_FIELD(0)); returns the
 * generation's sum, or false in *ok when the job failed while waiting. */
uint64_t barrier_wait(struct barrier *b, uint32_t nprocs, uint64_t contribution, bool *ok);

/* Mark the job failed and wake every waiter; true for the first caller. */
bool barrier_fail(struct barrier *b, uint32_t code);

static inline bool barrier_failed(struct barrier *b)
{
    return atomic_load_explicit(&b->failed, memory_order_relaxed) != 0;
}

/*
 * The one wait.  Every place a processor waits (the barrier, a word in the
 * segment, an mp.h receive, and on the mpi device every MPI request) is a
 * struct wait handed to wait_for, which owns the policy: spin while every
 * processor has a core, then yield, then sleep on a futex word (in bounded
 * slices, so the failure word is looked at now and then even by a sleeper
 * whose word no failure bumps); where the condition can change without
 * its word changing (MPI's progress), sleep only when this node's
 * processors outnumber its cores, in slices doubling from 1 us to 1 ms.
 * Collective waits are watched by SUPERSTEP_STALL_TIMEOUT (wait_watch).
 */
struct wait {
    bool (*ready)(void *arg);   /* the condition, looked at in a loop; NULL: *word != value */
    void *arg;
    _Atomic uint32_t *word;     /* changed (and woken: wake_word) when the condition may have become
                                 * true; read before each look, slept on; NULL: none */
    uint32_t value;             /* with ready NULL: leave once *word != value */
    _Atomic uint32_t *sleepers; /* counted up while asleep, so wakers skip the call at 0; or NULL */
    struct barrier *b;          /* the job's failure word; NULL where a failure ends the process (mpi) */
    int64_t timeout_ns;         /* -1: none */
    bool collective;            /* waiting for peers in a collective call: SUPERSTEP_STALL_TIMEOUT */
    bool polled;                /* the condition also changes unannounced (MPI): see above */
    bool no_sleep;              /* the peer ends this wait soon without waking it: spin and yield */
    bool no_yield;              /* sleep right after the spin (a receive may wait long, and a woken
                                 * sleeper runs sooner than a yielding one on a crowded machine) */
    int64_t spin_ns;            /* how long to spin (0: the policy's; an adaptive caller's own) */
    void (*slice)(void *arg);   /* after each sleep (mp's deadlock check), or NULL */
};

enum wait_end { WAIT_READY, WAIT_FAILED, WAIT_TIMEOUT };

enum wait_end wait_for(const struct wait *w);

/* Wait until *word != value, the job fails, or timeout_ns passes (-1:
 * none); true when the word changed.  The writer calls wake_word. */
bool wait_word(struct barrier *b, _Atomic uint32_t *word, uint32_t value, int64_t timeout_ns);
void wake_word(_Atomic uint32_t *word);

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
int64_t now_ns(void);                       /* CLOCK_MONOTONIC */
void futex_sleep(_Atomic uint32_t *word, uint32_t value, int64_t ns);

/* SUPERSTEP_STALL_TIMEOUT: a collective wait calls 'hook' after every
 * 'period_ns' of waiting (0: never) with the time waited; the hook (the
 * launch layer's watchdog) reports the processors still computing and
 * stops the job, or returns when none is.  Per process. */
void wait_watch(int64_t period_ns, void (*hook)(int64_t waited_ns));

/* More processors than cores on this machine (shm: the job's; mpi: this
 * node's ranks): spin no more, and polled waits may sleep. */
void barrier_set_oversubscribed(bool over);

#endif
