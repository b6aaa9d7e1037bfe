/* stall.c - SUPERSTEP_STALL_TIMEOUT in mp.h: nodes waiting in mp_sync for
 * one still computing (not blocked in a call, so no deadlock) are not left
 * waiting for ever: one line names the late nodes and the setting; exit 1.
 * Usage: stall LATE : node LATE computes for ever (sleeps) while the
 * others call mp_sync; LATE 0: node 2 computes 0.3 s, no error ("done");
 * LATE -1: node 2 waits for ever for a message from node 3, which computes
 * (sleeps) for 5 s: only node 3 is named (a node blocked in a receive is
 * the deadlock check's, not still computing); LATE -2: the same, but
 * node 2 blocks 0.2 s after the others came to mp_sync; LATE -3: node 2
 * waits 0.5 s for node 3's message, then computes for ever: it is named. */
// RUN: n=3 args="2" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: mp_sync: node [13]: waited [0-9]+ s for node 2, still computing \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=3 args="1" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: mp_sync: node [23]: waited [0-9]+ s for node 1, still computing \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=2 args="0" env="SUPERSTEP_STALL_TIMEOUT=5" out="^done$"
// RUN: n=3 args="-1" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: mp_sync: node 1: waited [0-9]+ s for node 3, still computing \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=3 args="-2" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: mp_sync: node 1: waited [0-9]+ s for node 3, still computing \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=3 args="-3" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: mp_sync: node [13]: waited [0-9]+ s for node 2, still computing \(SUPERSTEP_STALL_TIMEOUT=1\)$"
#include <mp.h>

#include "check.h"
#include "fault/late.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static void nap(double seconds)
{
    struct timespec t = { (time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9) };
    nanosleep(&t, NULL);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: stall LATE");
    int late = atoi(argv[1]);
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    if (mp_this_pe() == late)
        sleep_forever();
    if (late <= -1 && mp_this_pe() == 2) {
        if (late == -2)
            nap(0.2);
        int v;
        bool got;
        mp_recv_from(3, sizeof v, &v, NULL, MP_FOREVER, &got);
        if (late == -3)
            sleep_forever();
    }
    if (late <= -1 && mp_this_pe() == 3) {
        nap(late == -3 ? 0.5 : 5);
        int v = 1;
        if (late == -3)
            CHECK(mp_send(2, 0, &v, sizeof v), "mp_send");
    }
    if (late == 0 && mp_this_pe() == 2)
        nap(0.3);
    mp_sync();
    if (mp_is_main())
        printf("done\n");
    mp_quit(0);
    return 0;
}
