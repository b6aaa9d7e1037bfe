/* affinity.c - pinning at bsp_begin: with SUPERSTEP_AFFINITY=compact or
 * scatter, or MulticoreBSP's mode calls, every processor runs on exactly
 * one allowed CPU, the one its mode gives it (scatter by default); with
 * SUPERSTEP_AFFINITY=none the CPU set is left as it was.
 * Usage: affinity none|compact|scatter|manual */
// RUN: n=2 args="scatter" nompi="pinning is done on shm only; under mpirun the launcher places the processes"
// RUN: n=3 args="none" env="SUPERSTEP_AFFINITY=none"
// RUN: n=2 args="compact" env="SUPERSTEP_AFFINITY=compact" nompi="pinning is done on shm only; under mpirun the launcher places the processes"
// RUN: n=3 args="scatter" env="SUPERSTEP_AFFINITY=scatter" nompi="pinning is done on shm only; under mpirun the launcher places the processes"
// RUN: n=4 args="manual" env="SUPERSTEP_AFFINITY=scatter" nompi="pinning is done on shm only; under mpirun the launcher places the processes"
// RUN: n=2 args="scatter" env="SUPERSTEP_AFFINITY=diagonal" fail="^superstep: SUPERSTEP_AFFINITY='diagonal' is not accepted: expected scatter, compact or none"
// RUN: n=2 args="manual-bad" fail="^superstep: bsp_begin: processor [0-9]+, superstep 0: cannot pin processor [0-9]+ to CPU 100000: no such CPU" nompi="pinning is done on shm only; under mpirun the launcher places the processes"
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <mcbsp.h>
#include <sched.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "none";
    cpu_set_t before, after;
    CHECK(sched_getaffinity(0, sizeof before, &before) == 0, "sched_getaffinity");
    int allowed[CPU_SETSIZE], n = 0;
    for (int c = 0; c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, &before))
            allowed[n++] = c;
    if (!strcmp(mode, "manual")) { /* the call overrides SUPERSTEP_AFFINITY */
        size_t pin[1] = { (size_t)allowed[n - 1] };
        mcbsp_set_pinning(pin, 1);
    } else if (!strcmp(mode, "manual-bad")) {
        size_t pin[1] = { 100000 };
        mcbsp_set_pinning(pin, 1);
    }
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(sched_getaffinity(0, sizeof after, &after) == 0, "sched_getaffinity");
    if (!strcmp(mode, "none")) {
        CHECK(CPU_EQUAL(&before, &after), "processor %d: CPU set changed without pinning", s);
    } else {
        int want = !strcmp(mode, "manual") ? allowed[n - 1]
                 : !strcmp(mode, "compact") ? allowed[s % n]
                 : allowed[(p <= n ? s * n / p : s % n)];
        CHECK(CPU_COUNT(&after) == 1 && CPU_ISSET(want, &after), "processor %d: %d CPUs, not pinned to %d", s,
              CPU_COUNT(&after), want);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
