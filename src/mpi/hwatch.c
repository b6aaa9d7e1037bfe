/*
 * hwatch.c - a watchdog for the launcher of an Epiphany host program on the
 * mpi device, for failed runs only.
 *
 * When a job whose host has spawned kernels (MPI_Comm_spawn) fails, Open
 * MPI 4.1's mpirun kills every rank and then, in about 1 run of 4, hangs
 * for ever in its own PMIx_server_finalize (a lock taken by its progress
 * thread), every process of the job already gone: whoever waits for
 * mpirun waits for ever, though the diagnosis line was printed.  Which
 * process fails, and how (MPI_Abort in a kernel or in the host, a kernel
 * killed), makes no difference; nothing inside the job can help, because
 * nothing of the job is left.
 *
 * So at the first spawn the host leaves a small process outside the job
 * (its own session: mpirun does not stop it) that waits for the host to
 * end.  The host tells it how it ended: one byte written after every exit
 * handler of a process that exits with status 0 (MPI finalized), nothing
 * otherwise.  Whether the watchdog acts is decided by that report, never by
 * time:
 *   - the host ended with status 0: the watchdog ends at once; a healthy
 *     run is never watched, however long mpirun then takes;
 *   - the host ended otherwise (a non-zero status, killed by a signal or by
 *     mpirun stopping the job, _exit without finalizing): the run failed,
 *     and the watchdog waits for mpirun to end.  Only if mpirun is still
 *     there, with no child process left alive, when
 *     SUPERSTEP_MPIRUN_HANG_TIMEOUT seconds have passed since the host
 *     ended, is it the hang above: the watchdog prints one line saying that
 *     this time limit expired and kills mpirun (status 137 for whoever
 *     waits).  A limit is unavoidable there: a hung mpirun never answers.
 * The watchdog ends with mpirun or with a clean host, so nothing is left.
 *
 * The host has threads (MPI's) when it forks the watchdog: after fork the
 * children call only async-signal-safe functions (no stdio, no malloc;
 * every path and the line are made before the fork), and the watchdog
 * closes every descriptor it inherited but its own four (close_range).
 */
#include "host/host.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the watchdog needs, all made before the fork. */
struct watch {
    int host_fd;     /* pidfd of the host: readable when it has ended */
    int launcher_fd; /* pidfd of mpirun */
    int outcome_fd;  /* the host's report (one byte: it ended cleanly), non-blocking */
    int err_fd;      /* where the line goes: mpirun's own stderr */
    int limit_ms;    /* SUPERSTEP_MPIRUN_HANG_TIMEOUT */
    char task_dir[40];   /* "/proc/<mpirun>/task" */
    char line[320];      /* the line printed when the limit expires */
    size_t line_len;
    sigset_t all;
};

/* The host's side: the write end of the report, who may write it (not a
 * process the host forked), and the status it exits with. */
static int outcome_w = -1;
static pid_t armed_pid;
static int exit_status = -1;

/* ---- async-signal-safe helpers (the watchdog's side) ------------------- */

static char *put_str(char *at, const char *s)
{
    while (*s)
        *at++ = *s++;
    *at = 0;
    return at;
}

static char *put_num(char *at, unsigned long n)
{
    char digits[24];
    int k = 0;
    do
        digits[k++] = (char)('0' + n % 10);
    while (n /= 10);
    while (k)
        *at++ = digits[--k];
    *at = 0;
    return at;
}

/* The start of a file of /proc as a string ("" when it cannot be read);
 * false when it cannot be opened. */
static bool read_proc(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? 0 : read(fd, buf, size - 1);
    if (fd >= 0)
        close(fd);
    buf[n > 0 ? n : 0] = '\0';
    return fd >= 0;
}

/* Is the process running (neither a zombie nor gone)? */
static bool alive(unsigned long pid)
{
    char path[48], stat[256];
    put_str(put_num(put_str(path, "/proc/"), pid), "/stat");
    read_proc(path, stat, sizeof stat);
    const char *paren = strrchr(stat, ')'); /* "pid (comm) S ..." */
    return paren && paren[1] == ' ' && paren[2] != 'Z' && paren[2] != 'X';
}

/* Does one of the pids in the list (space-separated) run? */
static bool any_alive(const char *list)
{
    for (const char *s = list; *s;) {
        unsigned long pid = 0;
        bool digits = false;
        for (; *s >= '0' && *s <= '9'; s++, digits = true)
            pid = pid * 10 + (unsigned long)(*s - '0');
        if (digits && alive(pid))
            return true;
        while (*s && (*s < '0' || *s > '9'))
            s++;
    }
    return false;
}

/* Has mpirun a child that is not a zombie?  (Its threads' children files.)
 * What cannot be read counts as a live child: the watchdog kills only on
 * evidence. */
static bool has_live_child(const struct watch *w)
{
    int dfd = open(w->task_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0)
        return true;
    char buf[4096];
    bool live = false;
    long n;
    while (!live && (n = syscall(SYS_getdents64, dfd, buf, sizeof buf)) > 0) {
        for (long at = 0; at < n && !live;) {
            struct dirent64 *d = (struct dirent64 *)(buf + at);
            at += d->d_reclen;
            if (d->d_name[0] < '0' || d->d_name[0] > '9')
                continue;
            char kids[4096], path[sizeof w->task_dir + 300];
            put_str(put_str(put_str(put_str(path, w->task_dir), "/"), d->d_name), "/children");
            live = !read_proc(path, kids, sizeof kids) || any_alive(kids);
        }
    }
    close(dfd);
    return live;
}

/* Close every descriptor but the n in keep (distinct, sorted here). */
static void close_all_but(int *keep, int n)
{
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
            int t = keep[j];
            keep[j] = keep[j - 1];
            keep[j - 1] = t;
        }
    unsigned lo = 0;
    for (int i = 0; i <= n; i++) {
        unsigned hi = i < n ? (unsigned)keep[i] : ~0u;
        if (hi > lo && close_range(lo, hi - 1, 0) && errno == ENOSYS)
            for (unsigned fd = lo; fd < hi && fd < 65536; fd++) /* Linux < 5.9 */
                close((int)fd);
        lo = hi + 1;
    }
}

static void watch(const struct watch *w)
{
    struct pollfd host = { w->host_fd, POLLIN, 0 }, mpirun = { w->launcher_fd, POLLIN, 0 };
    while (poll(&host, 1, -1) < 0) /* the host's end */
        ;
    char ok;
    if (read(w->outcome_fd, &ok, 1) == 1)
        return; /* it ended with status 0: nothing failed, nothing to watch */
    for (;;) {
        int r = poll(&mpirun, 1, w->limit_ms);
        if (r > 0)
            return; /* mpirun ended */
        /* No child left, and mpirun still there after that look. */
        if (r == 0 && !has_live_child(w) && poll(&mpirun, 1, 0) == 0) {
            ssize_t unused = write(w->err_fd, w->line, w->line_len);
            (void)unused;
            syscall(SYS_pidfd_send_signal, w->launcher_fd, SIGKILL, NULL, 0);
            return;
        }
    }
}

/* The watchdog's process: out of the job's session, then out of the host's
 * children, holding nothing of the host's but what it watches. */
__attribute__((noreturn)) static void watchdog_main(struct watch *w)
{
    setsid();
    if (_Fork() != 0) /* async-signal-safe: no atfork handler runs */
        _exit(0);
    int keep[] = { w->host_fd, w->launcher_fd, w->outcome_fd, w->err_fd };
    close_all_but(keep, 4); /* also the host's "armed" pipe: the host goes on */
    sigprocmask(SIG_SETMASK, &w->all, NULL);
    watch(w);
    _exit(0);
}

/* ---- the host's side ----------------------------------------------------- */

/* Is pid a launcher this watchdog knows to hang (Open MPI's mpirun)? */
static bool is_mpirun(pid_t pid, char *comm, size_t size)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/comm", (int)pid);
    read_proc(path, comm, size);
    comm[strcspn(comm, "\n")] = 0;
    return !strcmp(comm, "mpirun") || !strcmp(comm, "mpiexec") || !strcmp(comm, "orterun");
}

static void note_status(int status, void *arg)
{
    (void)arg;
    exit_status = status;
}

/* Runs after every exit handler (mpi.c's MPI_Finalize included): the host
 * that got here with status 0 ended cleanly, and says so. */
__attribute__((destructor)) static void report_clean_end(void)
{
    if (outcome_w >= 0 && exit_status == 0 && getpid() == armed_pid)
        send(outcome_w, "0", 1, MSG_NOSIGNAL | MSG_DONTWAIT); /* no SIGPIPE if the watchdog is gone */
}

/* mpirun's stderr (the terminal, bsprun's pipe, a file), where the line is
 * seen; the host's own stderr passes through mpirun, which would be hung.
 * Its very description (pidfd_getfd: a file's offset is shared with the
 * shell's), else the same file opened again, else the host's stderr. */
static int launcher_stderr(pid_t launcher, int launcher_fd)
{
    int fd = (int)syscall(SYS_pidfd_getfd, launcher_fd, 2, 0);
    if (fd >= 0)
        return fd; /* close-on-exec set by the kernel */
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/fd/2", (int)launcher);
    fd = open(path, O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
    return fd >= 0 ? fd : fcntl(2, F_DUPFD_CLOEXEC, 0);
}

static bool fork_watchdog(struct watch *w)
{
    int armed[2]; /* end of file when the watchdog has closed what it inherited */
    if (pipe2(armed, O_CLOEXEC))
        return false;
    pid_t pid = fork();
    if (pid == 0) {
        close(armed[0]);
        watchdog_main(w);
    }
    close(armed[1]);
    if (pid > 0) {
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
            ;
        char c;
        while (read(armed[0], &c, 1) < 0 && errno == EINTR)
            ;
    }
    close(armed[0]);
    return pid > 0;
}

void hwatch_launcher(uint64_t limit_s)
{
    static bool armed;
    if (armed || !limit_s)
        return;
    armed = true;
    static struct watch w; /* static: the children use it after the fork */
    char comm[32];
    pid_t launcher = getppid();
    if (!is_mpirun(launcher, comm, sizeof comm))
        return; /* under orted (another node) or another MPI's launcher */
    int outcome[2] = { -1, -1 }; /* a socket pair: a report to a watchdog gone raises no SIGPIPE */
    w.host_fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    w.launcher_fd = (int)syscall(SYS_pidfd_open, launcher, 0);
    w.err_fd = w.launcher_fd < 0 ? -1 : launcher_stderr(launcher, w.launcher_fd);
    if (w.host_fd < 0 || w.launcher_fd < 0 || w.err_fd < 0 || getppid() != launcher ||
        socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, outcome))
        goto out;
    w.outcome_fd = outcome[0];
    w.limit_ms = limit_s < INT_MAX / 1000 ? (int)(limit_s * 1000) : INT_MAX;
    snprintf(w.task_dir, sizeof w.task_dir, "/proc/%d/task", (int)launcher);
    int n = snprintf(w.line, sizeof w.line,
                     "superstep: %s (pid %d) was still running %llu s or more after the host ended without success, with no "
                     "process of the job left: the time limit expired (SUPERSTEP_MPIRUN_HANG_TIMEOUT=%llu); the "
                     "watchdog killed it\n", comm, (int)launcher, (unsigned long long)limit_s,
                     (unsigned long long)limit_s);
    w.line_len = n < (int)sizeof w.line ? (size_t)n : sizeof w.line - 1;
    sigfillset(&w.all);
    if (fork_watchdog(&w)) {
        outcome_w = outcome[1];
        armed_pid = getpid();
        on_exit(note_status, NULL);
    } else {
        close(outcome[1]);
    }
out:
    if (outcome[0] >= 0)
        close(outcome[0]);
    if (w.host_fd >= 0)
        close(w.host_fd);
    if (w.launcher_fd >= 0)
        close(w.launcher_fd);
    if (w.err_fd >= 0)
        close(w.err_fd);
}
