/*
 * launch.c - fork or spawn the processors, watch them, stop them.
 */
#include "launch/launch.h"
#include "launch/supervise.h"
#include "settings/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
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

/* Monitor state, one per run this process started (a nested run has its
 * own: launch_nest_enter); the monitor thread is handed its run's
 * and reads no global, so an outer monitor keeps watching its children
 * while this process runs an inner job. */
struct monitor {
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
    int *hangup;               /* per child: read end of a pipe only it holds (-1: none) */
    pid_t starter_pid;         /* hooks act only in this process, not in its forks */
    struct launch_shared *ls;  /* the run's tables, for the monitor thread */
    uint32_t nprocs;
    uint32_t depth;            /* 0: the outermost run; else nested (launch_nest_enter) */
    bool own_signals;          /* this run caught the fatal signals (an outer one had not) */
};
static struct monitor mon_top;
static struct monitor *mon = &mon_top;

/* The program's own actions for the signals the runtime catches, restored
 * when the job ends and chained to after a report. */
static struct sigaction program_action[NSIG];
static bool program_action_saved[NSIG];

struct launch_shared *launch_setup(struct segment *seg, uint32_t nprocs)
{
    size_t size = sizeof(struct launch_shared) + nprocs * sizeof(struct launch_proc);
    uint64_t off = seg_alloc(seg, size, SEG_LINE);
    if (!off)
        return NULL;
    struct launch_shared *ls = seg_ptr(seg, off);
    memset(ls, 0, size);
    ls->nprocs = nprocs;
    ls->abort_limit_s = (uint32_t)setting_num(SET_ABORT_TIMEOUT);
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
/* Nested runs (MulticoreBSP's hierarchical BSP): a processor of a run may
 * start an inner run of its own.  A failure anywhere stops the whole job:
 * it is claimed in the run where it happened and in every run around it,
 * innermost first, and the one that claims them all prints; every level is
 * published, so every waiter of every level wakes.  nest_ls[d] is the
 * tables of the run at depth d around the current one (mapped in every
 * process of the inner runs, which are forks of their starter), and
 * nest_where[d] the words a line of depth d ends with ("" at depth 0). */
#define NEST_MAX 8
static struct launch_shared *nest_ls[NEST_MAX];
static char nest_where[NEST_MAX + 1][512];
static uint32_t nest_depth; /* of the run this thread's calls act on */

static bool claim_failure_at(struct launch_shared *ls, uint32_t depth, uint32_t code)
{
    supervise_settled(); /* the runtime reports this failure, not the supervisor */
    void (*claimed)(void) = launch_claimed_hook;
    if (claimed)
        claimed();
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
    return true;
}

static void publish_failure_at(struct launch_shared *ls, uint32_t depth)
{
    barrier_fail(&ls->barrier, atomic_load(&ls->exit_code));
    for (uint32_t d = depth; d-- > 0;)
        barrier_fail(&nest_ls[d]->barrier, atomic_load(&nest_ls[d]->exit_code));
}

static bool claim_failure(uint32_t code)
{
    return claim_failure_at(job.ls, nest_depth, code);
}

static void publish_failure(void)
{
    publish_failure_at(job.ls, nest_depth);
}

static bool failure_claimed(const struct monitor *m)
{
    return atomic_load(&m->ls->exit_code) != 0;
}

/* Keep the claimant's line (from 'line', up to a newline) for the trace;
 * async-signal-safe. */
static void keep_line(struct launch_shared *ls, const char *line)
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

static bool takes_output(const struct launch_shared *ls, int fd)
{
    int64_t at = atomic_load(&ls->failure.at_ns);
    int64_t until = (at ? at : now_ns()) + (int64_t)ls->abort_limit_s * 1000000000;
    struct pollfd p = { fd, POLLOUT, 0 };
    for (;;) { /* 0: no limit */
        int64_t ms = ls->abort_limit_s ? (until - now_ns()) / 1000000 : INT_MAX;
        int r = poll(&p, 1, ms <= 0 ? 0 : ms < INT_MAX ? (int)ms + 1 : INT_MAX);
        if (r > 0)
            return true;
        if ((r < 0 && errno != EINTR) || ms <= 0)
            return false;
    }
}

bool launch_takes_output(int fd)
{
    return takes_output(job.ls, fd);
}

/* stdio's buffers written out, unless standard output or error takes no
 * output (takes_output): then none, the program's own files included. */
static void flush_output(const struct launch_shared *ls)
{
    if (takes_output(ls, 1) && takes_output(ls, 2))
        fflush(NULL);
}

/* The one funnel of failure lines: claim, print when first, publish.  Only
 * processor 0's fatal-signal handler (on_fatal_signal) and the supervisor
 * build and write their line by hand: in a handler, and in a process that
 * may have had threads when it forked, stdio is not safe. */
static void report_at(struct launch_shared *ls, uint32_t depth, uint32_t code, const char *line)
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

static uint64_t proc_step(const struct launch_shared *ls, uint32_t p)
{
    return atomic_load(&ls->proc[p].step);
}

/* What processor p was doing, for where_each: its call word (0:
 * computing), or launch_words.ncalls once it has ended. */
static uint32_t where_kind(const struct launch_shared *ls, uint32_t p)
{
    uint32_t call = atomic_load(&ls->proc[p].call);
    if (atomic_load(&ls->proc[p].ended))
        return launch_words.ncalls;
    return call < launch_words.ncalls ? call : 0;
}

/* A termination request (Ctrl-C, a batch system's time limit): its line
 * also says where every processor was. */
static bool interrupt(int sig)
{
    return sig == SIGINT || sig == SIGTERM || sig == SIGQUIT || sig == SIGHUP;
}

/* "; processor 1 was computing, processors 0 and 2 were in bsp_sync" for
 * a job interrupted while processor 'p' was in superstep 'step' (each
 * other superstep named), from the call words (launch_words.calls).
 * Async-signal-safe: processor 0's handler builds it too. */
static size_t where_each(char *buf, size_t at, size_t cap, const struct launch_shared *ls, uint64_t step)
{
    const struct launch_words *w = &launch_words;
    const char *sep = "; ";
    for (uint32_t kind = 0; w->calls && kind <= w->ncalls; kind++) { /* kind ncalls: ended */
        uint32_t count = 0, listed = 0;
        for (uint32_t q = 0; q < ls->nprocs; q++)
            count += where_kind(ls, q) == kind;
        if (!count)
            continue;
        at = launch_put_str(buf, launch_put_str(buf, at, cap, sep), cap, w->proc);
        at = launch_put_str(buf, at, cap, count > 1 ? "s " : " ");
        sep = ", ";
        for (uint32_t q = 0; q < ls->nprocs && listed < count; q++) {
            if (where_kind(ls, q) != kind)
                continue;
            if (at + 64 > cap) {
                at = launch_put_str(buf, at, cap, listed ? ", ..." : "...");
                break;
            }
            at = launch_put_str(buf, at, cap, listed++ ? (listed == count ? " and " : ", ") : "");
            at = launch_put_u64(buf, at, cap, q + w->first);
            if (w->steps && proc_step(ls, q) != step && kind != w->ncalls) {
                at = launch_put_u64(buf, launch_put_str(buf, at, cap, " (superstep "), cap, proc_step(ls, q));
                at = launch_put_str(buf, at, cap, ")");
            }
        }
        at = launch_put_str(buf, at, cap, count > 1 ? " were " : " was ");
        at = launch_put_str(buf, at, cap, kind == 0 ? "computing" : kind == w->ncalls ? "done" : "in ");
        if (kind && kind < w->ncalls)
            at = launch_put_str(buf, at, cap, w->calls[kind]);
    }
    return at;
}

void (*launch_fail_hook)(uint32_t code, const char *msg);
int launch_inherit_fd = -1;

struct launch_words launch_words = { "processor", 0, "bsp_end", true, NULL, 0 };

/* A processor's end of its exec pipe (the monitor of its run holds the
 * other): -1 in a starter.  Its own exec closes it; a process it forks (an
 * inner run's processor, a helper of the program) must not hold it too,
 * else that exec goes unseen while the fork lives.  (A fork by glibc's
 * fork() closes it in the child, below; one by syscall(SYS_fork) keeps it,
 * as it keeps every descriptor.) */
static int own_hang_w = -1;

static void forget_own_hang(void)
{
    if (own_hang_w >= 0)
        close(own_hang_w);
    own_hang_w = -1;
}

/* The copies of a processor (launch.h: launch_forked_copy). */
static pid_t no_self_pid;
pid_t *launch_self_pid = &no_self_pid;

void launch_mark_self(void)
{
    if (launch_self_pid == &no_self_pid) {
        void *page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page != MAP_FAILED && madvise(page, (size_t)sysconf(_SC_PAGESIZE), MADV_WIPEONFORK) == 0)
            launch_self_pid = page;
        /* else (Linux before 4.14) no copy is told from its processor */
    }
    job.pid = *launch_self_pid = getpid();
}

static void forget_self(void)
{
    job.pid = *launch_self_pid = 0;
}

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

void launch_stop_if_failed(void)
{
    uint32_t code = atomic_load_explicit(&job.ls->exit_code, memory_order_relaxed);
    if (__builtin_expect(!code, 1))
        return;
    if (launch_fail_hook) /* its line is out: stop the job with its status */
        launch_fail_hook(code, NULL);
    launch_stopped();
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

__attribute__((constructor)) static void fork_watch_install(void)
{
    pthread_atfork(NULL, NULL, forget_own_hang);
    settings_reject_hook = setting_rejected;
}

/* " in superstep S" when reports name supersteps, else "". */
static const char *step_text(const struct launch_shared *ls, char *buf, size_t n, uint32_t p)
{
    if (!launch_words.steps)
        return "";
    snprintf(buf, n, " in superstep %llu", (unsigned long long)proc_step(ls, p));
    return buf;
}

/* ---- the monitor -------------------------------------------------------- */

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

/* Processor p of the run with tables 'ls' at 'depth' ended, not cleanly
 * (si: how, as waitid tells): report it when it is the first. */
static void report_death(struct launch_shared *ls, uint32_t depth, uint32_t p, const siginfo_t *si)
{
    char msg[768], st[48];
    uint32_t code;
    const char *in = step_text(ls, st, sizeof st, p);
    if (si->si_code == CLD_KILLED || si->si_code == CLD_DUMPED) {
        int len = snprintf(msg, sizeof msg, "%s %u killed by signal %d (SIG%s)%s", launch_words.proc,
                           p + launch_words.first, si->si_status, signal_abbrev(si->si_status), in);
        if (interrupt(si->si_status) && len > 0 && (size_t)len < sizeof msg)
            where_each(msg, (size_t)len, sizeof msg, ls, proc_step(ls, p));
        code = 128 + (uint32_t)si->si_status;
    } else {
        snprintf(msg, sizeof msg, "%s %u exited with status %d%s without calling %s",
                 launch_words.proc, p + launch_words.first, si->si_status, in, launch_words.end_call);
        code = LAUNCH_EXIT_ERROR;
    }
    report_at(ls, depth, code, msg);
}

/* A child ended: was that a failure?  If so, report it when it is the first. */
static bool child_failed(struct monitor *mon, uint32_t p, const siginfo_t *si)
{
    if (si->si_code == CLD_EXITED && si->si_status == 0 && atomic_load(&mon->ls->proc[p].ended))
        return false;
    if (!failure_claimed(mon)) /* else someone already said what went wrong */
        report_death(mon->ls, mon->depth, p, si);
    return true;
}

/* SUPERSTEP_STOP_GRACE in ns, read when a monitor starts (process-wide:
 * an inner run's monitor goes away).  A grace, not a guess: a processor
 * computing cannot be told of the failure, and killing it at once would
 * cut the output of one that was about to come to a call. */
static int64_t stop_grace_ns;

/* Stop every child still running: those in a library call see the failure
 * word and leave on their own within moments; those still running after
 * the grace (computing, outside every call) are killed.  One poll on the
 * children's pidfds: each wakes it as it ends. */
static void stop_children(struct monitor *mon)
{
    int64_t kill_at = now_ns() + stop_grace_ns;
    bool killed = false;
    for (;;) {
        nfds_t k = 0;
        for (uint32_t p = mon->first_child; p < mon->nprocs; p++)
            if (mon->pidfd[p] >= 0) {
                mon->who[k] = p;
                mon->pfd[k++] = (struct pollfd){ mon->pidfd[p], POLLIN, 0 };
            }
        if (!k)
            return;
        int64_t left = kill_at - now_ns();
        if (!killed && left <= 0) {
            for (nfds_t i = 0; i < k; i++)
                syscall(SYS_pidfd_send_signal, mon->pfd[i].fd, SIGKILL, NULL, 0);
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

void (*launch_failed_hook)(void);
void (*launch_claimed_hook)(void);

/* SUPERSTEP_ABORT_TIMEOUT, read when a monitor starts: the bound on the
 * failed-job hook (process-wide: an inner run's monitor goes away). */
static uint64_t failed_hook_limit_s;

/* The hook's other caller waits until it is done (state 2), at most
 * SUPERSTEP_ABORT_TIMEOUT: a hook that hangs (the profile's, run in a
 * fatal-signal handler) must not hold the end; then it says so.  Async-
 * signal-safe. */
static void await_failed_hook(_Atomic uint32_t *state)
{
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
        futex_sleep(state, 1, until - t);
    }
}

/* Run once, by the monitor or by processor 0's fatal-signal handler; the
 * other waits until it has finished before ending the job. */
static void run_failed_hook(void)
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

static void nest_device_end(uint32_t depth, uint32_t code);

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
    uint32_t n = mon->nprocs;
    struct pollfd *pfd = mon->pfd;
    uint32_t *who = mon->who;
    for (;;) {
        nfds_t k = 0;
        pfd[k].fd = mon->event_fd;
        pfd[k++].events = POLLIN;
        for (uint32_t p = mon->first_child; p < n; p++) {
            if (mon->pidfd[p] < 0)
                continue;
            who[k] = p;
            pfd[k].fd = mon->pidfd[p];
            pfd[k++].events = POLLIN;
            if (mon->hangup[p] >= 0) {
                who[k] = p | HANGUP_BIT;
                pfd[k].fd = mon->hangup[p];
                pfd[k++].events = POLLIN;
            }
        }
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

/* ---- fatal signals in the starting processor ---------------------------- */

/* Async-signal-safe text building for handlers (no stdio there). */
size_t launch_put_str(char *buf, size_t at, size_t cap, const char *s)
{
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    buf[at] = 0;
    return at;
}

size_t launch_put_u64(char *buf, size_t at, size_t cap, uint64_t v)
{
    char digits[24];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n && at + 1 < cap)
        buf[at++] = digits[--n];
    buf[at] = 0;
    return at;
}

/* "superstep: processor P killed by signal N (SIGX) in superstep S\n" */
static size_t killed_line(char *buf, size_t cap, uint32_t p, int sig)
{
    size_t at = launch_put_str(buf, 0, cap, "superstep: ");
    at = launch_put_str(buf, at, cap, launch_words.proc);
    at = launch_put_str(buf, at, cap, " ");
    at = launch_put_u64(buf, at, cap, p + launch_words.first);
    at = launch_put_str(buf, at, cap, " killed by signal ");
    at = launch_put_u64(buf, at, cap, (uint64_t)sig);
    at = launch_put_str(buf, at, cap, " (SIG");
    at = launch_put_str(buf, at, cap, signal_abbrev(sig));
    at = launch_put_str(buf, at, cap, ")");
    if (launch_words.steps) {
        at = launch_put_str(buf, at, cap, " in superstep ");
        at = launch_put_u64(buf, at, cap, proc_step(job.ls, p));
    }
    if (interrupt(sig))
        at = where_each(buf, at, cap - 1 - strlen(nest_where[nest_depth]), job.ls, proc_step(job.ls, p));
    at = launch_put_str(buf, at, cap, nest_where[nest_depth]);
    return launch_put_str(buf, at, cap, "\n");
}

/* Give the signal to the program's own action (or the default): a fault
 * returns and happens again, anything else is raised again. */
void launch_chain_signal(int sig, const siginfo_t *si)
{
    if (program_action_saved[sig])
        sigaction(sig, &program_action[sig], NULL);
    else
        signal(sig, SIG_DFL);
    bool fault = si && si->si_code > 0 && sig != SIGABRT && sig != SIGTERM && sig != SIGINT &&
                 sig != SIGHUP && sig != SIGQUIT;
    if (!fault)
        raise(sig);
}

static void on_fatal_signal(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (job.ls && mon->starter_pid == getpid()) { /* not in a process the program forked */
        char msg[768];
        size_t len = killed_line(msg, sizeof msg, job.me, sig);
        if (claim_failure(128 + (uint32_t)sig)) {
            keep_line(job.ls, msg + strlen("superstep: "));
            if (takes_output(job.ls, 2))
                (void)!write(2, msg, len);
        }
        publish_failure();
        for (uint32_t p = mon->first_child; p < job.nprocs; p++)
            if (mon->pidfd && mon->pidfd[p] >= 0)
                syscall(SYS_pidfd_send_signal, mon->pidfd[p], SIGKILL, NULL, 0);
        run_failed_hook(); /* best effort: this process is failing */
    }
    launch_chain_signal(sig, si);
}

/* Faults are always caught; termination requests only where the program
 * left them at their default (its own handler or SIG_IGN stays in charge). */
static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static const int stop_signals[] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF };

static void catch_one(int sig, void (*handler)(int, siginfo_t *, void *), bool only_default)
{
    struct sigaction old;
    sigaction(sig, NULL, &old);
    if (only_default && !(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL)
        return;
    if (only_default && (old.sa_flags & SA_SIGINFO))
        return;
    program_action[sig] = old;
    program_action_saved[sig] = true;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigfillset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

static void restore_all(void)
{
    for (int sig = 1; sig < NSIG; sig++) {
        if (program_action_saved[sig])
            sigaction(sig, &program_action[sig], NULL);
        program_action_saved[sig] = false;
    }
}

void launch_catch_fatal_signals(void (*handler)(int))
{
    static void (*simple)(int);
    if (!handler) {
        restore_all();
        return;
    }
    /* The device's handler in the same frame as ours: it reports, then chains. */
    simple = handler;
    for (size_t i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++) {
        struct sigaction old, sa;
        sigaction(fault_signals[i], NULL, &old);
        program_action[fault_signals[i]] = old;
        program_action_saved[fault_signals[i]] = true;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = simple;
        sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
        sigaction(fault_signals[i], &sa, NULL);
    }
}

/* An alternate stack, so that a stack overflow in processor 0 is reported.
 * It is the starting thread's (sigaltstack is per thread); the one it had
 * before is given back when the job ends in that thread, or when that
 * thread ends (a thread's runtime, ASan's for one, may free its own). */
static struct {
    char *stack;
    bool installed;
    pthread_t thread;
    stack_t old;
} alt;

static void alternate_stack(void)
{
    size_t size = 64 * 1024;
    if (alt.installed || (!alt.stack && !(alt.stack = malloc(size))))
        return;
    stack_t ss = { .ss_sp = alt.stack, .ss_size = size, .ss_flags = 0 };
    if (sigaltstack(&ss, &alt.old) == 0) {
        alt.installed = true;
        alt.thread = pthread_self();
    }
}

static void give_back_alternate_stack(void)
{
    if (!alt.installed || !pthread_equal(alt.thread, pthread_self()))
        return;
    sigaltstack(&alt.old, NULL);
    alt.installed = false;
}

/* An outer run of this process catches the fatal signals already. */
static bool catching_here(void)
{
    struct sigaction now;
    sigaction(SIGSEGV, NULL, &now);
    return (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_fatal_signal;
}

static void catch_signals_in_starter(void)
{
    alternate_stack();
    for (size_t i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++)
        catch_one(fault_signals[i], on_fatal_signal, false);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        catch_one(stop_signals[i], on_fatal_signal, true);
}

/* ---- starting ------------------------------------------------------------ */

static int monitor_start(uint32_t first_child, bool host)
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

static int alloc_tables(uint32_t nprocs)
{
    free(mon->pidfd);
    free(mon->pid);
    free(mon->pfd);
    free(mon->who);
    free(mon->hangup);
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

/* The program's SIGCHLD action: set to the default for the job when it
 * was SIG_IGN or SA_NOCLDWAIT (the kernel would reap the children and their
 * statuses be lost), and given back in the children and at the end. */
static struct sigaction program_sigchld;
static bool sigchld_changed;

static void own_sigchld(void)
{
    sigaction(SIGCHLD, NULL, &program_sigchld);
    sigchld_changed = program_sigchld.sa_handler == SIG_IGN || (program_sigchld.sa_flags & SA_NOCLDWAIT);
    if (sigchld_changed)
        signal(SIGCHLD, SIG_DFL);
}

static void give_back_sigchld(void)
{
    if (sigchld_changed)
        sigaction(SIGCHLD, &program_sigchld, NULL);
    sigchld_changed = false;
}

static bool nest_under_device; /* the outermost run has a device's failure path (mpi) */

/* In a processor of an inner run.  Under mpi the actions saved at the
 * rank's start are MPI's own (its backtrace handler): such a processor
 * dies by the signal instead, as a rank does (mpi_die_by_signal). */
static void nest_child_signals(void)
{
    restore_all();
    for (size_t i = 0; nest_under_device && i < sizeof fault_signals / sizeof fault_signals[0]; i++)
        signal(fault_signals[i], SIG_DFL);
}

static void child_setup(pid_t starter)
{
    forget_own_hang(); /* the exec pipe of the run this process is a processor of */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != starter)
        _exit(LAUNCH_EXIT_STOPPED);
    give_back_sigchld();
    /* Let peers read and write this process's memory (bsp_hpput), where
     * Yama restricts that to ancestors. */
    prctl(PR_SET_PTRACER, starter, 0, 0, 0);
    mon->running = false;
    supervise_forget();
    job.step_mirror = NULL;
    if (nest_depth) /* an inner run's processor: the program's own actions, none of an outer run's */
        nest_child_signals();
}

/* A processor runs none of the program before the start has succeeded: a
 * start that fails after some forks (a descriptor or process limit) kills
 * the processors waiting here.  The starter dying kills them too
 * (PR_SET_PDEATHSIG). */
static void await_start(void)
{
    while (!atomic_load_explicit(&job.ls->started, memory_order_acquire))
        futex_sleep_unbounded(&job.ls->started, 0);
}

static void release_processors(void)
{
    atomic_store_explicit(&job.ls->started, 1, memory_order_release);
    wake_word(&job.ls->started);
}

static int record_child(uint32_t p, pid_t pid)
{
    mon->pid[p] = pid;
    mon->pidfd[p] = (int)syscall(SYS_pidfd_open, pid, 0);
    atomic_store(&job.ls->proc[p].os_pid, pid);
    return mon->pidfd[p] < 0 ? -errno : 0;
}

/* Processor 0 leaving the program without ending the job (exit, or a return
 * from main) must not leave the others waiting. */
static void starter_on_exit(int status, void *arg)
{
    (void)arg;
    if (!job.ls || !mon->running || job.me != 0 || atomic_load(&job.ls->proc[0].ended) ||
        getpid() != mon->starter_pid) /* a process the program forked is not processor 0 */
        return;
    char msg[256], st[48];
    snprintf(msg, sizeof msg, "%s %u exited with status %d%s without calling %s", launch_words.proc,
             launch_words.first, status, step_text(job.ls, st, sizeof st, 0), launch_words.end_call);
    launch_report(LAUNCH_EXIT_ERROR, msg);
    uint64_t fail = EVENT_FAIL;
    (void)!write(mon->event_fd, &fail, sizeof fail);
    for (;;)
        pause();
}

/*
 * PR_SET_PDEATHSIG fires when the *thread* that forked a child ends, not its
 * process: were the thread that started the job to end while the job runs
 * (pthread_exit, or a return from its start routine, after handing the job
 * to another thread), every other processor would be killed with SIGKILL.
 * A thread-specific value set in that thread catches the moment: its
 * destructor runs before the thread ends and waits there until the job has
 * ended (launch_finish) or the process exits with its failure, so the
 * signal never fires early (tests/core/thread_start.c).
 */
static pthread_key_t starter_thread_key;
static bool starter_thread_keyed;
static pthread_mutex_t job_end_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_end_cond = PTHREAD_COND_INITIALIZER;

static void starter_thread_ended(void *arg)
{
    const struct monitor *m = arg;
    if (getpid() != m->starter_pid) /* a copy of the thread in a process the program forked */
        return;
    pthread_mutex_lock(&job_end_lock);
    while (m->running)
        pthread_cond_wait(&job_end_cond, &job_end_lock);
    pthread_mutex_unlock(&job_end_lock);
    give_back_alternate_stack();
}

static void watch_starter_thread(void)
{
    if (!starter_thread_keyed)
        starter_thread_keyed = pthread_key_create(&starter_thread_key, starter_thread_ended) == 0;
    if (starter_thread_keyed)
        pthread_setspecific(starter_thread_key, mon);
}

/* Undo a partial start: kill and reap children [from, to). */
static void kill_and_reap(uint32_t from, uint32_t to)
{
    for (uint32_t q = from; q < to; q++)
        if (mon->pid[q] > 0)
            kill(mon->pid[q], SIGKILL);
    for (uint32_t q = from; q < to; q++) {
        if (mon->pid[q] > 0)
            waitpid(mon->pid[q], NULL, 0);
        if (mon->pidfd[q] >= 0)
            close(mon->pidfd[q]);
        if (mon->hangup[q] >= 0)
            close(mon->hangup[q]);
        mon->pid[q] = 0;
        mon->pidfd[q] = mon->hangup[q] = -1;
    }
}

static int fork_processors(uint32_t nprocs);

/* A start that fails is reported by the caller: no job runs for the
 * supervisor to name. */
int launch_fork(uint32_t nprocs)
{
    int rc = fork_processors(nprocs);
    if (rc)
        supervise_settled();
    return rc;
}

static int fork_processors(uint32_t nprocs)
{
    static bool exit_hook;
    if (!exit_hook) {
        on_exit(starter_on_exit, NULL);
        exit_hook = true;
    }
    int rc;
    if (!nest_depth) { /* an inner run's starter is a processor of the job already */
        rc = supervise_start();
        if (rc)
            return rc;
    }
    pid_t self = getpid(); /* the worker's: the supervisor keeps the original */
    if ((rc = alloc_tables(nprocs)) != 0)
        return rc;
    char who[32];
    snprintf(who, sizeof who, "%s %u", launch_words.proc, launch_words.first);
    job.step_mirror = nest_depth ? NULL : supervise_job(who, launch_words.end_call, "", launch_words.steps);
    mon->starter_pid = self;
    own_sigchld();
    job.nprocs = nprocs;
    job.me = 0;
    job.starter = true;
    job.forked = true;
    atomic_store(&job.ls->proc[0].os_pid, self);
    prctl(PR_SET_PTRACER, self, 0, 0, 0);
    fflush(NULL); /* else buffered output would be written once per child */
    atomic_store(&job.ls->started, 0);
    uint32_t forked = 1;
    for (uint32_t p = 1; p < nprocs && !rc; p++) {
        int hang[2];
        if (pipe2(hang, O_CLOEXEC) != 0) {
            rc = -errno;
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            rc = -errno;
            close(hang[0]);
            close(hang[1]);
            break;
        }
        if (pid == 0) {
            child_setup(self);
            close(hang[0]);
            for (uint32_t q = 1; q < p; q++)
                close(mon->hangup[q]);
            own_hang_w = hang[1];
            job.me = p;
            job.starter = false;
            await_start();
            return 0;
        }
        close(hang[1]);
        mon->hangup[p] = hang[0];
        forked = p + 1;
        rc = record_child(p, pid);
    }
    if (!rc) {
        mon->own_signals = !catching_here(); /* else an outer run's handler reports */
        if (mon->own_signals)
            catch_signals_in_starter();
        rc = monitor_start(1, false);
    }
    if (rc) { /* undo: the caller reports the failure */
        kill_and_reap(1, forked);
        return rc;
    }
    watch_starter_thread();
    release_processors();
    return 0;
}

char **launch_spawn_env;

/* Is 'var' ("NAME=value") one of the variables named in 'list'? */
static bool named_in(const char *var, char *const *list)
{
    size_t len = strcspn(var, "=");
    for (; list && *list; list++)
        if (!strncmp(*list, var, len) && (*list)[len] == '=')
            return true;
    return false;
}

/* The environment of kernel p: the host's, with launch_spawn_env, the
 * segment's descriptor and the processor id; the last two entries are
 * allocated (free_environment). */
extern char **environ;
static char **kernel_environment(uint32_t p)
{
    char ids[2][48];
    snprintf(ids[0], sizeof ids[0], "%s=%d", ENV_SEGMENT_FD, job.seg.fd);
    snprintf(ids[1], sizeof ids[1], "%s=%u", ENV_PROC_ID, p);
    char *own[] = { ids[0], ids[1], NULL };
    size_t n = 0, extra = 0;
    while (environ[n])
        n++;
    while (launch_spawn_env && launch_spawn_env[extra])
        extra++;
    char **envp = calloc(n + extra + 3, sizeof *envp);
    if (!envp)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!named_in(environ[i], own) && !named_in(environ[i], launch_spawn_env))
            envp[k++] = environ[i];
    for (size_t i = 0; i < extra; i++)
        envp[k++] = launch_spawn_env[i];
    if (!(envp[k] = strdup(ids[0])) || !(envp[k + 1] = strdup(ids[1]))) {
        free(envp[k]);
        free(envp);
        return NULL;
    }
    return envp;
}

static void free_environment(char **envp)
{
    size_t n = 0;
    while (envp[n + 2])
        n++;
    free(envp[n]);
    free(envp[n + 1]);
    free(envp);
}

static int spawn_kernels(const char *path, char *const argv[]);

int launch_spawn(const char *path, char *const argv[])
{
    int rc = spawn_kernels(path, argv);
    if (rc)
        supervise_settled();
    return rc;
}

static int spawn_kernels(const char *path, char *const argv[])
{
    uint32_t nprocs = job.nprocs;
    int rc = supervise_start();
    if (rc)
        return rc;
    if ((rc = alloc_tables(nprocs)) != 0)
        return rc;
    supervise_job("host", "", " in ebsp_spmd while its kernels ran", false);
    job.me = UINT32_MAX;
    job.starter = true;
    job.forked = true;
    fflush(NULL);
    atomic_store(&job.ls->started, 0);
    pid_t self = getpid();
    mon->starter_pid = self;
    for (uint32_t p = 0; p < nprocs; p++) {
        /* Everything the child needs is made before the fork: between fork
         * and exec only async-signal-safe calls (the host may have threads). */
        char **envp = kernel_environment(p);
        if (!envp) {
            rc = -ENOMEM;
            break;
        }
        char nopath[512];
        size_t len = launch_put_str(nopath, 0, sizeof nopath, "superstep: cannot start kernel ");
        len = launch_put_str(nopath, len, sizeof nopath, path);
        len = launch_put_str(nopath, len, sizeof nopath, "\n");
        pid_t pid = fork();
        if (pid < 0) {
            rc = -errno;
            free_environment(envp);
            break;
        }
        if (pid == 0) {
            child_setup(self);
            fcntl(job.seg.fd, F_SETFD, 0); /* the segment stays open across exec */
            if (launch_inherit_fd >= 0)
                fcntl(launch_inherit_fd, F_SETFD, 0);
            execve(path, argv, envp);
            (void)!write(2, nopath, len);
            _exit(127);
        }
        free_environment(envp);
        if ((rc = record_child(p, pid)) != 0)
            break;
    }
    if (!rc)
        rc = monitor_start(0, true);
    if (rc) {
        kill_and_reap(0, nprocs);
        return rc;
    }
    release_processors();
    return 0;
}

bool launch_attach(void)
{
    const char *fd = getenv(ENV_SEGMENT_FD), *id = getenv(ENV_PROC_ID);
    if (!fd || !id)
        return false;
    if (seg_attach(&job.seg, atoi(fd)) != 0)
        return false;
    fcntl(job.seg.fd, F_SETFD, FD_CLOEXEC); /* inherited for this exec only */
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
    await_start();
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
    if (mon->running) {
        uint64_t end = EVENT_END;
        (void)!write(mon->event_fd, &end, sizeof end);
        pthread_join(mon->thread, NULL);
        pthread_mutex_lock(&job_end_lock);
        mon->running = false;
        pthread_cond_broadcast(&job_end_cond); /* a starting thread waiting to end */
        pthread_mutex_unlock(&job_end_lock);
        close(mon->event_fd);
    }
    if (!nest_depth) { /* an inner run's end is not the job's: the supervisor still watches */
        supervise_settled();
        forget_self();
    }
    job.step_mirror = NULL;
    if (starter_thread_keyed) /* in the thread that ends it (the value of another one is idle now) */
        pthread_setspecific(starter_thread_key, NULL);
    if (!mon->host && mon->own_signals) {
        restore_all();
        give_back_alternate_stack();
    }
    if (!mon->host)
        give_back_sigchld();
    return mon->result;
}

/* The starter's main thread hands the shutdown to the monitor and waits. */
static void starter_stop(void) __attribute__((noreturn));
static void starter_stop(void)
{
    flush_output(job.ls);
    if (mon->running) {
        uint64_t fail = EVENT_FAIL;
        (void)!write(mon->event_fd, &fail, sizeof fail);
        for (;;)
            pause();
    }
    uint32_t code = atomic_load(&job.ls->exit_code);
    _exit(code ? (int)code : LAUNCH_EXIT_ERROR);
}

/* Until the job's failure word is set: by the processor that reports, or
 * by the monitor, which reports every processor's end (so no bound). */
static void await_failed_word(void)
{
    struct barrier *b = &job.ls->barrier;
    while (!barrier_failed(b)) {
        uint32_t w = atomic_load(&b->failed_wake);
        if (!barrier_failed(b))
            wait_word(b, &b->failed_wake, w, -1);
    }
}

void launch_await_failure(void)
{
    /* Processors of another machine (the mpi device: none forked here)
     * share no failure word: the device's hook waits for the job's stop. */
    if (job.forked)
        await_failed_word();
    launch_stopped();
}

void launch_buffer_lines(void)
{
    /* Own buffers, larger than stdio's, so that long lines stay whole. */
    static char out[1 << 16], err[1 << 16];
    fflush(stdout);
    fflush(stderr);
    setvbuf(stdout, out, _IOLBF, sizeof out);
    setvbuf(stderr, err, _IOLBF, sizeof err);
}

void launch_stop_if_peer_died(uint32_t peer, int err)
{
    if (err != ESRCH || atomic_load(&job.ls->proc[peer].ended))
        return;
    await_failed_word();
    launch_stopped();
}

char launch_proc_state(uint32_t p)
{
    char state;
    uint64_t ppid;
    pid_t pid = atomic_load(&job.ls->proc[p].os_pid);
    return pid > 0 && supervise_proc_stat(pid, 4, &state, &ppid) ? state : 0;
}

void launch_stop_if_dead(uint32_t p)
{
    char state;
    uint64_t status; /* the zombie's wait status (field 52, exit_code) */
    pid_t pid = atomic_load(&job.ls->proc[p].os_pid);
    if (pid <= 0 || !supervise_proc_stat(pid, 52, &state, &status) || state != 'Z')
        return;
    /* Read after its exit: a processor sets 'ended' before it exits. */
    if (atomic_load(&job.ls->proc[p].ended) && status == 0)
        return;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    int ws = (int)status;
    si.si_code = WIFSIGNALED(ws) ? (WCOREDUMP(ws) ? CLD_DUMPED : CLD_KILLED) : CLD_EXITED;
    si.si_status = WIFSIGNALED(ws) ? WTERMSIG(ws) : WEXITSTATUS(ws);
    report_death(job.ls, nest_depth, p, &si);
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
    flush_output(job.ls);
    _exit(LAUNCH_EXIT_STOPPED);
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

/* ---- nested runs ---------------------------------------------------------- */

/* What an inner run sets aside in its starter and gives back at its end. */
static struct nest_level {
    struct sigaction program_action[NSIG];
    bool program_action_saved[NSIG];
    struct job job;
    struct monitor *mon;
    void (*fail_hook)(uint32_t code, const char *msg);
    void (*failed_hook)(void);
    struct sigaction program_sigchld;
    bool sigchld_changed;
} nest_saved[NEST_MAX];

/* A failed inner run that an MPI rank started ends the rank through the
 * outer device's failure path (mpi: an abort carrying the status; a
 * rank's plain exit with 128 + signal made MPICH's Hydra report status 1,
 * "Hangup", in 4 runs of 100 under load).  Does not return there. */
static void nest_device_end(uint32_t depth, uint32_t code)
{
    if (depth == 1 && nest_saved[0].fail_hook)
        nest_saved[0].fail_hook(code, NULL);
}

uint32_t launch_nest_depth(void)
{
    return nest_depth;
}

int launch_nest_enter(void)
{
    if (nest_depth + 1 >= NEST_MAX)
        return -EMLINK;
    struct monitor *inner = calloc(1, sizeof *inner);
    if (!inner)
        return -ENOMEM;
    uint32_t d = nest_depth;
    struct nest_level *l = &nest_saved[d];
    memcpy(l->program_action, program_action, sizeof program_action);
    memcpy(l->program_action_saved, program_action_saved, sizeof program_action_saved);
    l->job = job;
    l->mon = mon;
    if (!d)
        nest_under_device = launch_fail_hook != NULL;
    l->fail_hook = launch_fail_hook;
    l->failed_hook = launch_failed_hook;
    l->program_sigchld = program_sigchld;
    l->sigchld_changed = sigchld_changed;
    char body[sizeof nest_where[0] - 3];
    snprintf(body, sizeof body, "in the inner run that %s %u started in superstep %llu%s%.*s",
             launch_words.proc, job.me + launch_words.first, (unsigned long long)proc_step(job.ls, job.me),
             d ? ", " : "", d ? (int)strlen(nest_where[d]) - 3 : 0, d ? nest_where[d] + 2 : "");
    snprintf(nest_where[d + 1], sizeof nest_where[d + 1], " (%s)", body);
    nest_ls[d] = job.ls;
    /* The inner run is a shm run of this process and its forks: no
     * device hook of the outer run (an MPI call) may run in it. */
    launch_fail_hook = NULL;
    launch_failed_hook = NULL;
    sigchld_changed = false;
    mon = inner;
    memset(&job, 0, sizeof job);
    job.seg.fd = -1;
    job.nest = d + 1;
    job.pid = l->job.pid; /* the same process: no copy */
    nest_depth = d + 1;
    return 0;
}

void launch_nest_leave(void)
{
    if (!nest_depth)
        return;
    struct nest_level *l = &nest_saved[--nest_depth];
    free(mon->pidfd);
    free(mon->pid);
    free(mon->pfd);
    free(mon->who);
    free(mon->hangup);
    free(mon);
    mon = l->mon;
    job = l->job;
    launch_fail_hook = l->fail_hook;
    launch_failed_hook = l->failed_hook;
    memcpy(program_action, l->program_action, sizeof program_action);
    memcpy(program_action_saved, l->program_action_saved, sizeof program_action_saved);
    program_sigchld = l->program_sigchld;
    sigchld_changed = l->sigchld_changed;
    nest_ls[nest_depth] = NULL;
    if (starter_thread_keyed && job.starter && mon->running)
        pthread_setspecific(starter_thread_key, mon);
}
