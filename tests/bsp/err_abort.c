/* err_abort.c - bsp_abort (and bsp_vabort) from any processor stops all of
 * them; its message is printed once, prefixed with the processor and the
 * superstep.  Exit status and line count: abort_once.sh.
 * Usage: err_abort MODE
 *   PID:     processor PID aborts in superstep 1, the others are in bsp_sync;
 *   busy:    processor 1 aborts while the others compute (sleep);
 *   all:     every processor aborts in superstep 2;
 *   vabort:  processor 1 aborts through bsp_vabort in superstep 0;
 *   newline: the message ends in a newline (still one line);
 *   twolines: a newline inside the message too (shown as \n: one line). */
// RUN: n=1 args="0" fail="^superstep: bsp_abort: processor 0, superstep 1: abort test 42$"
// RUN: n=4 args="0" fail="^superstep: bsp_abort: processor 0, superstep 1: abort test 42$"
// RUN: n=3 args="2" fail="^superstep: bsp_abort: processor 2, superstep 1: abort test 42$"
// RUN: n=8 args="7" fail="^superstep: bsp_abort: processor 7, superstep 1: abort test 42$"
// RUN: n=4 args="busy" timeout=20 fail="^superstep: bsp_abort: processor 1, superstep 1: abort test 42$"
// RUN: n=4 args="all" fail="^superstep: bsp_abort: processor [0-3], superstep 2: everybody aborts$"
// RUN: n=2 args="vabort" fail="^superstep: bsp_v?abort: processor 1, superstep 0: vabort 7 seven$"
// RUN: n=2 args="newline" fail="^superstep: bsp_abort: processor 1, superstep 1: with a newline$"
// RUN: n=2 args="twolines" fail="^superstep: bsp_abort: processor 1, superstep 1: bad value 3\\\\nsecond line$"
#include <bsp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static void my_abort(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bsp_vabort(fmt, ap);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_abort MODE");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    int s = bsp_pid();
    if (strcmp(m, "vabort") == 0 && s == 1)
        my_abort("vabort %d %s", 7, "seven");
    bsp_sync(); /* superstep 1 */

    if (strcmp(m, "busy") == 0) {
        if (s == 1)
            bsp_abort("abort test %d", 42);
        /* The others must be stopped; this would outlast the time limit. */
        struct timespec nap = {60, 0};
        nanosleep(&nap, NULL);
    } else if (strcmp(m, "newline") == 0) {
        if (s == 1)
            bsp_abort("with a newline\n");
    } else if (strcmp(m, "twolines") == 0) {
        if (s == 1)
            bsp_abort("bad value %d\nsecond line\n", 3);
    } else if (strcmp(m, "all") == 0) {
        bsp_sync(); /* superstep 2 */
        bsp_abort("everybody aborts");
    } else if (strcmp(m, "vabort") != 0 && s == atoi(m)) {
        bsp_abort("abort test %d", 42);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
