/* watcher_gone.c - a rank whose watcher (src/mpi/mpi_watch.c) is gone,
 * killed by somebody else, still runs and ends its job cleanly: its notes
 * to the watcher must not raise SIGPIPE (status 141 before the fix).
 * Each rank finds its own watcher, kills it with SIGKILL, and then does
 * supersteps and bsp_end (which sends the watcher its last note).  The
 * watcher is a fork of the rank from before MPI_Init, so it runs the same
 * executable with a byte-identical environment (no other rank's is: the
 * launcher gives each its own rank variables), and it leads a process
 * group of its own (Open MPI) or is in the rank's (MPICH's Hydra, which
 * gives the rank PMI_FD or PMI_PORT). */
// RUN: n=2 cmd="$MPIRUN -n 2 $BIN" out="^done$" timeout=120
// RUN: n=3 cmd="$MPIRUN -n 3 $BIN" out="^done$" timeout=120
#include <bsp.h>

#include "check.h"

#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

/* The whole of /proc/PID/NAME (at most size bytes); -1 when unreadable. */
static long slurp(pid_t pid, const char *name, char *buf, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", (int)pid, name);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, size, f);
    fclose(f);
    return (long)n;
}

static bool same_exe(pid_t a, pid_t b)
{
    char pa[64], pb[64], ea[4096], eb[4096];
    snprintf(pa, sizeof pa, "/proc/%d/exe", (int)a);
    snprintf(pb, sizeof pb, "/proc/%d/exe", (int)b);
    ssize_t na = readlink(pa, ea, sizeof ea), nb = readlink(pb, eb, sizeof eb);
    return na > 0 && na == nb && !memcmp(ea, eb, (size_t)na);
}

static pid_t find_watcher(void)
{
    static char mine[1 << 16], theirs[1 << 16];
    pid_t me = getpid();
    long n = slurp(me, "environ", mine, sizeof mine);
    CHECK(n > 0, "cannot read my own environment");
    DIR *d = opendir("/proc");
    CHECK(d, "cannot list /proc");
    pid_t found = 0;
    bool pmi = getenv("PMI_FD") || getenv("PMI_PORT");
    for (struct dirent *e; (e = readdir(d));) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid <= 0 || pid == me || getpgid(pid) != (pmi ? getpgrp() : pid) || !same_exe(pid, me))
            continue;
        if (slurp(pid, "environ", theirs, sizeof theirs) == n && !memcmp(mine, theirs, (size_t)n)) {
            CHECK(!found, "two processes look like my watcher: %d and %d", (int)found, (int)pid);
            found = pid;
        }
    }
    closedir(d);
    return found;
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
