/* time.c - bsp_time() is the wall-clock time in seconds since bsp_begin:
 * non-negative, never decreasing, and it follows real time. */
// RUN: n=1
// RUN: n=2
// RUN: n=4
#include <bsp.h>
#include <time.h>

#include "check.h"

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid();
    double t0 = bsp_time();
    CHECK(t0 >= 0 && t0 < 30, "processor %d: bsp_time() = %g right after bsp_begin", s, t0);

    double last = t0;
    for (int i = 0; i < 100000; i++) {
        double t = bsp_time();
        CHECK(t >= last, "processor %d: time went back from %.9f to %.9f", s, last, t);
        last = t;
    }

    /* 20 ms of sleep shows as at least 20 ms (minus rounding). */
    struct timespec nap = {0, 20 * 1000 * 1000};
    double before = bsp_time();
    nanosleep(&nap, NULL);
    double after = bsp_time();
    CHECK(after - before >= 0.0195, "processor %d: 20 ms sleep took %.6f s", s, after - before);
    CHECK(after - before < 10, "processor %d: 20 ms sleep took %.6f s", s, after - before);

    /* Still monotonic across supersteps. */
    for (int step = 0; step < 10; step++) {
        bsp_sync();
        double t = bsp_time();
        CHECK(t >= after, "processor %d: time went back across bsp_sync", s);
        after = t;
    }
    bsp_end();
    return 0;
}
