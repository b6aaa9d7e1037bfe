/* fail_at.c - a BSP job that fails in a chosen superstep, for the tests of
 * a failed job's trace (tests/profile/failed.sh, mpi_failed.sh).
 *
 *   fail_at HOW WHO STEP [VICTIM]
 *
 * Processor WHO fails in superstep STEP (after STEP bsp_syncs): HOW is
 * "error" (a bsp_put to a processor that does not exist), "abort"
 * (bsp_abort) or "crash" (SIGSEGV).  Every superstep before moves one word
 * from each processor to its right neighbour.  With VICTIM (shm only,
 * STEP >= 1, VICTIM not 0 or WHO): before its last bsp_sync, processor WHO
 * waits until processor VICTIM sleeps in that bsp_sync and stops it
 * (SIGSTOP), so that superstep STEP - 1 is completed (every processor
 * reached its barrier) while VICTIM never returns from its bsp_sync.
 */
// RUN: n=3 args="abort 1 2" fail="bsp_abort: processor 1, superstep 2: fail_at: as asked"
#include <bsp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

/* The state letter of process 'pid' (/proc/PID/stat), '?' when unknown. */
static char proc_state(int pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "re");
    if (!f)
        return '?';
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    const char *paren = strrchr(buf, ')');
    return paren && paren[1] == ' ' ? paren[2] : '?';
}

static void wait_state(int pid, char want)
{
    struct timespec nap = { 0, 1000000 };
    while (proc_state(pid) != want)
        nanosleep(&nap, NULL);
}

int main(int argc, char **argv)
{
    CHECK(argc == 4 || argc == 5, "usage: fail_at error|abort|crash WHO STEP [VICTIM]");
    const char *how = argv[1];
    int who = atoi(argv[2]), step = atoi(argv[3]), victim = argc == 5 ? atoi(argv[4]) : -1;
    CHECK(victim < 0 || step >= 2, "a VICTIM needs STEP >= 2");
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int word = -1, mypid = (int)getpid(), victim_pid = 0;
    bsp_push_reg(&word, sizeof word);
    if (victim == s)
        bsp_send(who, NULL, &mypid, sizeof mypid);
    for (int k = 0; k < step; k++) {
        if (k > 0)
            bsp_put((s + 1) % p, &s, &word, 0, sizeof s);
        if (k == 1 && s == who && victim >= 0)
            bsp_move(&victim_pid, sizeof victim_pid);
        if (k == step - 1 && s == who && victim >= 0) {
            wait_state(victim_pid, 'S'); /* asleep in this bsp_sync's barrier */
            kill(victim_pid, SIGSTOP);
            wait_state(victim_pid, 'T');
        }
        bsp_sync();
    }
    if (s == who) {
        if (!strcmp(how, "error"))
            bsp_put(p + 3, &s, &word, 0, sizeof s);
        else if (!strcmp(how, "abort"))
            bsp_abort("fail_at: as asked");
        else
            raise(SIGSEGV);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
