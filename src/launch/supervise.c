/*
 * supervise.c - the supervisor: the original process waits outside the job
 * for the worker (processor 0, node 1, a host) and ends as it ended, or names
 * an exit that nothing inside the job could report.
 *
 * After the fork only async-signal-safe calls run in the supervisor (the
 * program may have had threads): no stdio, no malloc, no atexit handler
 * (it leaves by _exit or by its own signal), and no code of the program's.
 */
#include "launch/supervise.h"
#include "launch/launch_impl.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef CLOSE_RANGE_UNSHARE
#define CLOSE_RANGE_UNSHARE 2
#endif

static struct watch_page *page; /* NULL: not supervised */
static pid_t worker_pid;        /* the worker this page belongs to */
static int hang_w = -1;         /* worker's end of the exec pipe (close-on-exec) */

/* ---- the page and its line: async-signal-safe ------------------------------ */

struct watch_page *supervise_page_new(void)
{
    struct watch_page *pg = mmap(NULL, sizeof *pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    return pg == MAP_FAILED ? NULL : pg;
}

_Atomic uint64_t *supervise_page_arm(struct watch_page *pg, const char *who, const char *end_call,
                                     const char *where, bool steps)
{
    launch_put_str(pg->who, 0, sizeof pg->who, who);
    launch_put_str(pg->end_call, 0, sizeof pg->end_call, end_call);
    launch_put_str(pg->where, 0, sizeof pg->where, where);
    pg->steps = steps;
    atomic_store(&pg->step, 0);
    atomic_store(&pg->state, WATCH_ARMED);
    return &pg->step;
}

void supervise_report(const char *who, const char *what, bool steps, uint64_t step, const char *where,
                      const char *end_call)
{
    char line[1024];
    size_t at = launch_put_str(line, 0, sizeof line, "superstep: ");
    at = launch_put_str(line, at, sizeof line, who);
    at = launch_put_str(line, at, sizeof line, " ");
    at = launch_put_str(line, at, sizeof line, what);
    if (steps) {
        at = launch_put_str(line, at, sizeof line, " in superstep ");
        at = launch_put_u64(line, at, sizeof line, step);
    } else {
        at = launch_put_str(line, at, sizeof line, where);
    }
    if (end_call && end_call[0]) {
        at = launch_put_str(line, at, sizeof line, " without calling ");
        at = launch_put_str(line, at, sizeof line, end_call);
    }
    at = launch_put_str(line, at, sizeof line, "\n");
    (void)!write(2, line, at);
}

void supervise_page_report(const struct watch_page *pg, const char *what, bool without)
{
    supervise_report(pg->who, what, pg->steps, atomic_load(&pg->step), pg->where, without ? pg->end_call : NULL);
}

void supervise_page_report_end(const struct watch_page *pg, int status)
{
    char what[96];
    if (status >= 0 && WIFSIGNALED(status)) {
        put_killed(what, 0, sizeof what, WTERMSIG(status));
        supervise_page_report(pg, what, false);
    } else if (status >= 0) {
        size_t at = launch_put_str(what, 0, sizeof what, "exited with status ");
        launch_put_u64(what, at, sizeof what, (uint64_t)WEXITSTATUS(status));
        supervise_page_report(pg, what, true);
    } else {
        supervise_page_report(pg, "ended (how is unknown: its launcher reaped it first)", true);
    }
}

/* ---- the supervisor ------------------------------------------------------- */

static pid_t worker;

/* A termination request sent to the supervisor goes to the worker (which
 * reports it and ends); one the terminal sent to the whole foreground
 * process group (SI_KERNEL) has reached the worker already. */
static void forward(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    int saved = errno;
    if (!si || si->si_code != SI_KERNEL)
        kill(worker, sig);
    errno = saved;
}

/* Every signal handler the program installed goes back to the default
 * action; what it ignores stays ignored. */
static void drop_handlers(void)
{
    struct sigaction dfl, old;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &old) != 0)
            continue;
        if ((old.sa_flags & SA_SIGINFO) || (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN))
            sigaction(sig, &dfl, NULL);
    }
}

/* None of the program's handlers may run here; what it ignores stays
 * ignored (a job stopped by Ctrl-Z stops here too, as the shell expects). */
static void own_signals(void)
{
    drop_handlers();
    signal(SIGCHLD, SIG_DFL); /* the worker's status must not be reaped away */
    signal(SIGPIPE, SIG_IGN);
    struct sigaction fw;
    memset(&fw, 0, sizeof fw);
    fw.sa_sigaction = forward;
    fw.sa_flags = SA_SIGINFO | SA_RESTART;
    sigfillset(&fw.sa_mask);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        sigaction(stop_signals[i], &fw, NULL); /* those processor 0 would catch */
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

void supervise_close_all_but(const int *keep, int n)
{
    unsigned lo = 3;
    for (;;) { /* the lowest kept descriptor at or above lo, then the range below it */
        int next = -1;
        for (int i = 0; i < n; i++)
            if (keep[i] >= (int)lo && (next < 0 || keep[i] < next))
                next = keep[i];
        if (next < 0) {
            syscall(SYS_close_range, lo, ~0u, 0u);
            return;
        }
        if ((unsigned)next > lo)
            syscall(SYS_close_range, lo, (unsigned)next - 1, 0u);
        lo = (unsigned)next + 1;
    }
}

/* Die as the worker died (the shell sees the same signal), without a core
 * file of the supervisor's own. */
static void die_by(int sig) __attribute__((noreturn));
static void die_by(int sig)
{
    struct rlimit none = { 0, 0 };
    setrlimit(RLIMIT_CORE, &none);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    kill(getpid(), sig);
    _exit(128 + sig);
}

/* PF_FORKNOEXEC of the kernel's task flags (include/linux/sched.h): set in
 * a forked process, cleared by its exec. */
#define TASK_FORKNOEXEC 0x00000040ul

bool supervise_proc_stat(pid_t pid, int field, char *state, uint64_t *value)
{
    char path[64], buf[1024];
    size_t at = launch_put_str(path, 0, sizeof path, "/proc/");
    at = launch_put_u64(path, at, sizeof path, (uint64_t)pid);
    launch_put_str(path, at, sizeof path, "/stat");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (fd >= 0)
        close(fd);
    if (n <= 0)
        return false;
    buf[n] = 0;
    const char *p = NULL; /* after the name, which may hold spaces, parentheses and newlines */
    for (ssize_t i = 0; i < n; i++)
        if (buf[i] == ')')
            p = buf + i + 1;
    if (!p || p[0] != ' ' || !p[1])
        return false;
    *state = p[1];
    for (int f = 3; f < field; f++) { /* p: the space before field f */
        p++;
        while (*p && *p != ' ')
            p++;
        if (!*p)
            return false;
    }
    p++;
    if (*p < '0' || *p > '9')
        return false;
    uint64_t v = 0;
    while (*p >= '0' && *p <= '9')
        v = v * 10 + (uint64_t)(*p++ - '0');
    *value = v;
    return true;
}

int supervise_zombie_status(pid_t pid)
{
    char state;
    uint64_t status;
    return supervise_proc_stat(pid, 52, &state, &status) && (state == 'Z' || state == 'X') ? (int)status : -1;
}

/* exec clears PF_FORKNOEXEC before it closes the close-on-exec
 * descriptors, and a zombie keeps its flags: whether the process is still
 * running its exec'd program, ended by now, or exiting without an exec. */
bool supervise_execd(pid_t pid)
{
    char state;
    uint64_t flags;
    return supervise_proc_stat(pid, 9, &state, &flags) && !(flags & TASK_FORKNOEXEC);
}

/* The worker ended: report it if a job was running that nobody reported or
 * ended, then end as it did (an exit without its job's end: status 1). */
static void settle(const siginfo_t *si) __attribute__((noreturn));
static void settle(const siginfo_t *si)
{
    bool killed = si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED;
    bool armed = atomic_load(&page->state) == WATCH_ARMED;
    if (armed) /* as a wait status */
        supervise_page_report_end(page, killed ? si->si_status : (si->si_status & 0xff) << 8);
    if (killed)
        die_by(si->si_status);
    _exit(armed ? 1 : si->si_status);
}

static void supervisor_main(int hang_r) __attribute__((noreturn));
static void supervisor_main(int hang_r)
{
    own_signals();
    int pidfd = (int)syscall(SYS_pidfd_open, worker, 0);
    int keep[] = { pidfd, hang_r };
    supervise_close_all_but(keep, 2);
    siginfo_t si;
    for (;;) {
        struct pollfd pfd[2] = { { pidfd, POLLIN, 0 }, { hang_r, POLLIN, 0 } };
        if (pidfd >= 0 && poll(pfd, hang_r >= 0 ? 2 : 1, -1) < 0)
            continue;
        /* The exec pipe first, also when the worker has ended meanwhile: the
         * kernel's state, not the order of the wake-ups, tells exec from exit. */
        if (hang_r >= 0 && pfd[1].revents) {
            close(hang_r);
            hang_r = -1;
            if (atomic_load(&page->state) == WATCH_ARMED && supervise_execd(worker)) {
                supervise_page_report(page, "called exec", true);
                kill(worker, SIGKILL); /* its processors die with it */
                waitpid(worker, NULL, 0);
                _exit(1);
            }
            continue;
        }
        memset(&si, 0, sizeof si);
        if (waitid(P_PID, (id_t)worker, &si, WEXITED) == 0)
            settle(&si);
        if (errno != EINTR)
            _exit(1); /* cannot happen: the worker is our child */
    }
}

/* ---- the worker's side ----------------------------------------------------- */

/* Does the process run other threads than this one?  /proc unreadable: no. */
static bool other_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    if (!d)
        return false;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += e->d_name[0] != '.';
    closedir(d);
    return n > 1;
}

int supervise_start(void)
{
    static bool unsupervised; /* decided at the first job: stays so */
    if ((page && worker_pid == getpid()) || (unsupervised && !page))
        return 0;
    /* A fork keeps only the calling thread: the program's other threads
     * would go on running its code in the supervisor (which must run none)
     * and be missing from processor 0, and a job started from a thread
     * other than main would lose main's continuation (its exit status, what
     * it prints after the join).  Such a process stays processor 0 itself,
     * unsupervised: tests/core/thread_start.c. */
    if (!page && other_threads()) {
        unsupervised = true;
        return 0;
    }
    if (page) { /* a process the worker forked starts its own job */
        if (hang_w >= 0)
            close(hang_w);
        hang_w = -1;
        page = NULL;
    }
    struct watch_page *pg = supervise_page_new();
    if (!pg)
        return -errno; /* mmap's */
    int hang[2];
    if (pipe2(hang, O_CLOEXEC) != 0) {
        int rc = -errno;
        munmap(pg, sizeof *pg);
        return rc;
    }
    fflush(NULL); /* else buffered output would be written by both */
    /* A worker that ended at once must not be reaped away by the kernel
     * (SIGCHLD ignored) before the supervisor has set its own action. */
    struct sigaction program_chld, dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigaction(SIGCHLD, &dfl, &program_chld);
    pid_t sup = getpid();
    pid_t w = fork();
    if (w < 0) {
        int rc = -errno;
        sigaction(SIGCHLD, &program_chld, NULL);
        close(hang[0]);
        close(hang[1]);
        munmap(pg, sizeof *pg);
        return rc;
    }
    if (w > 0) {
        page = pg;
        worker = w;
        close(hang[1]);
        supervisor_main(hang[0]);
    }
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* nothing outlives the supervisor */
    if (getppid() != sup)
        _exit(1);
    sigaction(SIGCHLD, &program_chld, NULL);
    close(hang[0]);
    hang_w = hang[1];
    page = pg;
    worker_pid = getpid();
    return 0;
}

_Atomic uint64_t *supervise_job(const char *who, const char *end_call, const char *where, bool steps)
{
    return page && worker_pid == getpid() ? supervise_page_arm(page, who, end_call, where, steps) : NULL;
}

void supervise_settled(void)
{
    if (page)
        atomic_store(&page->state, WATCH_SETTLED);
}

void supervise_forget(void)
{
    if (hang_w >= 0)
        close(hang_w);
    hang_w = -1;
}
