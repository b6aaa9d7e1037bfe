/*
 * failure.c - the job's one failure line, and how a processor stops.
 *
 * Failing takes two steps so that the report is never lost: claim the
 * failure (true for the first claimant of the job, who then prints), and
 * only after printing publish it, which wakes every waiter and lets the
 * monitor end the program.  A failure in an inner run (nest.c) is claimed
 * in the run where it happened and in every run around it, innermost
 * first, and the one that claims them all prints; every level is
 * published, so every waiter of every level wakes.
 */
#include "launch/launch_impl.h"
#include "launch/supervise.h"
#include "settings/settings.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void (*launch_fail_hook)(uint32_t code, const char *msg);
void (*launch_failed_hook)(void);
bool (*launch_claimed_hook)(void);

struct launch_words launch_words = { "processor", 0, "bsp_end", true, NULL, 0 };

uint64_t proc_step(const struct launch_shared *ls, uint32_t p)
{
    return atomic_load(&ls->proc[p].step);
}

const char *step_text(const struct launch_shared *ls, char *buf, size_t n, uint32_t p)
{
    if (!launch_words.steps)
        return "";
    snprintf(buf, n, " in superstep %llu", (unsigned long long)proc_step(ls, p));
    return buf;
}

/* ---- claiming and publishing ------------------------------------------------ */

bool claim_failure_at(struct launch_shared *ls, uint32_t depth, uint32_t code)
{
    supervise_settled(); /* the runtime reports this failure, not the supervisor */
    bool (*claimed)(void) = launch_claimed_hook;
    bool first_in_device = !claimed || claimed();
    code = code ? code : LAUNCH_EXIT_ERROR;
    uint32_t none = 0;
    if (!atomic_compare_exchange_strong(&ls->exit_code, &none, code))
        return false;
    atomic_store(&ls->failure.at_ns, now_ns());
    for (uint32_t d = depth; d-- > 0;) {
        none = 0;
        if (!atomic_compare_exchange_strong(&nest_ls[d]->exit_code, &none, code))
            return false; /* a failure of an outer run is being reported */
    }
    return first_in_device;
}

void publish_failure_at(struct launch_shared *ls, uint32_t depth)
{
    barrier_fail(&ls->barrier, atomic_load(&ls->exit_code));
    for (uint32_t d = depth; d-- > 0;)
        barrier_fail(&nest_ls[d]->barrier, atomic_load(&nest_ls[d]->exit_code));
}

/* Keep the claimant's line (from 'line', up to a newline) for the trace;
 * async-signal-safe. */
void keep_line(struct launch_shared *ls, const char *line)
{
    size_t n = 0;
    for (; line[n] && line[n] != '\n' && n + 1 < sizeof ls->failure.line; n++)
        ls->failure.line[n] = line[n];
    ls->failure.line[n] = 0;
}

const char *launch_failure_line(int64_t *at_ns)
{
    *at_ns = job.ls ? atomic_load(&job.ls->failure.at_ns) : 0;
    return *at_ns && job.ls->failure.line[0] ? job.ls->failure.line : NULL;
}

void launch_keep_failure(const char *line)
{
    if (!job.ls || !line)
        return;
    keep_line(job.ls, line);
    atomic_store(&job.ls->failure.at_ns, now_ns());
}

bool launch_output_until(int fd, int64_t until)
{
    struct pollfd p = { fd, POLLOUT, 0 };
    for (;;) { /* 0: no limit */
        int64_t ms = until ? (until - now_ns()) / 1000000 : INT_MAX;
        int r = poll(&p, 1, ms <= 0 ? 0 : ms < INT_MAX ? (int)ms + 1 : INT_MAX);
        if (r > 0)
            return true;
        if ((r < 0 && errno != EINTR) || ms <= 0)
            return false;
    }
}

bool takes_output(const struct launch_shared *ls, int fd)
{
    int64_t at = atomic_load(&ls->failure.at_ns);
    int64_t until = (at ? at : now_ns()) + (int64_t)ls->abort_limit_s * 1000000000;
    return launch_output_until(fd, ls->abort_limit_s ? until : 0);
}

bool launch_takes_output(int fd)
{
    return takes_output(job.ls, fd);
}

/* stdio's buffers written out, unless standard output or error takes no
 * output (takes_output): then none, the program's own files included. */
void flush_output(const struct launch_shared *ls)
{
    if (takes_output(ls, 1) && takes_output(ls, 2))
        fflush(NULL);
}

/* The one funnel of failure lines: claim, print when first, publish.  Only
 * processor 0's fatal-signal handler (signals.c) and the supervisor
 * build and write their line by hand: in a handler, and in a process that
 * may have had threads when it forked, stdio is not safe. */
void report_at(struct launch_shared *ls, uint32_t depth, uint32_t code, const char *line)
{
    if (claim_failure_at(ls, depth, code) && line) {
        char full[sizeof ls->failure.line];
        snprintf(full, sizeof full, "%s%s", line, nest_where[depth]);
        keep_line(ls, full);
        if (takes_output(ls, 1))
            fflush(stdout);
        if (takes_output(ls, 2)) {
            fprintf(stderr, "superstep: %s%s\n", line, nest_where[depth]);
            fflush(stderr);
        }
    }
    publish_failure_at(ls, depth);
}

void launch_report(uint32_t code, const char *line)
{
    report_at(job.ls, nest_depth, code, line);
}

void report_death(struct launch_shared *ls, uint32_t depth, uint32_t p, const siginfo_t *si)
{
    char msg[768], st[48];
    if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED) {
        killed_text(msg, 0, sizeof msg, ls, p, si->si_status);
        report_at(ls, depth, 128 + (uint32_t)si->si_status, msg);
        return;
    }
    snprintf(msg, sizeof msg, "%s %u exited with status %d%s without calling %s", launch_words.proc,
             p + launch_words.first, si->si_status, step_text(ls, st, sizeof st, p), launch_words.end_call);
    report_at(ls, depth, LAUNCH_EXIT_ERROR, msg);
}

/* ---- a processor's failure ---------------------------------------------------- */

/* A refused call of a copy (or any error there): the job's failure, as
 * every error line is one, claimed and published in the tables the copy
 * shares with its processor (every processor's on shm, its rank's on
 * mpi); the copy ends alone, and runs none of its processor's exit hooks
 * nor any device's failure path (MPI is not for a forked child). */
static void copy_fails(uint32_t code, const char *msg) __attribute__((noreturn));
static void copy_fails(uint32_t code, const char *msg)
{
    launch_report(code, msg);
    fflush(NULL);
    _exit((int)code);
}

void launch_vfail(uint32_t code, const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    launch_one_line(msg, sizeof msg);
    if (job.ls && launch_forked_copy())
        copy_fails(code, msg);
    if (launch_fail_hook)
        launch_fail_hook(code, msg);
    /* A kernel failing before its bsp_begin has not joined its host's job
     * yet: join it now to claim the failure, else the host's monitor would
     * print a second line for the kernel's exit (tests/ebsp/early.sh). */
    if (!job.ls && !launch_attach())
        job.ls = NULL; /* not an exec'd processor, or its job is unusable */
    if (!job.ls) { /* no job running: nothing else to stop */
        fflush(stdout);
        fprintf(stderr, "superstep: %s\n", msg);
        exit((int)code);
    }
    launch_report(code, msg);
    launch_stopped();
}

void launch_fail(uint32_t code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    launch_vfail(code, fmt, ap);
}

/* A setting read again while the job runs and found bad (settings.h): the
 * job's one failure path, naming this processor and its superstep. */
static void setting_rejected(const char *line)
{
    if (!job.ls || job.me >= job.nprocs)
        return; /* no processor of a running job here: settings exits itself */
    if (launch_words.steps)
        launch_fail(LAUNCH_EXIT_ERROR, "%s %u, superstep %llu: %s", launch_words.proc, job.me + launch_words.first,
                    (unsigned long long)proc_step(job.ls, job.me), line);
    launch_fail(LAUNCH_EXIT_ERROR, "%s %u: %s", launch_words.proc, job.me + launch_words.first, line);
}

__attribute__((constructor)) static void setting_hook_install(void)
{
    settings_reject_hook = setting_rejected;
}

/* ---- stopping ------------------------------------------------------------------ */

/* The starter hands the shutdown to the monitor (which ends the process). */
static void starter_stop(void) __attribute__((noreturn));
static void starter_stop(void)
{
    flush_output(job.ls);
    if (mon->running)
        monitor_take_over();
    uint32_t code = atomic_load(&job.ls->exit_code);
    _exit(code ? (int)code : LAUNCH_EXIT_ERROR);
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
    flush_output(job.ls);
    _exit(LAUNCH_EXIT_STOPPED);
}

void launch_stop_if_failed(void)
{
    uint32_t code = atomic_load_explicit(&job.ls->exit_code, memory_order_relaxed);
    if (__builtin_expect(!code, 1))
        return;
    if (launch_fail_hook) /* its line is out: stop the job with its status */
        launch_fail_hook(code, NULL);
    launch_stopped();
}

/* Until the job's failure word is set: by the processor that reports, or
 * by the monitor, which reports every processor's end (so no bound).
 * Processors of another machine (the mpi device: none forked here) share
 * no failure word: the device's hook waits for the job's stop. */
void launch_await_failure(void)
{
    struct barrier *b = &job.ls->barrier;
    while (job.forked && !barrier_failed(b)) {
        uint32_t w = atomic_load(&b->failed_wake);
        if (!barrier_failed(b))
            wait_word(b, &b->failed_wake, w, -1);
    }
    launch_stopped();
}

/* Only on shm, whose processors are forked: a direct transfer reads and
 * writes another process. */
void launch_stop_if_peer_died(uint32_t peer, int err)
{
    if (err == ESRCH && !atomic_load(&job.ls->proc[peer].ended))
        launch_await_failure();
}

/* PID's state letter in /proc (0: gone or unreadable). */
static char pid_state(pid_t pid)
{
    char state;
    uint64_t ppid;
    return pid > 0 && supervise_proc_stat(pid, 4, &state, &ppid) ? state : 0;
}

char launch_proc_state(uint32_t p)
{
    return pid_state(atomic_load(&job.ls->proc[p].os_pid));
}

/* 'T' stopped by a signal, 't' by a tracer. */
static bool stopped_pid(pid_t pid)
{
    char state = pid > 1 ? pid_state(pid) : 0;
    return state == 'T' || state == 't';
}

bool launch_monitor_stopped(void)
{
    return job.forked && !job.starter && stopped_pid(getppid());
}

void launch_stop_if_dead(uint32_t p)
{
    pid_t pid = atomic_load(&job.ls->proc[p].os_pid);
    int ws = pid > 0 ? supervise_zombie_status(pid) : -1;
    if (ws < 0)
        return;
    /* Read after its exit: a processor sets 'ended' before it exits. */
    if (atomic_load(&job.ls->proc[p].ended) && ws == 0)
        return;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_code = WIFSIGNALED(ws) ? (WCOREDUMP(ws) ? CLD_DUMPED : CLD_KILLED) : CLD_EXITED;
    si.si_status = WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws);
    report_death(job.ls, nest_depth, p, &si);
    launch_stopped();
}
