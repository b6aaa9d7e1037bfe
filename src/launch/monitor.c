/*
 * monitor.c - the thread that watches the processors a run started.
 *
 * The starter (processor 0, or an Epiphany host outside the job) runs one
 * monitor per run: a thread that polls a pidfd per child, and per forked
 * child the read end of a close-on-exec pipe only that child holds.  A
 * child that dies by a signal, exits without its ending call, or replaces
 * itself with exec is named with its superstep (failure.c), the job is
 * marked failed, every other child is stopped, and the process ends with
 * the job's status (a host gets control back instead).  The starter talks
 * to its monitor through an eventfd: "ending" or "we failed".
 */
#include "launch/launch_impl.h"
#include "launch/supervise.h"
#include "settings/settings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

static struct monitor mon_top;
struct monitor *mon = &mon_top;

/* What the starter tells its monitor through the eventfd (values add up). */
#define EVENT_END 1ull
#define EVENT_FAIL 1000ull

int monitor_tables(uint32_t nprocs)
{
    monitor_free_tables(mon);
    mon->nprocs = nprocs;
    mon->hangup = malloc(nprocs * sizeof *mon->hangup);
    mon->pidfd = malloc(nprocs * sizeof *mon->pidfd);
    mon->pid = calloc(nprocs, sizeof *mon->pid);
    mon->pfd = calloc(2 * nprocs + 1, sizeof *mon->pfd);
    mon->who = calloc(2 * nprocs + 1, sizeof *mon->who);
    if (!mon->pidfd || !mon->pid || !mon->pfd || !mon->who || !mon->hangup)
        return -ENOMEM;
    for (uint32_t p = 0; p < nprocs; p++)
        mon->pidfd[p] = mon->hangup[p] = -1;
    return 0;
}

void monitor_free_tables(struct monitor *m)
{
    free(m->pidfd);
    free(m->pid);
    free(m->pfd);
    free(m->who);
    free(m->hangup);
    m->pidfd = m->hangup = NULL;
    m->pid = NULL;
    m->pfd = NULL;
    m->who = NULL;
}

static void reap(struct monitor *mon, uint32_t p, siginfo_t *si)
{
    memset(si, 0, sizeof *si);
    if (waitid(P_PIDFD, (id_t)mon->pidfd[p], si, WEXITED) != 0) {
        /* ECHILD: reaped behind our back (SIGCHLD ignored, or the program's
         * own wait); all that is known is whether it ended cleanly. */
        si->si_code = CLD_EXITED;
        si->si_status = atomic_load(&mon->ls->proc[p].ended) ? 0 : -1;
    }
    close(mon->pidfd[p]);
    mon->pidfd[p] = -1;
    if (mon->hangup[p] >= 0) {
        close(mon->hangup[p]);
        mon->hangup[p] = -1;
    }
}

/* A child closed the pipe only it holds, close-on-exec: it replaced itself
 * with exec (or closed every descriptor), or it is exiting.  The kernel's
 * state tells which (supervise_execd), whichever wake-up came first.  True
 * when this is a failure (then reported and the child killed). */
#define HANGUP_BIT 0x80000000u
static bool child_hung_up(struct monitor *mon, uint32_t p)
{
    close(mon->hangup[p]);
    mon->hangup[p] = -1;
    if (atomic_load(&mon->ls->proc[p].ended))
        return false;
    if (!supervise_execd(mon->pid[p]))
        return false; /* it is exiting: the pidfd reports that */
    char msg[256], st[48];
    snprintf(msg, sizeof msg, "%s %u called exec%s without calling %s", launch_words.proc,
             p + launch_words.first, step_text(mon->ls, st, sizeof st, p), launch_words.end_call);
    report_at(mon->ls, mon->depth, LAUNCH_EXIT_ERROR, msg);
    syscall(SYS_pidfd_send_signal, mon->pidfd[p], SIGKILL, NULL, 0);
    return true;
}

/* The poll set, from pfd[k] on: the pidfd of every child not yet reaped,
 * and with 'hangups' its exec pipe (who: p | HANGUP_BIT).  Returns its end. */
static nfds_t poll_children(struct monitor *mon, nfds_t k, bool hangups)
{
    for (uint32_t p = mon->first_child; p < mon->nprocs; p++) {
        if (mon->pidfd[p] < 0)
            continue;
        mon->who[k] = p;
        mon->pfd[k++] = (struct pollfd){ mon->pidfd[p], POLLIN, 0 };
        if (hangups && mon->hangup[p] >= 0) {
            mon->who[k] = p | HANGUP_BIT;
            mon->pfd[k++] = (struct pollfd){ mon->hangup[p], POLLIN, 0 };
        }
    }
    return k;
}

/* A child ended: was that a failure?  If so, report it when it is the first
 * (else someone already said what went wrong). */
static bool child_failed(struct monitor *mon, uint32_t p, const siginfo_t *si)
{
    if (si->si_code == CLD_EXITED && si->si_status == 0 && atomic_load(&mon->ls->proc[p].ended))
        return false;
    if (!atomic_load(&mon->ls->exit_code))
        report_death(mon->ls, mon->depth, p, si);
    return true;
}

void monitor_kill_children(const struct monitor *m)
{
    for (uint32_t p = m->first_child; m->pidfd && p < m->nprocs; p++)
        if (m->pidfd[p] >= 0)
            syscall(SYS_pidfd_send_signal, m->pidfd[p], SIGKILL, NULL, 0);
}

/* SUPERSTEP_STOP_GRACE in ns, read when a monitor starts (process-wide:
 * an inner run's monitor goes away).  A grace, not a guess: a processor
 * computing cannot be told of the failure, and killing it at once would
 * cut the output of one that was about to come to a call. */
static int64_t stop_grace_ns;

/* Stop every child still running: those in a library call see the failure
 * word and leave on their own within moments; those still running after
 * the grace (computing, outside every call) are killed.  One poll on the
 * children's pidfds: each wakes it as it ends (a pidfd is no shared word:
 * wait_word cannot wait for it). */
static void stop_children(struct monitor *mon)
{
    int64_t kill_at = now_ns() + stop_grace_ns;
    bool killed = false;
    for (;;) {
        nfds_t k = poll_children(mon, 0, false);
        if (!k)
            return;
        int64_t left = kill_at - now_ns();
        if (!killed && left <= 0) {
            monitor_kill_children(mon);
            killed = true;
        }
        if (poll(mon->pfd, k, killed ? -1 : (int)(left / 1000000) + 1) <= 0)
            continue;
        for (nfds_t i = 0; i < k; i++)
            if (mon->pfd[i].revents) {
                siginfo_t si;
                reap(mon, mon->who[i], &si);
            }
    }
}

/* SUPERSTEP_ABORT_TIMEOUT, read when a monitor starts: the bound on the
 * failed-job hook (process-wide: an inner run's monitor goes away). */
static uint64_t failed_hook_limit_s;

/* The hook's other caller waits until it is done (state 2), at most
 * SUPERSTEP_ABORT_TIMEOUT: a hook that hangs (the profile's, run in a
 * fatal-signal handler) must not hold the end; then it says so.  The
 * barrier layer's wait, with a failure word of its own that is never
 * set: the job's is, by now.  Async-signal-safe. */
static void await_failed_hook(_Atomic uint32_t *state)
{
    static struct barrier never_fails;
    uint64_t limit = failed_hook_limit_s;
    int64_t until = limit ? now_ns() + (int64_t)limit * 1000000000 : INT64_MAX;
    for (int64_t t = now_ns(); atomic_load(state) != 2; t = now_ns()) {
        if (t >= until) {
            char line[200];
            size_t n = launch_put_str(line, 0, sizeof line, "superstep: writing the failed job's profile did not "
                                                            "finish: the time limit expired (SUPERSTEP_ABORT_TIMEOUT=");
            n = launch_put_u64(line, n, sizeof line, limit);
            n = launch_put_str(line, n, sizeof line, "); the job ends without it\n");
            if (takes_output(job.ls, 2))
                (void)!write(2, line, n);
            return;
        }
        wait_word(&never_fails, state, 1, limit ? until - t : -1);
    }
}

void run_failed_hook(void)
{
    static _Atomic uint32_t state; /* 0: not run, 1: running, 2: done (futex word) */
    static _Atomic pid_t runner;   /* the thread running it */
    pid_t me = (pid_t)syscall(SYS_gettid);
    uint32_t idle = 0;
    if (!atomic_compare_exchange_strong(&state, &idle, 1)) {
        if (atomic_load(&runner) != me) /* else the hook itself faulted: nothing to wait for */
            await_failed_hook(&state);
        return;
    }
    atomic_store(&runner, me);
    void (*hook)(void) = launch_failed_hook;
    launch_failed_hook = NULL;
    if (hook)
        hook();
    atomic_store(&state, 2);
    wake_word(&state);
}

static void monitor_exit_job(struct monitor *mon) __attribute__((noreturn));
static void monitor_exit_job(struct monitor *mon)
{
    stop_children(mon);
    run_failed_hook();
    flush_output(mon->ls);
    uint32_t code = atomic_load(&mon->ls->exit_code);
    code = code ? code : LAUNCH_EXIT_ERROR;
    nest_device_end(mon->depth, code);
    _exit((int)code);
}

static void *monitor_main(void *arg)
{
    struct monitor *mon = arg;
    struct pollfd *pfd = mon->pfd;
    uint32_t *who = mon->who;
    for (;;) {
        pfd[0] = (struct pollfd){ mon->event_fd, POLLIN, 0 };
        nfds_t k = poll_children(mon, 1, true);
        if (k == 1 && mon->ending)
            break; /* every child ended cleanly */
        if (poll(pfd, k, -1) < 0)
            continue;
        bool failed = false;
        for (nfds_t i = 1; i < k; i++) { /* hang-ups first: an exec'd child may have ended too */
            uint32_t p = who[i] & ~HANGUP_BIT;
            if (pfd[i].revents && (who[i] & HANGUP_BIT) && mon->hangup[p] >= 0 && mon->pidfd[p] >= 0)
                failed |= child_hung_up(mon, p);
        }
        for (nfds_t i = 1; i < k; i++) {
            uint32_t p = who[i] & ~HANGUP_BIT;
            if (!pfd[i].revents || mon->pidfd[p] < 0 || (who[i] & HANGUP_BIT))
                continue;
            siginfo_t si;
            reap(mon, p, &si);
            failed |= child_failed(mon, p, &si);
        }
        if (pfd[0].revents) {
            uint64_t v = 0;
            if (read(mon->event_fd, &v, sizeof v) != (ssize_t)sizeof v || v >= EVENT_FAIL)
                monitor_exit_job(mon); /* the starter itself failed: end the program */
            mon->ending = true;
        }
        if (failed) {
            if (!mon->host)
                monitor_exit_job(mon);
            stop_children(mon);
            mon->result = (int)atomic_load(&mon->ls->exit_code);
            break;
        }
    }
    return NULL;
}

int monitor_start(uint32_t first_child, bool host)
{
    mon->first_child = first_child;
    mon->host = host;
    mon->result = 0;
    mon->ending = false;
    mon->event_fd = eventfd(0, EFD_CLOEXEC);
    if (mon->event_fd < 0)
        return -errno;
    /* The program's signal handlers must run on its own threads. */
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    mon->ls = job.ls;
    mon->nprocs = job.nprocs;
    mon->depth = nest_depth;
    failed_hook_limit_s = setting_num(SET_ABORT_TIMEOUT);
    double grace = setting_real(SET_STOP_GRACE);
    stop_grace_ns = grace >= 0 ? (int64_t)(grace * 1e9) : 500000000; /* NaN: not set */
    int rc = pthread_create(&mon->thread, NULL, monitor_main, mon);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0)
        return -EAGAIN;
    mon->running = true;
    return 0;
}

void monitor_end(void)
{
    uint64_t end = EVENT_END;
    (void)!write(mon->event_fd, &end, sizeof end);
    pthread_join(mon->thread, NULL);
    close(mon->event_fd);
}

void monitor_take_over(void)
{
    uint64_t fail = EVENT_FAIL;
    (void)!write(mon->event_fd, &fail, sizeof fail);
    for (;;)
        pause();
}
