/* leave0.c - processor 0 (BSPlib) or node 1 (mp.h) leaves in a way no code
 * of its own can report; leave0.sh checks what the supervisor says.
 * Usage: leave0 API MODE STEP, API bsp, mp, or bsp_nochld (bsp in a program
 * that ignores SIGCHLD); in superstep (round) STEP:
 *   _exit0:  processor 0 calls _exit(0);
 *   exec:    processor 0 replaces itself with /bin/true;
 *   execlong: processor 0 replaces itself with a long sleep;
 *   kill:    processor 1 sends SIGKILL to processor 0 (its parent) while
 *            processor 0 waits in bsp_sync (mp_sync);
 *   wait:    processor 0 prints its pid and waits in bsp_sync for a signal;
 * and after a clean end (the supervisor mirrors the status):
 *   after_exit7:  exit(7) after bsp_end / mp_quit;
 *   after_exec:   exec of /bin/false after bsp_end;
 *   after_term:   raise(SIGTERM) after bsp_end;
 *   twice:   two jobs one after the other (bsp only), then "done";
 *   pid:     getpid() before and after bsp_begin: "pid changed" expected. */
// RUN: n=3 args="bsp twice 2" out="^done$" nompi="the supervisor is the shm device's (mpirun is the supervisor on mpi)"
#include <bsp.h>
#include <mp.h>

#include "check.h"
#include "leave.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *mode;
static int is_bsp;

static void sync_all(void)
{
    if (is_bsp)
        bsp_sync();
    else
        CHECK(mp_sync(), "mp_sync");
}

static void leave(void)
{
    leave_as(mode);
    if (!strcmp(mode, "wait")) {
        printf("pid %d\n", (int)getpid());
        fflush(stdout);
    }
}

static void run(int step)
{
    int me = is_bsp ? (int)bsp_pid() : mp_this_pe() - 1;
    for (int s = 0; s < step; s++)
        sync_all();
    if (me == 0)
        leave();
    if (me == 1 && !strcmp(mode, "kill")) {
        usleep(20000); /* processor 0 is in its sync by now, or soon */
        kill(getppid(), SIGKILL);
    }
    if (!strcmp(mode, "wait") && me != 0)
        sleep(60); /* processor 0 waits in the sync below for the signal */
    sync_all();
}

static void after(void)
{
    if (!strcmp(mode, "after_exit7"))
        exit(7);
    if (!strcmp(mode, "after_exec"))
        execl("/bin/false", "false", (char *)NULL);
    if (!strcmp(mode, "after_term"))
        raise(SIGTERM);
}

int main(int argc, char **argv)
{
    CHECK(argc == 4, "usage: leave0 bsp|mp MODE STEP");
    is_bsp = strncmp(argv[1], "bsp", 3) == 0;
    if (!strcmp(argv[1], "bsp_nochld"))
        signal(SIGCHLD, SIG_IGN);
    mode = argv[2];
    int step = atoi(argv[3]);
    pid_t before = getpid();
    if (is_bsp) {
        for (int job = 0; job < (strcmp(mode, "twice") ? 1 : 2); job++) {
            bsp_begin(bsp_nprocs());
            run(step);
            bsp_end();
        }
    } else {
        CHECK(mp_start(&argc, &argv), "mp_start");
        int main_node = mp_is_main();
        run(step);
        if (main_node) {
            CHECK(mp_quit(0), "mp_quit");
        } else {
            char buf[8];
            int tag, from;
            mp_recv(sizeof buf, buf, &tag, &from);
            mp_quit(0);
            return 0;
        }
    }
    after();
    if (!strcmp(mode, "pid"))
        printf(getpid() != before ? "pid changed\n" : "pid kept\n");
    printf("done\n");
    return 0;
}
