/*
 * barrier.h - the barrier every superstep meets at, and the one wait.
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
 * generation's sum, or false in *ok when the job failed while waiting.
 * 'late' (NULL: none) watches the wait (SUPERSTEP_STALL_TIMEOUT, below). */
struct late_watch;
uint64_t barrier_wait(struct barrier *b, uint32_t nprocs, uint64_t contribution, bool *ok,
                      const struct late_watch *late);

/* Mark the job failed and wake every waiter; true for the first caller. */
bool barrier_fail(struct barrier *b, uint32_t code);

static inline bool barrier_failed(struct barrier *b)
{
    return atomic_load_explicit(&b->failed, memory_order_relaxed) != 0;
}

/* SUPERSTEP_STALL_TIMEOUT: the one "who is late" watchdog (late.c).  The
 * layer that knows what the processors do makes the watch (src/bsp/stall.c
 * for BSPlib processors and kernels, the mp.h transports for mp_sync,
 * src/host/host.c for ebsp_host_sync) and gives it to the waits for the
 * others: barrier_wait, the devices' exchange (struct device's 'late').
 * A wait runs a late_timer on it; after each full period waited, 'late'
 * gets the time waited, names the processors still computing and stops
 * the job, or returns (every one is in some call: nobody to blame yet) to
 * be called a period later. */
struct late_watch {
    int64_t period;                      /* ns; 0: off */
    void (*late)(int64_t waited_ns);
    /* NULL, or the watch's dead-peer half: run by a wait at each sleep
     * slice after its first, whatever the period (a peer may die where
     * nobody who would report it can run: src/bsp/stall.c); stops the job
     * or returns.  Only a waiter asleep a slice already pays for it. */
    void (*dead)(void);
};
/* Arm w with the setting's period (read here, once) and 'late' ('dead'
 * NULL: the layer sets its own). */
void late_arm(struct late_watch *w, void (*late)(int64_t waited_ns));

struct late_timer {
    const struct late_watch *w;
    int64_t start, due;                  /* due: INT64_MAX when off */
};
/* Start timing a wait at 'now' (w NULL or its period 0: off). */
void late_start(struct late_timer *t, const struct late_watch *w, int64_t now);
/* Whether a period ended by 'now' (the next one then starts). */
bool late_due(struct late_timer *t, int64_t now);
/* late_due, and then the watch's 'late'. */
void late_check(struct late_timer *t, int64_t now);

/*
 * The one wait (wait_for).  Every wait of the runtime for another process
 * or thread (the barrier; mp.h's sync, receive and the rest of a message;
 * a kernel's host sync, message ring and DMA, and its DMA thread; the
 * host's serving loop; a direct read of a peer that has not yet applied
 * its sync; the launch layer's waits for a failure) is this one loop, so
 * each gets the same policy and the same ends, and none forgets one:
 *   - spin (long enough to outlast a yield on a loaded machine; not at all
 *     with more processors than cores, where a spinner steals the core of
 *     the peer it waits for), then sched_yield, then sleep on the futex
 *     word in slices of at most 100 ms (the failure word is looked at
 *     after each: a second line of defence behind barrier_fail's wake);
 *   - ends: what is waited for (true); the job's failure word; a deadline;
 *     the stall watch (SUPERSTEP_STALL_TIMEOUT, below) runs meanwhile.
 * What is waited for is a word that changes (*word != value), or, with
 * 'ready', any condition whose writers bump 'word' after changing it
 * (wake_sleepers: a wake counter).  A waker that sets a word often and
 * seldom has a sleeper counts on 'sleepers' (waiters count themselves
 * there while asleep) to skip the wake call.  Zero-initialise the struct
 * and set what applies; one struct may be waited on again (a wait in
 * slices): its stall watch times from the first call (clear 'start' to
 * time afresh).  Not built on it (docs/architecture.md, "Barrier and
 * waiting"): the waits on MPI's progress (mpi_wait_until: MPI needs
 * polling), those on the kernel's objects (poll(2) on pidfds and pipes),
 * and, until launch.c is split, the launch layer's own awaits.
 */
struct wait {
    _Atomic uint32_t *word;             /* futex word; NULL: no waker, never sleep (yield) */
    uint32_t value;                     /* without 'ready': wait while *word == value */
    bool (*ready)(void *arg);           /* with it: wait until it holds */
    void *arg;
    _Atomic uint32_t *sleepers;         /* NULL: every writer wakes */
    struct barrier *b;                  /* whose failure word ends the wait; NULL: none (a thread) */
    int64_t deadline;                   /* now_ns() time that ends it; 0: none */
    const struct late_watch *late;      /* NULL: no stall watch */
    int64_t spin_ns;                    /* 0: the barrier's; WAIT_NO_SPIN: none */
    bool no_yield;                      /* sleep straight after the spin */
    bool counted;                       /* a counted_word (below): its setter does not fence */
    bool slept;                         /* out: this call's spin and yield ran out */
    int64_t start;                      /* the stall watch's start; 0: at the next call */
    struct late_timer timer;
};
#define WAIT_NO_SPIN (-1)

/* true when what was awaited holds; false on the job's failure (barrier_failed
 * says so) or at the deadline. */
bool wait_for(struct wait *w);

/* The writer's half with 'sleepers': after changing what a waiter's 'ready'
 * reads, bump and wake 'word' if anyone sleeps (a full fence between: the
 * waiter either sees the change or is seen asleep). */
void wake_sleepers(_Atomic uint32_t *word, _Atomic uint32_t *sleepers);

/* wait_for until *word != value, the job fails, or timeout_ns passes (-1:
 * none); true when the word changed.  The writer calls wake_word() after
 * changing a word others wait on. */
bool wait_word(struct barrier *b, _Atomic uint32_t *word, uint32_t value, int64_t timeout_ns);
void wake_word(_Atomic uint32_t *word);

/*
 * A word that its one writer sets often and others seldom wait on: waiters
 * count themselves in 'sleepers' while they sleep, so that counted_set
 * makes the wake call only when one does, and costs the setter no fence
 * (a waiter falling asleep makes the setters fence, membarrier(2)).
 * counted_wait: wait_word, without a timeout, until w->value != value.
 */
struct counted_word {
    _Atomic uint32_t value;        /* futex word */
    _Atomic uint32_t sleepers;
};
bool counted_wait(struct barrier *b, struct counted_word *w, uint32_t value);
void counted_set(struct counted_word *w, uint32_t value);

/* The clock of every wait (also those on MPI's progress), and the futex
 * sleeps that the launch layer's own awaits use until they move onto
 * wait_for. */
int64_t now_ns(void);                       /* CLOCK_MONOTONIC */
void futex_sleep(_Atomic uint32_t *word, uint32_t value, int64_t ns); /* ns <= 0: returns at once */
void futex_sleep_unbounded(_Atomic uint32_t *word, uint32_t value);

/* Whom a watch blames: of the 'count' ids from 'first' on, those for which
 * is_late holds (computing), or whose process 'stopped' finds stopped
 * ('T', by a signal; 't', by its tracer: whatever call it was in, it is
 * late); step, when not NULL, gives the superstep the first of each group
 * is in.  stopped NULL: no process can be looked at (a remote MPI rank). */
struct late_who {
    const char *unit;                    /* "processor", "node" */
    uint32_t first, count;
    bool (*is_late)(uint32_t id);
    uint64_t (*step)(uint32_t id);
    char (*stopped)(uint32_t id);        /* 'T', 't', or 0: not stopped, or not known */
};
/* The watchdog's line into buf: "waited 2 s for processors 1, 3, still
 * computing in superstep 4; processor 2, stopped by a signal in superstep
 * 4 (SUPERSTEP_STALL_TIMEOUT=2)"; false (no line) when nobody is late. */
bool late_line(char *buf, size_t cap, const struct late_watch *w, int64_t waited_ns, const struct late_who *who);

/* How many cores this job may use; the wait policy spins less when fewer. */
void barrier_set_oversubscribed(bool over);
bool barrier_oversubscribed(void);

#endif
