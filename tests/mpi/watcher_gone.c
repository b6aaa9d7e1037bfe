/* watcher_gone.c - a rank whose watcher (src/mpi/mpi_watch.c) is gone,
 * killed by somebody else, still runs and ends its job cleanly: its notes
 * to the watcher must not raise SIGPIPE (status 141 before the fix).
 * Each rank finds its own watcher (its child, in its process group), kills
 * it with SIGKILL, and then does supersteps and bsp_end (which sends the
 * watcher its last note). */
// RUN: n=2 cmd="$MPIRUN -n 2 $BIN" out="^done$" timeout=120
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN" out="^done$" timeout=120
#include <bsp.h>

#include "check.h"

#include <signal.h>
#include <stdio.h>
#include <sys/types.h>
#include <unistd.h>

/* The rank's watcher: its one child (the program forks none), in its
 * process group (inside the job: the launcher's stop of the group ends
 * it). */
static pid_t find_watcher(void)
{
    char path[64], kids[256];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int)getpid());
    FILE *f = fopen(path, "r");
    CHECK(f, "cannot read %s", path);
    size_t n = fread(kids, 1, sizeof kids - 1, f);
    fclose(f);
    kids[n] = 0;
    int pid = 0, more = 0;
    CHECK(sscanf(kids, "%d %d", &pid, &more) == 1, "not one child: '%s'", kids);
    CHECK(getpgid(pid) == getpgrp(), "the watcher %d is not in the rank's process group", pid);
    return (pid_t)pid;
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    pid_t w = find_watcher();
    CHECK(w > 0, "processor %d: no watcher found", (int)bsp_pid());
    CHECK(kill(w, SIGKILL) == 0, "processor %d: cannot kill the watcher %d", (int)bsp_pid(), (int)w);
    for (int s = 0; s < 5; s++)
        bsp_sync();
    int p = (int)bsp_pid();
    bsp_end();
    if (p == 0)
        printf("done\n");
    return 0;
}
