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
 * Wait until *word != value, the job fails, or timeout_ns passes (-1: none);
 * same spin-yield-sleep policy.  Returns true when the word changed.
 * The writer must call wake_word() after changing a word others wait on.
 */
bool wait_word(struct barrier *b, _Atomic uint32_t *word, uint32_t value, int64_t timeout_ns);
void wake_word(_Atomic uint32_t *word);

/*
 * barrier_wait and wait_word are the runtime's one wait on shared memory
 * (spin, yield, futex sleep in bounded slices, the failure word, a
 * timeout, the stall hook): the barrier, mp_sync, the host's serving loop,
 * a kernel's ebsp_host_sync and message ring, and the launch layer's waits
 * for a failure all use it.  The waits that stay different, and why (each
 * says so where it is):
 *   - mp.h's receive (src/mp/mp_shm.c, shm_wait): waits for any of 2N
 *     channels, not one word; its spin adapts to how often spinning paid;
 *     it has no yield phase; it sleeps behind a 'sleeping' flag so that
 *     senders skip the wake call; and it checks for deadlock each slice;
 *   - the rest of an mp.h message being written (wait_more): the sender is
 *     inside mp_send and publishes without waking anyone: spin, yield;
 *   - a kernel's DMA (src/ebsp/dma.c): threads of one process, a condvar;
 *   - on the mpi device (em_wait, hmpi.c): MPI's progress needs polling.
 * The pieces below are what those are made of.
 */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}
int64_t now_ns(void);                       /* CLOCK_MONOTONIC */
void futex_sleep(_Atomic uint32_t *word, uint32_t value, int64_t ns); /* ns <= 0: returns at once */
void futex_sleep_unbounded(_Atomic uint32_t *word, uint32_t value);

/* SUPERSTEP_STALL_TIMEOUT: a barrier_wait longer than 'ns' (0: never)
 * calls 'hook' with the time waited so far; the hook reports the late
 * processors and does not return, or returns (nobody to blame yet) and is
 * called again after another 'ns'.  Per process; set by the layer that
 * knows what the processors are doing (bsp, see src/bsp/stall.c). */
void barrier_set_stall(int64_t ns, void (*hook)(int64_t waited_ns));
/* The period and hook set there (0: none), for a device whose collective
 * wait is not barrier_wait (mpi.c: an MPI collective). */
int64_t barrier_stall(void (**hook)(int64_t waited_ns));

/* How many cores this job may use; the wait policy spins less when fewer. */
void barrier_set_oversubscribed(bool over);
bool barrier_oversubscribed(void);

#endif
