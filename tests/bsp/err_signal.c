/* err_signal.c - a processor killed by a signal stops the whole job; the
 * runtime names the processor, the signal and the superstep.
 * Usage: err_signal MODE PID STEP: processor PID, in superstep STEP,
 *   segv:  writes through a NULL pointer, while the others are in bsp_sync;
 *   busy:  the same while the others compute (sleep);
 *   kill:  raises SIGKILL (which it cannot catch);
 *   abort: calls abort(), as a failed CHECK does. */
// RUN: n=3 args="segv 2 2" fail="^superstep: processor 2 killed by signal 11 \(SIGSEGV\) in superstep 2"
// RUN: n=4 args="segv 2 0" fail="^superstep: processor 2 killed by signal 11 \(SIGSEGV\) in superstep 0"
// RUN: n=2 args="segv 0 1" fail="^superstep: processor 0 killed by signal 11 \(SIGSEGV\) in superstep 1"
// RUN: n=1 args="segv 0 1" fail="^superstep: processor 0 killed by signal 11 \(SIGSEGV\) in superstep 1"
// RUN: n=4 args="busy 2 1" timeout=20 fail="^superstep: processor 2 killed by signal 11 \(SIGSEGV\) in superstep 1"
// RUN: n=2 args="kill 1 1" fail="^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1"
// RUN: n=8 args="kill 5 3" fail="^superstep: processor 5 killed by signal 9 \(SIGKILL\) in superstep 3"
// RUN: n=3 args="abort 1 2" fail="^superstep: processor 1 killed by signal 6 \(SIGABRT\) in superstep 2"
#include <bsp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

/* A real NULL dereference; the sanitizers are told to let it happen. */
__attribute__((noinline, no_sanitize("address", "undefined")))
static void write_null(int *volatile *where)
{
    **where = 1;
}

int main(int argc, char **argv)
{
    CHECK(argc == 4, "usage: err_signal MODE PID STEP");
    const char *m = argv[1];
    int who = atoi(argv[2]), when = atoi(argv[3]);
    bsp_begin(bsp_nprocs());
    for (int step = 0; step < when; step++)
        bsp_sync();

    if (bsp_pid() == who) {
        if (strcmp(m, "segv") == 0 || strcmp(m, "busy") == 0) {
            int *volatile null = NULL;
            write_null(&null);
        } else if (strcmp(m, "kill") == 0) {
            raise(SIGKILL);
        } else if (strcmp(m, "abort") == 0) {
            abort();
        }
        CHECK(0, "processor %d survived mode %s", who, m);
    } else if (strcmp(m, "busy") == 0) {
        struct timespec nap = {60, 0}; /* must be cut short */
        nanosleep(&nap, NULL);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
