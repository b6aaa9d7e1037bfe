/* lines.c - every processor writes many long lines to stdout and stderr,
 * each in many small pieces; run by lines.sh with both redirected to a file
 * and to a pipe, where no line may come out mixed with another.
 * Usage: lines LINES PIECES */
// RUN: n=2 args="4 3"
#include <bsp.h>

#include "check.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: lines LINES PIECES");
    int lines = atoi(argv[1]), pieces = atoi(argv[2]);
    bsp_begin(bsp_nprocs());
    unsigned me = bsp_pid();
    for (int l = 0; l < lines; l++) {
        FILE *f = l % 2 ? stderr : stdout;
        fprintf(f, "p%u line %d:", me, l);
        for (int k = 0; k < pieces; k++)
            fprintf(f, " %u%u%u%u%u%u", me, me, me, me, me, me);
        fprintf(f, " end\n");
    }
    bsp_sync();
    bsp_end();
    return 0;
}
