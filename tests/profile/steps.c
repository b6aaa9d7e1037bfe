/* steps.c - many supersteps for the profiler's size policy (see
 * tests/profile/policy.sh): N empty supersteps (argument, default 300),
 * except that superstep 'slow' (second argument, default 150) works for
 * about 100 ms on processor 0, so it is the costliest. */
// RUN: n=2 args="50 10"
#include <bsp.h>
#include <stdlib.h>
#include <time.h>

static void spin_ms(double ms)
{
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    do
        clock_gettime(CLOCK_MONOTONIC, &b);
    while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 300, slow = argc > 2 ? atol(argv[2]) : 150;
    bsp_begin(bsp_nprocs());
    for (long k = 0; k < n; k++) {
        if (k == slow && bsp_pid() == 0)
            spin_ms(100);
        bsp_sync();
    }
    bsp_end();
    return 0;
}
