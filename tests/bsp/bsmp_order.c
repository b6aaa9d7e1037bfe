/* bsmp_order.c - messages are delivered in order of source pid, then send
 * order, whatever the order in which they were sent in real time; and the
 * queue only holds the messages of the last superstep: those not moved
 * before the next bsp_sync are gone. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <time.h>

#include "check.h"

/* How many messages processor `src` sends to `dst` in superstep `step`. */
static int count(int src, int dst, int step) { return (src * 3 + dst * 5 + step) % 7; }

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();

    for (int step = 0; step < 6; step++) {
        /* Higher pids send first in real time. */
        struct timespec nap = {0, (long)(p - 1 - s) * 1000 * 1000};
        nanosleep(&nap, NULL);
        /* Interleave destinations; the payload says who and which. */
        for (int k = 0; k < 7; k++)
            for (int d = p - 1; d >= 0; d--)
                if (k < count(s, d, step)) {
                    int msg[3] = {s, k, step};
                    bsp_send(d, NULL, msg, sizeof msg);
                }
        bsp_sync();

        int total = 0;
        for (int src = 0; src < p; src++)
            total += count(src, s, step);
        int nmsg, nbytes;
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == total, "processor %d step %d: %d messages, expected %d", s, step, nmsg,
              total);

        /* In odd steps read only half the messages: the rest must be gone
         * after the next bsp_sync. */
        int reads = step % 2 ? total / 2 : total, n = 0;
        for (int src = 0; src < p; src++)
            for (int k = 0; k < count(src, s, step); k++, n++) {
                if (n >= reads)
                    break;
                int msg[3] = {-1, -1, -1};
                bsp_move(msg, sizeof msg);
                CHECK(msg[0] == src && msg[1] == k && msg[2] == step, "processor %d step %d: "
                      "got message %d of %d from step %d, expected %d of %d", s, step, msg[1],
                      msg[0], msg[2], k, src);
            }
    }
    bsp_sync();
    int nmsg, nbytes;
    bsp_qsize(&nmsg, &nbytes);
    CHECK(nmsg == 0 && nbytes == 0, "processor %d: %d old messages left", s, nmsg);
    bsp_end();
    return 0;
}
