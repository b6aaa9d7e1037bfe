/* stop_grace.c - a processor still computing when the job fails (run by
 * stop_grace.sh).  Usage: stop_grace SECONDS: in superstep 1 processor 0
 * calls bsp_abort once processor 1 has left its bsp_sync (a processor still
 * in the call when the job fails leaves through it: 8 of 36 runs under
 * ASan and load, before this wait); processor 1 computes SECONDS, prints
 * "reached" (buffered: stdout is a file), and calls bsp_sync, where it sees
 * the failure and leaves with its output flushed, unless it was killed
 * first. */
// NORUN: run by stop_grace.sh, which sets the grace and checks the output
#include <bsp.h>

#include "check.h"
#include "late.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: stop_grace SECONDS");
    double seconds = atof(argv[1]);
    int computing[2]; /* processor 1 to 0: "I am computing" */
    CHECK(pipe(computing) == 0, "pipe");
    bsp_begin(2);
    bsp_sync();
    char c = 'c';
    if (bsp_pid() == 0) {
        CHECK(read(computing[0], &c, 1) == 1, "processor 1 never said it computes");
        bsp_abort("stop\n");
    }
    CHECK(write(computing[1], &c, 1) == 1, "write");
    compute(seconds);
    printf("reached\n");
    bsp_sync();
    bsp_end();
    return 0;
}
