/* stopped.c - a processor whose process is stopped (SIGSTOP), issue 36
 * item 4.  Every processor first learns every other's pid (supersteps 0, 1);
 * what each waits for below it reads in /proc, so that nothing depends
 * on how fast the others run.  Usage: stopped MODE
 *   self:   processor 1 stops itself in superstep 2; the others wait until
 *           it is stopped, then call bsp_sync: with SUPERSTEP_STALL_TIMEOUT
 *           the line calls it stopped, not still computing (before: "still
 *           computing"); it is killed as any late processor, nothing left;
 *   resume: the same, and processor 1 prints "stopping PID" first (for
 *           tests/fault/stopped.sh, which resumes it): the job ends 0;
 *   kill0:  processor 0 prints "pids P0 P1 ..." and "stopping PID" and
 *           stops itself (and with it the monitor thread that watches the
 *           others); processor 1, once it sees 0 stopped, dies by SIGKILL;
 *           processor 2 calls bsp_sync once 1 is dead
 *           (tests/fault/stopped.sh);
 *   kill2:  processor 0 prints "pids P0 P1 ..." and "stopping PID" and stops
 *           itself; processor 2, once it sees 0 stopped, dies by SIGKILL;
 *           the others call bsp_sync at once (tests/fault/stopped.sh). */
// RUN: n=3 args="self" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: bsp_sync: processor [02], superstep 2: waited 1 s for processor 1, stopped by a signal in superstep 2 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
// RUN: n=4 args="self" env="SUPERSTEP_STALL_TIMEOUT=1" fail="^superstep: bsp_sync: processor [023], superstep 2: waited 1 s for processor 1, stopped by a signal in superstep 2 \(SUPERSTEP_STALL_TIMEOUT=1\)$"
#include <bsp.h>

#include "check.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The state letter of /proc/PID/stat (after the name's last ')'). */
static char proc_state(pid_t pid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f)
        fclose(f);
    buf[n] = 0;
    const char *p = strrchr(buf, ')');
    return p && p[1] == ' ' ? p[2] : 0;
}

static void await_state(pid_t pid, char state)
{
    while (proc_state(pid) != state)
        nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
}

static void stop_self(bool say, const int *pids, int p)
{
    if (pids) {
        printf("pids");
        for (int q = 0; q < p; q++)
            printf(" %d", pids[q]);
        printf("\n");
    }
    if (say) {
        printf("stopping %d\n", (int)getpid());
        fflush(stdout);
    }
    raise(SIGSTOP);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: stopped self|resume|kill0|kill2");
    const char *mode = argv[1];
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), me = bsp_pid();
    int pids[p];
    bsp_push_reg(pids, (bsp_size_t)sizeof pids);
    bsp_sync();
    int mine = (int)getpid();
    for (int q = 0; q < p; q++)
        bsp_put(q, &mine, pids, me * (bsp_size_t)sizeof mine, (bsp_size_t)sizeof mine);
    bsp_sync(); /* superstep 2 */
    if (!strcmp(mode, "kill0")) {
        if (me == 0)
            stop_self(true, pids, p);
        if (me == 1) {
            await_state(pids[0], 'T');
            raise(SIGKILL);
        }
        if (me == 2)
            await_state(pids[1], 'Z');
    } else if (!strcmp(mode, "kill2")) {
        if (me == 0)
            stop_self(true, pids, p);
        if (me == 2) {
            await_state(pids[0], 'T');
            raise(SIGKILL);
        }
    } else if (me == 1) {
        stop_self(!strcmp(mode, "resume"), NULL, 0);
    } else {
        await_state(pids[1], 'T');
    }
    bsp_sync();
    if (me == 0)
        printf("done\n");
    bsp_end();
    return 0;
}
