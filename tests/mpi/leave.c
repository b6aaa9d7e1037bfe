/* leave.c - processor 2 ends in superstep 1 in a way no code of its own
 * sees or reports: killed by SIGKILL (raised on itself), terminated by a
 * SIGTERM that processor 1 sends it once it is in superstep 1 (a file
 * processor 2 makes after its first bsp_sync returned says so), or
 * _exit(0).  tests/mpi/leave.sh runs it under a plain mpirun and under
 * bsprun and checks the one line.
 * Usage: leave MODE (kill, term, _exit0; anything else: nobody leaves). */
// RUN: n=1 args="none" out="^done$"
#include <bsp.h>

#include "check.h"
#include "leave.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: leave MODE");
    const char *mode = argv[1];
    bsp_begin(bsp_nprocs());
    bool three = bsp_nprocs() > 2;
    if (three && bsp_pid() == 2) {
        pid_t me = getpid();
        bsp_send(1, NULL, &me, sizeof me);
    }
    bsp_sync(); /* superstep 1 */
    char ready[64]; /* processor 2 is in superstep 1: processor 1 may stop it */
    snprintf(ready, sizeof ready, "/tmp/superstep-leave-%d", (int)(bsp_pid() == 2 ? getpid() : 0));
    if (three && bsp_pid() == 2) {
        if (!strcmp(mode, "kill"))
            raise(SIGKILL);
        if (!strcmp(mode, "closefds")) /* every descriptor above 2, the runtime's and MPI's among them */
            syscall(SYS_close_range, 3u, ~0u, 0u);
        leave_as(mode);
        if (!strcmp(mode, "term")) {
            FILE *f = fopen(ready, "w");
            CHECK(f && fclose(f) == 0, "%s", ready);
        }
    }
    if (three && bsp_pid() == 1 && !strcmp(mode, "term")) {
        pid_t victim = 0;
        int n = 0, bytes = 0;
        bsp_qsize(&n, &bytes);
        CHECK(n == 1, "processor 2's pid");
        bsp_move(&victim, sizeof victim);
        snprintf(ready, sizeof ready, "/tmp/superstep-leave-%d", (int)victim);
        while (access(ready, F_OK) != 0)
            usleep(1000);
        unlink(ready);
        CHECK(kill(victim, SIGTERM) == 0, "kill");
    }
    bsp_sync();
    if (bsp_pid() == 0)
        printf("done\n");
    bsp_end();
    return 0;
}
