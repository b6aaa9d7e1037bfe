/* stall.c - SUPERSTEP_STALL_TIMEOUT: processors waiting in a collective call
 * (bsp_sync, bsp_end) for one still computing are not left waiting for
 * ever: after the configured seconds one line names the late processors,
 * their superstep, how long and the setting; exit status 1; nothing left.
 * Off by default, and a processor slower than the limit is no error.
 * Usage: stall CALL LATE... : in superstep 1 the processors LATE compute
 * for ever (sleep or spin), the others call CALL (sync, end); CALL "slow":
 * processor LATE computes 0.3 s, then everybody syncs and ends ("done"). */
// RUN: n=3 args="sync 1" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: bsp_sync: processor [02], superstep 1: waited [0-9]+ s for processor 1, still computing in superstep 1 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=3 args="sync 0" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: bsp_sync: processor [12], superstep 1: waited [0-9]+ s for processor 0, still computing in superstep 1 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=4 args="end 2 3" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: bsp_end: processor [01], superstep 1: waited [0-9]+ s for processors 2, 3, still computing in superstep 1 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=2 args="spin 1" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: bsp_sync: processor 0, superstep 1: waited [0-9]+ s for processor 1, still computing in superstep 1 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=2 args="slow 1" out="^done$"
// RUN: n=2 args="slow 1" env="SUPERSTEP_STALL_TIMEOUT=5" out="^done$"
// RUN: n=2 args="sync 1" env="SUPERSTEP_STALL_TIMEOUT=1x" fail="^superstep: SUPERSTEP_STALL_TIMEOUT='1x' is not accepted"
#include <bsp.h>

#include "check.h"
#include "late.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv)
{
    CHECK(argc >= 3, "usage: stall CALL LATE...");
    const char *call = argv[1];
    bsp_begin(bsp_nprocs());
    bool late = false;
    for (int i = 2; i < argc; i++)
        late |= atoi(argv[i]) == (int)bsp_pid();
    bsp_sync(); /* superstep 1 */
    if (late && !strcmp(call, "slow")) {
        compute(0.3);
    } else if (late && !strcmp(call, "spin")) {
        compute(1e9);
    } else if (late) {
        sleep_forever();
    }
    if (!strcmp(call, "end"))
        bsp_end();
    bsp_sync();
    if (bsp_pid() == 0 && !strcmp(call, "slow"))
        printf("done\n");
    bsp_end();
    return 0;
}
