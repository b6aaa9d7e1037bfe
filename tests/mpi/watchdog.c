/* watchdog.c - the launcher watchdog of Epiphany hosts on mpi (src/host/
 * hwatch.c), on its own: arm it, as the host does at its first spawn, and
 * end as asked.  tests/mpi/watchdog.sh runs it under a stand-in for mpirun.
 * Usage: watchdog [MODE [LIMIT]]  (prints "armed")
 *   ok      end with status 0 (a healthy host)
 *   fail    end with status 3 (a failed host)
 *   kill    be killed by SIGKILL (a host mpirun stopped)
 *   fds     first open descriptor 1500 (kept across fork), then, armed,
 *           list the watchdog's descriptors ("fds N N ..."; hwatch_launcher
 *           returns once the watchdog has closed what it inherited)
 * LIMIT: the seconds given to hwatch_launcher (default 5). */
// RUN: n=1 out="^armed$"
#include "host/host.h"

#include <dirent.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* The watchdog: the other process running this program's file (this
 * case's own copy, tests/mpi/watchdog.sh). */
static pid_t find_watchdog(void)
{
    char self[PATH_MAX], exe[PATH_MAX], path[64];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n < 0)
        return -1;
    self[n] = 0;
    DIR *d = opendir("/proc");
    pid_t found = -1;
    for (struct dirent *e; d && (e = readdir(d));) {
        pid_t pid = (pid_t)atoi(e->d_name);
        if (pid <= 0 || pid == getpid())
            continue;
        snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
        ssize_t m = readlink(path, exe, sizeof exe - 1);
        if (m == n && !memcmp(exe, self, (size_t)n))
            found = pid;
    }
    if (d)
        closedir(d);
    return found;
}

static int list_fds(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
    DIR *d = opendir(path);
    if (!d) {
        perror(path);
        return 1;
    }
    printf("fds");
    for (struct dirent *e; (e = readdir(d));)
        if (e->d_name[0] != '.')
            printf(" %s", e->d_name);
    printf("\n");
    closedir(d);
    return 0;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    uint64_t limit = argc > 2 ? strtoull(argv[2], NULL, 10) : 5;
    if (!strcmp(mode, "fds")) {
        struct rlimit r;
        getrlimit(RLIMIT_NOFILE, &r);
        r.rlim_cur = r.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &r) || dup2(1, 1500) != 1500) {
            perror("descriptor 1500");
            return 1;
        }
    }
    hwatch_launcher(limit);
    printf("armed\n");
    fflush(stdout);
    if (!strcmp(mode, "fds")) {
        pid_t w = find_watchdog();
        if (w < 0) {
            fprintf(stderr, "no watchdog found\n");
            return 1;
        }
        return list_fds(w);
    }
    if (!strcmp(mode, "fail"))
        return 3;
    if (!strcmp(mode, "kill"))
        raise(SIGKILL);
    return 0;
}
