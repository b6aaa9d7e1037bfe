/* lifecycle.c - the process lifecycle rules of a job (docs/architecture.md,
 * "Process lifecycle"), one mode per rule:
 *   fork_exit:  processor 0 forks helpers that call exit(0) and abort():
 *               the job is not failed or killed by them;
 *   chain:      processor 0 has its own SIGSEGV handler and faults: the
 *               runtime reports it, then the program's handler runs;
 *   restore:    the program's handlers (SIGSEGV, SIGTERM) are its own again
 *               after bsp_end;
 *   term0:      processor 0 gets SIGTERM: it is reported;
 *   exec1:      processor 1 replaces itself with a long-running program:
 *               reported, the job ends;
 *   exec1short: the same with a program that ends at once: still an exec;
 *   fork_exec1: processor 1 forks a helper that lives on, then execs: the
 *               helper must not hold processor 1's exec pipe open;
 *   renamed1:   processor 1 gives itself another name (PR_SET_NAME) and
 *               calls _exit(3): an exit with its status, not an exec;
 *   overflow0:  processor 0 overflows its stack: reported;
 *   sigchld:    the program ignores SIGCHLD; processor 1's signal is still
 *               reported with its status;
 *   hp_killed:  processor 1 dies while processor 0 transfers into it: the
 *               death is reported, not the transfer;
 *   hp_order:   many hp puts to one place in one superstep: the last wins;
 *   cloexec:    every descriptor the runtime opened is close-on-exec.
 * Usage: lifecycle MODE */
// RUN: n=2 args="fork_exit" out="^done$"
// RUN: n=2 args="chain" fail="processor 0 killed by signal 11 \(SIGSEGV\) in superstep 1"
// RUN: n=2 args="chain" fail="^own handler ran$"
// RUN: n=2 args="restore" out="^restored$"
// RUN: n=3 args="term0" fail="processor 0 killed by signal 15 \(SIGTERM\) in superstep 1"
// RUN: n=3 args="exec1" timeout=30 fail="processor 1 called exec in superstep 1 without calling bsp_end"
// RUN: n=3 args="fork_exec1" timeout=30 fail="processor 1 called exec in superstep 1 without calling bsp_end"
// RUN: n=3 args="exec1short" timeout=30 fail="processor 1 called exec in superstep 1 without calling bsp_end"
// RUN: n=3 args="renamed1" timeout=30 fail="^superstep: processor 1 exited with status 3 in superstep 1 without calling bsp_end$"
// RUN: n=2 args="overflow0" fail="processor 0 killed by signal 11 \(SIGSEGV\)"
// RUN: n=3 args="sigchld" fail="processor 1 killed by signal 11 \(SIGSEGV\) in superstep 1"
// RUN: n=3 args="hp_killed" fail="processor 1 killed by signal 9 \(SIGKILL\)"
// RUN: n=3 args="hp_order" out="^last wins$"
// RUN: n=3 args="cloexec" out="^all close-on-exec$"
#include <bsp.h>

#include "check.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void own_handler(int sig)
{
    (void)sig;
    static const char msg[] = "own handler ran\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(7);
}

static volatile long depth_limit = -1; /* never reached: the stack ends first */

static int recurse(volatile char *prev, long depth)
{
    volatile char frame[4096];
    frame[0] = prev ? prev[0] : 1;
    if (depth == depth_limit)
        return frame[0];
    return recurse(frame, depth + 1) + frame[100];
}

static void fork_exit(void)
{
    bsp_sync();
    if (bsp_pid() == 0) {
        pid_t a = fork();
        if (a == 0)
            exit(0); /* runs the program's exit hooks, in a process that is not processor 0 */
        pid_t b = fork();
        if (b == 0)
            abort();
        int st;
        CHECK(waitpid(a, &st, 0) == a && WIFEXITED(st) && WEXITSTATUS(st) == 0, "helper exit status %d", st);
        CHECK(waitpid(b, &st, 0) == b && WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT, "helper abort status %d", st);
    }
    bsp_sync();
    bsp_end();
    printf("done\n");
}

static bool open_before[4096]; /* descriptors the program had before bsp_begin */

static void note_open(bool *open)
{
    DIR *d = opendir("/proc/self/fd");
    CHECK(d, "opendir");
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] != '.' && fd != dirfd(d) && fd < 4096)
            open[fd] = true;
    }
    closedir(d);
}

static void cloexec(void)
{
    DIR *d = opendir("/proc/self/fd");
    CHECK(d, "opendir");
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] == '.' || fd == dirfd(d) || (fd < 4096 && open_before[fd]))
            continue;
        int flags = fcntl(fd, F_GETFD);
        CHECK(flags >= 0 && (flags & FD_CLOEXEC), "processor %u: descriptor %d is not close-on-exec", bsp_pid(), fd);
    }
    closedir(d);
    bsp_sync();
    if (bsp_pid() == 0)
        printf("all close-on-exec\n");
    bsp_end();
}

static void restore(void)
{
    signal(SIGSEGV, own_handler);
    signal(SIGTERM, own_handler);
    bsp_begin(bsp_nprocs());
    bsp_sync();
    bsp_end();
    struct sigaction segv, term;
    sigaction(SIGSEGV, NULL, &segv);
    sigaction(SIGTERM, NULL, &term);
    CHECK(segv.sa_handler == own_handler && term.sa_handler == own_handler, "the program's handlers are gone");
    printf("restored\n");
}

static void hp_order(void)
{
    static int target[4];
    bsp_push_reg(target, sizeof target);
    bsp_sync();
    if (bsp_pid() == 0) {
        for (int i = 1; i <= 3000; i++) {
            static int vals[3001];
            vals[i] = i;
            /* interleave destinations so that a sort by processor moves them */
            bsp_hpput(1 + i % 2, &vals[i], target, 0, sizeof(int));
            bsp_hpput(1, &vals[i], target, sizeof(int), sizeof(int));
        }
    }
    bsp_sync();
    if (bsp_pid() == 1)
        CHECK(target[0] == 3000 && target[1] == 3000, "processor 1 holds %d and %d", target[0], target[1]);
    if (bsp_pid() == 2)
        CHECK(target[0] == 2999, "processor 2 holds %d", target[0]);
    bsp_sync();
    if (bsp_pid() == 0)
        printf("last wins\n");
    bsp_end();
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: lifecycle MODE");
    const char *m = argv[1];
    if (!strcmp(m, "restore")) {
        restore();
        return 0;
    }
    if (!strcmp(m, "chain"))
        signal(SIGSEGV, own_handler);
    if (!strcmp(m, "sigchld"))
        signal(SIGCHLD, SIG_IGN);
    if (!strcmp(m, "cloexec"))
        note_open(open_before);
    bsp_begin(bsp_nprocs());
    if (!strcmp(m, "fork_exit")) {
        fork_exit();
        return 0;
    }
    if (!strcmp(m, "cloexec")) {
        cloexec();
        return 0;
    }
    if (!strcmp(m, "hp_order")) {
        hp_order();
        return 0;
    }
    static char big[64 << 20];
    bsp_push_reg(big, sizeof big);
    bsp_sync();
    unsigned me = bsp_pid();
    if (!strcmp(m, "chain") && me == 0)
    {
        volatile uintptr_t bad = 8;
        *(volatile int *)bad = 1;
    }
    if (!strcmp(m, "term0") && me == 0)
        raise(SIGTERM);
    if (!strcmp(m, "exec1") && me == 1)
        execlp("sleep", "sleep", "1000", (char *)NULL);
    if (!strcmp(m, "fork_exec1") && me == 1) {
        if (fork() == 0) { /* a helper that lives until processor 1 is gone */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            sleep(60);
            _exit(0);
        }
        execlp("sleep", "sleep", "60", (char *)NULL);
    }
    if (!strcmp(m, "exec1short") && me == 1)
        execl("/bin/true", "true", (char *)NULL);
    if (!strcmp(m, "renamed1") && me == 1) { /* as a program may name its threads: an exit, not an exec */
        prctl(PR_SET_NAME, "renamed");
        _exit(3);
    }
    if (!strcmp(m, "overflow0") && me == 0)
        recurse(NULL, 0);
    if (!strcmp(m, "sigchld") && me == 1)
        raise(SIGSEGV);
    if (!strcmp(m, "hp_killed")) {
        /* Processor 2 has a helper kill processor 1 while processor 0's
         * 1 GiB of hp puts into it are under way (after the barrier). */
        pid_t victim = getpid();
        if (me == 1)
            bsp_put(2, &victim, big, 0, sizeof victim);
        bsp_sync();
        if (me == 2 && fork() == 0) {
            struct timespec ts = { 0, 50 * 1000 * 1000 };
            nanosleep(&ts, NULL);
            kill(*(pid_t *)big, SIGKILL);
            _exit(0);
        }
        if (me == 0)
            for (int i = 0; i < 16; i++)
                bsp_hpput(1, big, big, 0, sizeof big);
    }
    bsp_sync();
    bsp_sync();
    bsp_end();
    return 0;
}
