/*
 * hwatch.c - a watchdog for the launcher of an Epiphany host program on the
 * mpi device.
 *
 * When a job whose host has spawned kernels (MPI_Comm_spawn) fails, Open
 * MPI 4.1's mpirun kills every rank and then, in about 1 run of 4, hangs
 * for ever in its own PMIx_server_finalize (a lock taken by its progress
 * thread), every process of the job already gone: whoever waits for
 * mpirun waits for ever, though the diagnosis line was printed.  Which
 * process fails, and how (MPI_Abort in a kernel or in the host, a kernel
 * killed), makes no difference; nothing inside the job can help, because
 * nothing of the job is left.  So at the first spawn the host leaves a
 * small process outside the job (its own session: mpirun does not stop
 * it) that waits for the host to end and then for mpirun to end; if mpirun
 * is still there GRACE_S seconds after the host, with no child process left
 * alive, it is stuck, and the watchdog kills it (status 137 for whoever
 * waits; the job's line is already printed).  The watchdog ends with
 * mpirun, so a run that ends normally leaves nothing behind.
 */
#include "host/host.h"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define GRACE_S 5

/* The start of a file of /proc as a string ("" when it cannot be read). */
static void read_proc(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? 0 : read(fd, buf, size - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
}

/* Is pid a launcher this watchdog knows to hang (Open MPI's mpirun)? */
static bool is_mpirun(pid_t pid)
{
    char path[64], comm[32];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    read_proc(path, comm, sizeof comm);
    return !strcmp(comm, "mpirun\n") || !strcmp(comm, "mpiexec\n") || !strcmp(comm, "orterun\n");
}

/* Is the process running (neither a zombie nor gone)? */
static bool alive(long pid)
{
    char path[64], stat[256];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    read_proc(path, stat, sizeof stat);
    const char *paren = strrchr(stat, ')'); /* "pid (comm) S ..." */
    return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/* Has pid a child that is not a zombie?  (Its threads' children files.) */
static bool has_live_child(pid_t pid)
{
    char path[64], buf[4096];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return false;
    bool live = false;
    long n;
    while (!live && (n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
        for (long at = 0; at < n && !live;) {
            struct dirent64 *d = (struct dirent64 *)(buf + at);
            at += d->d_reclen;
            if (d->d_name[0] < '0' || d->d_name[0] > '9')
                continue;
            char kids[4096], cpath[352];
            snprintf(cpath, sizeof cpath, "/proc/%d/task/%s/children", (int)pid, d->d_name);
            read_proc(cpath, kids, sizeof kids);
            for (char *s = kids, *end; *s; s = end) {
                long child = strtol(s, &end, 10);
                if (end == s)
                    break;
                live = live || alive(child);
            }
        }
    }
    close(dfd);
    return live;
}

static void watch(int host_fd, int launcher_fd, pid_t launcher)
{
    struct pollfd host = { host_fd, POLLIN, 0 }, mpirun = { launcher_fd, POLLIN, 0 };
    while (poll(&host, 1, -1) < 0) /* the host's end */
        ;
    for (;;) {
        int r = poll(&mpirun, 1, GRACE_S * 1000);
        if (r > 0)
            return; /* mpirun ended */
        if (r == 0 && !has_live_child(launcher)) {
            syscall(SYS_pidfd_send_signal, launcher_fd, SIGKILL, NULL, 0);
            return;
        }
    }
}

void hwatch_launcher(void)
{
    static bool armed;
    if (armed)
        return;
    armed = true;
    pid_t launcher = getppid();
    if (!is_mpirun(launcher))
        return; /* under orted (another node) or another MPI's launcher */
    int host_fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    int launcher_fd = (int)syscall(SYS_pidfd_open, launcher, 0);
    if (host_fd < 0 || launcher_fd < 0 || getppid() != launcher)
        goto out;
    pid_t pid = fork();
    if (pid == 0) { /* out of the job's session, then out of the host's children */
        setsid();
        if (fork() != 0)
            _exit(0);
        for (int fd = 0; fd < 1024; fd++)
            if (fd != host_fd && fd != launcher_fd)
                close(fd);
        sigset_t all;
        sigfillset(&all);
        sigprocmask(SIG_SETMASK, &all, NULL);
        watch(host_fd, launcher_fd, launcher);
        _exit(0);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
out:
    if (host_fd >= 0)
        close(host_fd);
    if (launcher_fd >= 0)
        close(launcher_fd);
}
