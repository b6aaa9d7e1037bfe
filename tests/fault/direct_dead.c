/* direct_dead.c - bsp_direct_get (or bsp_hpget) from a processor that was
 * just killed (issue 18, defect 3): the job names the kill, with its signal
 * and 128 + signal as status, not "direct read from processor 1 failed"
 * with status 1.  Processor 1 raises SIGKILL in superstep 1 while processor
 * 0 reads its registered array directly, over and over; processor 2 waits
 * in bsp_sync.  Before the fix the reader's own line won in about 2 runs of
 * 3 here, so the case runs several times.
 * Usage: direct_dead direct|hp */
// RUN: n=3 args="direct" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
// RUN: n=3 args="direct" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
// RUN: n=3 args="direct" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
// RUN: n=3 args="direct" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
// RUN: n=3 args="direct" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
// RUN: n=3 args="direct" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
// RUN: n=3 args="hp" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
// RUN: n=3 args="hp" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$"
#include <bsp.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>

#include "check.h"

static char area[256]; /* static data: never moved into the segment */

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: direct_dead direct|hp");
    bool hp = !strcmp(argv[1], "hp");
    bsp_begin(bsp_nprocs());
    bsp_push_reg(area, sizeof area);
    bsp_sync();
    char copy[sizeof area];
    if (bsp_pid() == 1)
        raise(SIGKILL);
    if (bsp_pid() == 0)
        for (;;) {
            if (hp) {
                bsp_hpget(1, area, 0, copy, sizeof copy);
                bsp_sync();
            } else {
                bsp_direct_get(1, area, 0, copy, sizeof copy);
            }
        }
    bsp_sync();
    bsp_end();
    return 0;
}
