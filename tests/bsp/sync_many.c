/* sync_many.c - many supersteps in a row, most of them empty, some with a
 * little communication: the barrier and the per-superstep bookkeeping do not
 * wear out.  Usage: sync_many [supersteps] (default 5000).
 * The longer limits are for the mpi device with MPICH (ch4:ucx), where a
 * superstep with more ranks than cores costs 3-4 ms (tests/bsp/reg_race.c). */
// RUN: n=1
// RUN: n=2
// RUN: n=3 timeout=180
// RUN: n=4 timeout=180
// RUN: n=8 args="1000" timeout=180
// RUN: n=64 args="30"
#include <bsp.h>
#include <stdlib.h>

#include "check.h"

static int x;

int main(int argc, char **argv)
{
    int steps = argc > 1 ? atoi(argv[1]) : 5000;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int right = (s + 1) % p, left = (s + p - 1) % p;
    bsp_push_reg(&x, sizeof x);
    bsp_sync();
    for (int i = 0; i < steps; i++) {
        switch (i % 4) {
        case 0: /* nothing */
            break;
        case 1: { /* a put */
            int v = i * p + s;
            bsp_put(right, &v, &x, 0, sizeof v);
            break;
        }
        case 2: /* check it, and send a message */
            CHECK(x == (i - 1) * p + left, "processor %d step %d: x = %d", s, i, x);
            bsp_send(right, NULL, &i, sizeof i);
            break;
        case 3: { /* receive it */
            int nmsg, nbytes, got = -1;
            bsp_qsize(&nmsg, &nbytes);
            CHECK(nmsg == 1, "processor %d step %d: %d messages", s, i, nmsg);
            bsp_move(&got, sizeof got);
            CHECK(got == i - 1, "processor %d step %d: message %d", s, i, got);
            break;
        }
        }
        bsp_sync();
    }
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
    return 0;
}
