/*
 * launch.c - fork or spawn the processors, watch them, stop them.
 */
#include "launch/launch.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

struct job job = { .seg = { .fd = -1 } };

/* What the starter tells its monitor through the eventfd (values add up). */
#define EVENT_END 1ull
#define EVENT_FAIL 1000ull

/* Monitor state: only in the starting process. */
static struct {
    pthread_t thread;
    bool running;
    int event_fd;              /* main thread -> monitor: "we failed" or "ending" */
    int *pidfd;                /* per processor, -1 once reaped */
    struct pollfd *pfd;        /* the monitor's poll set: event fd + children */
    uint32_t *who;
    pid_t *pid;
    uint32_t first_child;      /* 1 when the starter is processor 0, else 0 */
    bool host;                 /* the starter is a host outside the job */
    bool ending;               /* the starter has ended cleanly: exit when all have */
    int result;                /* a host's view of how the job ended */
} mon;

struct launch_shared *launch_setup(struct segment *seg, uint32_t nprocs)
{
    size_t size = sizeof(struct launch_shared) + nprocs * sizeof(struct launch_proc);
    uint64_t off = seg_alloc(seg, size, SEG_LINE);
    if (!off)
        return NULL;
    struct launch_shared *ls = seg_ptr(seg, off);
    memset(ls, 0, size);
    ls->nprocs = nprocs;
    barrier_init(&ls->barrier, nprocs);
    seg->hdr->root[ROOT_LAUNCH] = off;
    return ls;
}

/* "SEGV" for SIGSEGV: glibc's abbreviation, "?" for a number it does not know. */
static const char *signal_abbrev(int sig)
{
    const char *a = sigabbrev_np(sig);
    return a ? a : "?";
}

/*
 * Failing takes two steps so that the report is never lost: claim the
 * failure (true for the first claimant of the job, who then prints), and
 * only after printing publish it, which wakes every waiter and lets the
 * monitor end the program.
 */
static bool claim_failure(uint32_t code)
{
    uint32_t none = 0;
    return atomic_compare_exchange_strong(&job.ls->exit_code, &none, code ? code : LAUNCH_EXIT_ERROR);
}

static void publish_failure(void)
{
    barrier_fail(&job.ls->barrier, atomic_load(&job.ls->exit_code));
}

static bool failure_claimed(void)
{
    return atomic_load(&job.ls->exit_code) != 0;
}

static uint64_t proc_step(uint32_t p)
{
    return atomic_load(&job.ls->proc[p].step);
}

void (*launch_fail_hook)(uint32_t code, const char *msg);

struct launch_words launch_words = { "processor", 0, "bsp_end", true };

/* " in superstep S" when reports name supersteps, else "". */
static const char *step_text(char *buf, size_t n, uint32_t p)
{
    if (!launch_words.steps)
        return "";
    snprintf(buf, n, " in superstep %llu", (unsigned long long)proc_step(p));
    return buf;
}

/* ---- the monitor -------------------------------------------------------- */

static void reap(uint32_t p, siginfo_t *si)
{
    memset(si, 0, sizeof *si);
    if (waitid(P_PIDFD, (id_t)mon.pidfd[p], si, WEXITED) != 0) {
        /* ECHILD: reaped behind our back (SIGCHLD ignored, or the program's
         * own wait); all that is known is whether it ended cleanly. */
        si->si_code = CLD_EXITED;
        si->si_status = atomic_load(&job.ls->proc[p].ended) ? 0 : -1;
    }
    close(mon.pidfd[p]);
    mon.pidfd[p] = -1;
}

/* A child ended: was that a failure?  If so, report it when it is the first. */
static bool child_failed(uint32_t p, const siginfo_t *si)
{
    if (si->si_code == CLD_EXITED && si->si_status == 0 && atomic_load(&job.ls->proc[p].ended))
        return false;
    if (failure_claimed())
        return true; /* someone already said what went wrong */
    char msg[256], st[48];
    uint32_t code;
    const char *in = step_text(st, sizeof st, p);
    if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED) {
        snprintf(msg, sizeof msg, "superstep: %s %u killed by signal %d (SIG%s)%s\n", launch_words.proc,
                 p + launch_words.first, si->si_status, signal_abbrev(si->si_status), in);
        code = 128 + (uint32_t)si->si_status;
    } else {
        snprintf(msg, sizeof msg, "superstep: %s %u exited with status %d%s without calling %s\n",
                 launch_words.proc, p + launch_words.first, si->si_status, in, launch_words.end_call);
        code = LAUNCH_EXIT_ERROR;
    }
    if (claim_failure(code)) {
        fflush(stdout);
        fputs(msg, stderr);
    }
    publish_failure();
    return true;
}

/* Stop every child still running: they see the failure word and leave on
 * their own within moments; those busy computing are killed. */
static void stop_children(void)
{
    for (int round = 0;; round++) {
        bool live = false;
        for (uint32_t p = mon.first_child; p < job.nprocs; p++) {
            if (mon.pidfd[p] < 0)
                continue;
            struct pollfd pfd = { mon.pidfd[p], POLLIN, 0 };
            if (poll(&pfd, 1, 0) == 1) {
                siginfo_t si;
                reap(p, &si);
            } else {
                live = true;
                if (round >= 50)
                    syscall(SYS_pidfd_send_signal, mon.pidfd[p], SIGKILL, NULL, 0);
            }
        }
        if (!live)
            return;
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
}

static void monitor_exit_job(void)
{
    stop_children();
    fflush(stdout);
    fflush(stderr);
    uint32_t code = atomic_load(&job.ls->exit_code);
    _exit(code ? (int)code : LAUNCH_EXIT_ERROR);
}

static void *monitor_main(void *arg)
{
    (void)arg;
    uint32_t n = job.nprocs;
    struct pollfd *pfd = mon.pfd;
    uint32_t *who = mon.who;
    for (;;) {
        nfds_t k = 0;
        pfd[k].fd = mon.event_fd;
        pfd[k++].events = POLLIN;
        for (uint32_t p = mon.first_child; p < n; p++) {
            if (mon.pidfd[p] < 0)
                continue;
            who[k] = p;
            pfd[k].fd = mon.pidfd[p];
            pfd[k++].events = POLLIN;
        }
        if (k == 1 && mon.ending)
            break; /* every child ended cleanly */
        if (poll(pfd, k, -1) < 0)
            continue;
        bool failed = false;
        for (nfds_t i = 1; i < k; i++) {
            if (!pfd[i].revents)
                continue;
            siginfo_t si;
            reap(who[i], &si);
            failed |= child_failed(who[i], &si);
        }
        if (pfd[0].revents) {
            uint64_t v = 0;
            if (read(mon.event_fd, &v, sizeof v) != (ssize_t)sizeof v || v >= EVENT_FAIL)
                monitor_exit_job(); /* the starter itself failed: end the program */
            mon.ending = true;
        }
        if (failed) {
            if (!mon.host)
                monitor_exit_job();
            stop_children();
            mon.result = (int)atomic_load(&job.ls->exit_code);
            break;
        }
    }
    return NULL;
}

/* ---- fatal signals in the starting processor ---------------------------- */

static void on_fatal_signal(int sig)
{
    char msg[160], st[48];
    int len = snprintf(msg, sizeof msg, "superstep: %s %u killed by signal %d (SIG%s)%s\n", launch_words.proc,
                       job.me + launch_words.first, sig, signal_abbrev(sig), step_text(st, sizeof st, job.me));
    if (claim_failure(128 + (uint32_t)sig) && len > 0)
        (void)!write(2, msg, (size_t)len);
    publish_failure();
    for (uint32_t p = mon.first_child; p < job.nprocs; p++)
        if (mon.pidfd && mon.pidfd[p] >= 0)
            syscall(SYS_pidfd_send_signal, mon.pidfd[p], SIGKILL, NULL, 0);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Signals that end a process by default (a Ctrl-C, kill, an alarm):
 * caught in a forking starter (shm) only while the program left them at
 * SIG_DFL, so its own handlers stay; without this processor 0 would die
 * without a word. */
static void catch_ending_signals(void (*handler)(int))
{
    static const int ending[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF };
    static bool caught[sizeof ending / sizeof ending[0]];
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler ? handler : SIG_DFL;
    sa.sa_flags = handler ? SA_RESETHAND | SA_NODEFER : 0;
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++) {
        struct sigaction old;
        if (!handler) {
            if (caught[i])
                sigaction(ending[i], &sa, NULL);
            caught[i] = false;
        } else if (sigaction(ending[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) {
            caught[i] = sigaction(ending[i], &sa, NULL) == 0;
        }
    }
}

void launch_catch_fatal_signals(void (*handler)(int))
{
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = handler ? handler : SIG_DFL;
    sa.sa_flags = handler ? SA_RESETHAND | SA_NODEFER : 0;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* ---- starting ------------------------------------------------------------ */

static int monitor_start(uint32_t first_child, bool host)
{
    mon.first_child = first_child;
    mon.host = host;
    mon.result = 0;
    mon.ending = false;
    mon.event_fd = eventfd(0, EFD_CLOEXEC);
    if (mon.event_fd < 0)
        return -errno;
    /* The program's signal handlers must run on its own threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int rc = pthread_create(&mon.thread, NULL, monitor_main, NULL);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        return -EAGAIN;
    mon.running = true;
    return 0;
}

static int alloc_tables(uint32_t nprocs)
{
    free(mon.pidfd);
    free(mon.pid);
    free(mon.pfd);
    free(mon.who);
    mon.pidfd = malloc(nprocs * sizeof *mon.pidfd);
    mon.pid = calloc(nprocs, sizeof *mon.pid);
    mon.pfd = calloc(nprocs + 1, sizeof *mon.pfd);
    mon.who = calloc(nprocs + 1, sizeof *mon.who);
    if (!mon.pidfd || !mon.pid || !mon.pfd || !mon.who)
        return -ENOMEM;
    for (uint32_t p = 0; p < nprocs; p++)
        mon.pidfd[p] = -1;
    return 0;
}

static void child_setup(pid_t starter)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != starter)
        _exit(LAUNCH_EXIT_STOPPED);
    /* Let peers read and write this process's memory (bsp_hpput), where
     * Yama restricts that to ancestors. */
    prctl(PR_SET_PTRACER, starter, 0, 0, 0);
    mon.running = false;
}

static int record_child(uint32_t p, pid_t pid)
{
    mon.pid[p] = pid;
    mon.pidfd[p] = (int)syscall(SYS_pidfd_open, pid, 0);
    atomic_store(&job.ls->proc[p].os_pid, pid);
    return mon.pidfd[p] < 0 ? -errno : 0;
}

/* Processor 0 leaving the program without ending the job (exit, or a return
 * from main) must not leave the others waiting. */
static void starter_on_exit(int status, void *arg)
{
    (void)arg;
    if (!job.ls || !mon.running || job.me != 0 || atomic_load(&job.ls->proc[0].ended))
        return;
    if (claim_failure(LAUNCH_EXIT_ERROR)) {
        char st[48];
        fflush(stdout);
        fprintf(stderr, "superstep: %s %u exited with status %d%s without calling %s\n", launch_words.proc,
                launch_words.first, status, step_text(st, sizeof st, 0), launch_words.end_call);
    }
    publish_failure();
    uint64_t fail = EVENT_FAIL;
    (void)!write(mon.event_fd, &fail, sizeof fail);
    for (;;)
        pause();
}

/* Undo a partial start: kill and reap children [from, to). */
static void kill_and_reap(uint32_t from, uint32_t to)
{
    for (uint32_t q = from; q < to; q++)
        if (mon.pid[q] > 0)
            kill(mon.pid[q], SIGKILL);
    for (uint32_t q = from; q < to; q++) {
        if (mon.pid[q] > 0)
            waitpid(mon.pid[q], NULL, 0);
        if (mon.pidfd[q] >= 0)
            close(mon.pidfd[q]);
        mon.pid[q] = 0;
        mon.pidfd[q] = -1;
    }
}

int launch_fork(uint32_t nprocs)
{
    static bool exit_hook;
    if (!exit_hook) {
        on_exit(starter_on_exit, NULL);
        exit_hook = true;
    }
    pid_t self = getpid();
    int rc = alloc_tables(nprocs);
    if (rc)
        return rc;
    job.nprocs = nprocs;
    job.me = 0;
    job.starter = true;
    job.forked = true;
    atomic_store(&job.ls->proc[0].os_pid, self);
    prctl(PR_SET_PTRACER, self, 0, 0, 0);
    fflush(NULL); /* else buffered output would be written once per child */
    for (uint32_t p = 1; p < nprocs; p++) {
        pid_t pid = fork();
        if (pid < 0) { /* undo: the caller reports the failure */
            rc = -errno;
            kill_and_reap(1, p);
            return rc;
        }
        if (pid == 0) {
            child_setup(self);
            job.me = p;
            job.starter = false;
            return 0;
        }
        if ((rc = record_child(p, pid)) != 0)
            return rc;
    }
    launch_catch_fatal_signals(on_fatal_signal);
    catch_ending_signals(on_fatal_signal); /* shm only: under mpirun, mpirun's SIGTERM is no failure of ours */
    return monitor_start(1, false);
}

int launch_spawn(const char *path, char *const argv[])
{
    uint32_t nprocs = job.nprocs;
    int rc = alloc_tables(nprocs);
    if (rc)
        return rc;
    job.me = UINT32_MAX;
    job.starter = true;
    job.forked = true;
    fflush(NULL);
    pid_t self = getpid();
    for (uint32_t p = 0; p < nprocs; p++) {
        pid_t pid = fork();
        if (pid < 0) {
            rc = -errno;
            break;
        }
        if (pid == 0) {
            child_setup(self);
            char fdbuf[16], idbuf[16];
            int fd = dup(job.seg.fd); /* without FD_CLOEXEC */
            snprintf(fdbuf, sizeof fdbuf, "%d", fd);
            snprintf(idbuf, sizeof idbuf, "%u", p);
            setenv(ENV_SEGMENT_FD, fdbuf, 1);
            setenv(ENV_PROC_ID, idbuf, 1);
            execv(path, argv);
            fprintf(stderr, "superstep: cannot start kernel %s: %s\n", path, strerror(errno));
            _exit(127);
        }
        if ((rc = record_child(p, pid)) != 0)
            break;
    }
    if (rc) {
        kill_and_reap(0, nprocs);
        return rc;
    }
    return monitor_start(0, true);
}

bool launch_attach(void)
{
    const char *fd = getenv(ENV_SEGMENT_FD), *id = getenv(ENV_PROC_ID);
    if (!fd || !id)
        return false;
    if (seg_attach(&job.seg, atoi(fd)) != 0)
        return false;
    job.ls = seg_ptr(&job.seg, job.seg.hdr->root[ROOT_LAUNCH]);
    job.nprocs = job.ls->nprocs;
    job.me = (uint32_t)atoi(id);
    job.starter = false;
    job.forked = true;
    unsetenv(ENV_SEGMENT_FD);
    unsetenv(ENV_PROC_ID);
    if (job.me >= job.nprocs)
        return false;
    atomic_store(&job.ls->proc[job.me].os_pid, getpid());
    return true;
}

/* ---- ending -------------------------------------------------------------- */

int launch_finish(void)
{
    job.forked = false;
    if (job.me != UINT32_MAX)
        atomic_store(&job.ls->proc[job.me].ended, 1);
    if (!job.starter) {
        fflush(NULL);
        _exit(0);
    }
    if (mon.running) {
        uint64_t end = EVENT_END;
        (void)!write(mon.event_fd, &end, sizeof end);
        pthread_join(mon.thread, NULL);
        mon.running = false;
        close(mon.event_fd);
    }
    if (!mon.host) {
        launch_catch_fatal_signals(NULL);
        catch_ending_signals(NULL);
    }
    return mon.result;
}

/* The starter's main thread hands the shutdown to the monitor and waits. */
static void starter_stop(void) __attribute__((noreturn));
static void starter_stop(void)
{
    fflush(NULL);
    if (mon.running) {
        uint64_t fail = EVENT_FAIL;
        (void)!write(mon.event_fd, &fail, sizeof fail);
        for (;;)
            pause();
    }
    uint32_t code = atomic_load(&job.ls->exit_code);
    _exit(code ? (int)code : LAUNCH_EXIT_ERROR);
}

void launch_await_failure(void)
{
    struct barrier *b = &job.ls->barrier;
    int64_t deadline = now_ns() + 5000000000ll; /* if the reporter died, the monitor reports that */
    while (!barrier_failed(b) && now_ns() < deadline) {
        uint32_t w = atomic_load(&b->failed_wake);
        if (!barrier_failed(b))
            wait_word(b, &b->failed_wake, w, 100000000);
    }
    launch_stopped();
}

void launch_stopped(void)
{
    if (launch_fail_hook)
        launch_fail_hook(LAUNCH_EXIT_STOPPED, NULL);
    if (!job.forked) { /* failed before any processor started */
        uint32_t code = atomic_load(&job.ls->exit_code);
        exit(code ? (int)code : LAUNCH_EXIT_ERROR);
    }
    if (job.starter)
        starter_stop();
    fflush(NULL);
    _exit(LAUNCH_EXIT_STOPPED);
}

void launch_vfail(uint32_t code, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    if (launch_fail_hook)
        launch_fail_hook(code, msg);
    if (!job.ls) { /* no job running: nothing else to stop */
        fflush(stdout);
        fprintf(stderr, "superstep: %s\n", msg);
        exit((int)code);
    }
    if (claim_failure(code)) {
        fflush(stdout);
        fprintf(stderr, "superstep: %s\n", msg);
        fflush(stderr);
    }
    publish_failure();
    launch_stopped();
}

void launch_fail(uint32_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    launch_vfail(code, fmt, ap);
}
