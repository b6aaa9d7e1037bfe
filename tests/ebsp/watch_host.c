/* watch_host.c - a healthy host: one run of watch_kernel, then BYTES bytes
 * of output (lines of 'x'), then, if given, an empty file MARKER, and
 * status 0.  tests/mpi/watchdog_mpirun.sh has it outlive the old
 * launcher watchdog's grace on a real mpirun.
 * Usage: watch_host BYTES [MARKER] */
// RUN: n=2 args="0"
// RUN: n=3 args="100" out="^x{99}$"
#include <host_bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    long bytes = argc > 1 ? atol(argv[1]) : 0;
    bsp_init("watch_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    CHECK(ebsp_spmd() == 1, "the run failed");
    bsp_end();
    char line[100];
    memset(line, 'x', sizeof line - 1);
    line[sizeof line - 1] = '\n';
    for (long n = 0; n < bytes; n += (long)sizeof line)
        fwrite(line, 1, sizeof line, stdout);
    fflush(stdout);
    if (argc > 2) {
        FILE *f = fopen(argv[2], "w");
        CHECK(f && fclose(f) == 0, "cannot write %s", argv[2]);
    }
    return 0;
}
