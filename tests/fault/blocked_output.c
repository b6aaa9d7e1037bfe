/* blocked_output.c - a job whose standard error is a pipe that nobody
 * reads (run by blocked_output.sh).  Usage: blocked_output WHO: standard
 * error is filled first, to its last byte; in superstep 1 the processor
 * that is not WHO leaves the library and writes to standard error for ever
 * (blocked in its own write: the program's business, but the failed job
 * must still end), and then processor WHO calls bsp_abort, whose line
 * cannot be written.  Usage:
 * blocked_output -1: the job ends cleanly (blocked_output.sh's profile
 * case).  Usage: blocked_output WHO sync (tests/mpi/blocked_output.sh,
 * ranks that share no pipe): the other processor waits in bsp_sync. */
// NORUN: run by blocked_output.sh, which gives it a full pipe as stderr
#include <bsp.h>

#include "check.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Write to fd until not a byte more fits (the pipe is full). */
static void fill(int fd)
{
    static char junk[4096];
    memset(junk, 'x', sizeof junk);
    int flags = fcntl(fd, F_GETFL);
    CHECK(fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0, "fcntl");
    for (size_t n = sizeof junk; n; n /= 2)
        while (write(fd, junk, n) > 0)
            ;
    CHECK(errno == EAGAIN, "stderr is no pipe");
    CHECK(fcntl(fd, F_SETFL, flags) == 0, "fcntl");
}

int main(int argc, char **argv)
{
    CHECK(argc == 2 || (argc == 3 && !strcmp(argv[2], "sync")), "usage: blocked_output WHO [sync]");
    int who = atoi(argv[1]);
    bool sync = argc == 3;
    if (who >= 0)
        fill(2);
    int writing[2]; /* the other processor to WHO: "I am out of the library" */
    CHECK(pipe(writing) == 0, "pipe");
    bsp_begin(2);
    bsp_sync();
    if (who < 0) {
        bsp_end();
        return 0;
    }
    if (sync) { /* processors of no common process (mpi) */
        if (bsp_pid() == (unsigned)who)
            bsp_abort("stop\n");
        bsp_sync();
        return 1;
    }
    char c = 'w';
    if (bsp_pid() == (unsigned)who) {
        CHECK(read(writing[0], &c, 1) == 1, "the other processor never wrote");
        bsp_abort("stop\n");
    }
    CHECK(write(writing[1], &c, 1) == 1, "write");
    for (;;)
        fputs("blocked\n", stderr);
}
