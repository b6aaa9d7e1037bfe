/* late.h - a processor (node) that is late, as the stall and deadlock
 * tests make one: computing for a while, or for ever without a call. */
#ifndef SUPERSTEP_TEST_LATE_H
#define SUPERSTEP_TEST_LATE_H
#include <time.h>

/* Busy for 'seconds' (a processor computing, not blocked in a call). */
static inline void compute(double seconds)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((double)(t.tv_sec - t0.tv_sec) + 1e-9 * (double)(t.tv_nsec - t0.tv_nsec) < seconds);
}

/* Computing for ever, asleep (the job must stop it). */
static inline __attribute__((noreturn)) void sleep_forever(void)
{
    for (;;) {
        struct timespec nap = { 60, 0 };
        nanosleep(&nap, NULL);
    }
}
#endif
