/* hp_move_threads.c - a registered area moved into the shared segment
 * (docs/architecture.md, "Direct transfers") keeps every write of the
 * processor's other threads while one of its threads forks (issue 18,
 * defect 5: the pages used to be swapped for private copies around each
 * fork, and writes made meanwhile were lost: 75 in 300 forks).
 *
 * Each processor registers a 64 KiB mmap'd area, moved at the sync after a
 * peer's first hp transfer into it (seen in /proc/self/maps).  A thread writes the words of its first half in turn,
 * word k % W getting k, while the main thread forks 300 times.  Each child
 * checks that its copy is private (not the segment) and writes over the
 * second half, which the parent checks is untouched after each child.
 * The thread checks, before each write, that the word still holds what it
 * wrote there on its previous pass; after the last fork it stops, and every
 * word must hold the last value written to it.
 * Finally a peer's bsp_hpget of the area sees the same words, so the
 * writes are in the pages peers reach. */
// RUN: env="SUPERSTEP_HP_MOVE_MIN=4096" n=2 nompi="moves pages on shm only"
// RUN: env="SUPERSTEP_HP_MOVE_MIN=4096" n=3 nompi="moves pages on shm only"
#include <bsp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "in_segment.h"

#define AREA (64 << 10)
#define WORDS (AREA / 2 / sizeof(uint64_t))
#define FORKS 300

static int s;
static volatile uint64_t *words;
static atomic_bool stop, one_pass;
static uint64_t last; /* the thread's last k + 1 */

static unsigned lost; /* writes the thread found gone on its next visit */

static void *writer(void *arg)
{
    (void)arg;
    uint64_t k = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        lost += words[k % WORDS] != (k >= WORDS ? k - WORDS : 0);
        words[k % WORDS] = k;
        if (++k == WORDS)
            atomic_store(&one_pass, true);
    }
    last = k;
    return NULL;
}

/* Word i holds the last k < n with k % WORDS == i (each word was written at
 * least once: n >= WORDS). */
static uint64_t expected(uint64_t n, uint64_t i)
{
    uint64_t top = n - 1;
    return top - ((top - i) % WORDS);
}

static void fork_many(unsigned char *half)
{
    for (int f = 0; f < FORKS; f++) {
        pid_t child = fork();
        CHECK(child >= 0, "fork");
        if (child == 0) {
            bool private = !in_segment(half);
            memset(half, 0xee, AREA / 2);
            _exit(private ? 0 : 3);
        }
        int st;
        CHECK(waitpid(child, &st, 0) == child && WIFEXITED(st) && WEXITSTATUS(st) == 0,
              "processor %d: fork %d: the child's copy is the segment's pages (status %d)", s, f, st);
        for (size_t i = 0; i < AREA / 2; i++)
            CHECK(half[i] == (unsigned char)(s + 7), "processor %d: fork %d: the child's write reached byte %zu", s, f,
                  i);
    }
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    s = bsp_pid();
    int p = bsp_nprocs();
    unsigned char *area = mmap(NULL, AREA, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    CHECK(area != MAP_FAILED, "mmap");
    memset(area, 0, AREA / 2);
    memset(area + AREA / 2, s + 7, AREA / 2);
    bsp_push_reg(area, AREA);
    bsp_sync();
    /* A peer's first hp transfer into the area asks for the move; the
     * owner moves it at its next sync. */
    uint64_t probe;
    bsp_hpget((s + p - 1) % p, area, 0, &probe, sizeof probe);
    bsp_sync();
    bsp_sync();
    CHECK(in_segment(area + AREA / 2), "processor %d: the area was not moved into the segment", s);

    words = (volatile uint64_t *)area;
    pthread_t t;
    CHECK(pthread_create(&t, NULL, writer, NULL) == 0, "pthread_create");
    fork_many(area + AREA / 2);
    while (!atomic_load(&one_pass)) /* every word written at least once */
        sched_yield();
    atomic_store(&stop, true);
    CHECK(pthread_join(t, NULL) == 0, "pthread_join");
    CHECK(in_segment(area), "processor %d: the area left the segment", s);

    for (uint64_t i = 0; i < WORDS; i++)
        lost += words[i] != expected(last, i);
    CHECK(lost == 0, "processor %d: %u writes lost during %d forks (%llu written)", s, lost, FORKS,
          (unsigned long long)last);

    /* What a peer reads is what the thread wrote. */
    uint64_t *got = malloc(AREA / 2);
    CHECK(got, "malloc");
    uint64_t right_last = 0;
    bsp_push_reg(&last, sizeof last);
    bsp_sync();
    int right = (s + 1) % p;
    bsp_hpget(right, area, 0, got, AREA / 2);
    bsp_hpget(right, &last, 0, &right_last, sizeof right_last);
    bsp_sync();
    for (uint64_t i = 0; i < WORDS; i++)
        CHECK(got[i] == expected(right_last, i), "processor %d: word %llu read from processor %d is %llu, expected %llu",
              s, (unsigned long long)i, right, (unsigned long long)got[i],
              (unsigned long long)expected(right_last, i));
    free(got);
    bsp_pop_reg(&last);
    bsp_pop_reg(area);
    bsp_sync();
    bsp_end();
    return 0;
}
