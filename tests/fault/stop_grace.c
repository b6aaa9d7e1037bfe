/* stop_grace.c - a processor still computing when the job fails (run by
 * stop_grace.sh).  Usage: stop_grace SECONDS: in superstep 1 processor 0
 * calls bsp_abort at once; processor 1 computes SECONDS, prints "reached"
 * (buffered: stdout is a file), and calls bsp_sync, where it sees the
 * failure and leaves with its output flushed, unless it was killed first. */
// NORUN: run by stop_grace.sh, which sets the grace and checks the output
#include <bsp.h>

#include "check.h"
#include "late.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: stop_grace SECONDS");
    double seconds = atof(argv[1]);
    bsp_begin(2);
    bsp_sync();
    if (bsp_pid() == 0)
        bsp_abort("stop\n");
    compute(seconds);
    printf("reached\n");
    bsp_sync();
    bsp_end();
    return 0;
}
