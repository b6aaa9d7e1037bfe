/*
 * signals.c - the starter's signal handlers, and the interrupt line.
 *
 * Processor 0 (the starter of a forked run) has no monitor above it: its
 * own fatal signals (SEGV, BUS, FPE, ILL, ABRT), and the termination
 * requests the program left at their default, are reported by a handler
 * here, which names processor 0 with its superstep, kills the children and
 * hands the signal back to the program's action or the default.  A
 * termination request (Ctrl-C, a batch system's time limit) is an
 * interrupt: its line also says where every processor was, whoever
 * reports it (this handler, or the monitor for a child).  Every action
 * changed here is the program's again when its run ends.
 */
#include "launch/launch_impl.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct program_signals program_signals;

/* Faults are always caught; termination requests only where the program
 * left them at their default (its own handler or SIG_IGN stays in charge). */
static const int fault_signals[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
const int stop_signals[9] = { SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGALRM, SIGUSR1, SIGUSR2, SIGVTALRM, SIGPROF };

/* ---- the interrupt line ---------------------------------------------------- */

/* A termination request (Ctrl-C, a batch system's time limit): its line
 * also says where every processor was. */
static bool interrupt(int sig)
{
    return sig == SIGINT || sig == SIGTERM || sig == SIGQUIT || sig == SIGHUP;
}

/* What processor p was doing, for launch_put_where: its call word (0:
 * computing), launch_words.ncalls once it has ended, or UINT32_MAX when
 * it is not listed. */
static uint32_t where_kind(const struct launch_proc *proc)
{
    uint32_t call = atomic_load(&proc->call);
    if (atomic_load(&proc->os_pid) < 0)
        return UINT32_MAX;
    if (atomic_load(&proc->ended))
        return launch_words.ncalls;
    return call < launch_words.ncalls ? call : 0;
}

size_t launch_put_where(char *buf, size_t at, size_t cap, const char *lead, const struct launch_proc *proc,
                        uint32_t n, uint64_t step)
{
    const struct launch_words *w = &launch_words;
    const char *sep = lead;
    for (uint32_t kind = 0; w->calls && kind <= w->ncalls; kind++) { /* kind ncalls: ended */
        uint32_t count = 0, listed = 0;
        for (uint32_t q = 0; q < n; q++)
            count += where_kind(&proc[q]) == kind;
        if (!count)
            continue;
        at = launch_put_str(buf, launch_put_str(buf, at, cap, sep), cap, w->proc);
        at = launch_put_str(buf, at, cap, count > 1 ? "s " : " ");
        sep = ", ";
        for (uint32_t q = 0; q < n && listed < count; q++) {
            if (where_kind(&proc[q]) != kind)
                continue;
            if (at + 64 > cap) {
                at = launch_put_str(buf, at, cap, listed ? ", ..." : "...");
                break;
            }
            at = launch_put_str(buf, at, cap, listed++ ? (listed == count ? " and " : ", ") : "");
            at = launch_put_u64(buf, at, cap, q + w->first);
            uint64_t its = atomic_load(&proc[q].step);
            if (w->steps && its != step && kind != w->ncalls) {
                at = launch_put_u64(buf, launch_put_str(buf, at, cap, " (superstep "), cap, its);
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

size_t killed_text(char *buf, size_t at, size_t cap, const struct launch_shared *ls, uint32_t p, int sig)
{
    at = launch_put_str(buf, at, cap, launch_words.proc);
    at = launch_put_str(buf, at, cap, " ");
    at = launch_put_u64(buf, at, cap, p + launch_words.first);
    at = put_killed(buf, launch_put_str(buf, at, cap, " "), cap, sig);
    if (launch_words.steps) {
        at = launch_put_str(buf, at, cap, " in superstep ");
        at = launch_put_u64(buf, at, cap, proc_step(ls, p));
    }
    if (interrupt(sig))
        at = launch_put_where(buf, at, cap, "; ", ls->proc, ls->nprocs, proc_step(ls, p));
    return at;
}

/* ---- processor 0's handler ---------------------------------------------------- */

/* Give the signal to the program's own action (or the default): a fault
 * returns and happens again, anything else is raised again. */
void launch_chain_signal(int sig, const siginfo_t *si)
{
    if (program_signals.saved[sig])
        sigaction(sig, &program_signals.action[sig], NULL);
    else
        signal(sig, SIG_DFL);
    bool fault = si && si->si_code > 0 && sig != SIGABRT && sig != SIGTERM && sig != SIGINT &&
                 sig != SIGHUP && sig != SIGQUIT;
    if (!fault)
        raise(sig);
}

/* "superstep: processor P killed by signal N (SIGX) in superstep S\n",
 * built by hand: stdio is not safe in a handler. */
static void on_fatal_signal(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    if (job.ls && mon->starter_pid == getpid()) { /* not in a process the program forked */
        char msg[768];
        const char *where = nest_where[nest_depth];
        size_t len = launch_put_str(msg, 0, sizeof msg, "superstep: ");
        len = killed_text(msg, len, sizeof msg - 1 - strlen(where), job.ls, job.me, sig);
        len = launch_put_str(msg, launch_put_str(msg, len, sizeof msg, where), sizeof msg, "\n");
        if (claim_failure_at(job.ls, nest_depth, 128 + (uint32_t)sig)) {
            keep_line(job.ls, msg + strlen("superstep: "));
            if (takes_output(job.ls, 2))
                (void)!write(2, msg, len);
        }
        publish_failure_at(job.ls, nest_depth);
        monitor_kill_children(mon);
        run_failed_hook(); /* best effort: this process is failing */
    }
    launch_chain_signal(sig, si);
}

static void catch_one(int sig, void (*handler)(int, siginfo_t *, void *), bool only_default)
{
    struct sigaction old;
    sigaction(sig, NULL, &old);
    if (only_default && !(old.sa_flags & SA_SIGINFO) && old.sa_handler != SIG_DFL)
        return;
    if (only_default && (old.sa_flags & SA_SIGINFO))
        return;
    program_signals.action[sig] = old;
    program_signals.saved[sig] = true;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigfillset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
}

void restore_all(void)
{
    for (int sig = 1; sig < NSIG; sig++) {
        if (program_signals.saved[sig])
            sigaction(sig, &program_signals.action[sig], NULL);
        program_signals.saved[sig] = false;
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
        program_signals.action[fault_signals[i]] = old;
        program_signals.saved[fault_signals[i]] = true;
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

void give_back_alternate_stack(void)
{
    if (!alt.installed || !pthread_equal(alt.thread, pthread_self()))
        return;
    sigaltstack(&alt.old, NULL);
    alt.installed = false;
}

bool catching_here(void)
{
    struct sigaction now;
    sigaction(SIGSEGV, NULL, &now);
    return (now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_fatal_signal;
}

void catch_signals_in_starter(void)
{
    alternate_stack();
    for (size_t i = 0; i < sizeof fault_signals / sizeof fault_signals[0]; i++)
        catch_one(fault_signals[i], on_fatal_signal, false);
    for (size_t i = 0; i < sizeof stop_signals / sizeof stop_signals[0]; i++)
        catch_one(stop_signals[i], on_fatal_signal, true);
}

/* ---- SIGCHLD, and an inner run's processors ------------------------------------- */

/* The program's SIGCHLD action: set to the default for the job when it
 * was SIG_IGN or SA_NOCLDWAIT (the kernel would reap the children and their
 * statuses be lost), and given back in the children and at the end. */
void own_sigchld(void)
{
    struct program_signals *ps = &program_signals;
    sigaction(SIGCHLD, NULL, &ps->sigchld);
    ps->sigchld_changed = ps->sigchld.sa_handler == SIG_IGN || (ps->sigchld.sa_flags & SA_NOCLDWAIT);
    if (ps->sigchld_changed)
        signal(SIGCHLD, SIG_DFL);
}

void give_back_sigchld(void)
{
    if (program_signals.sigchld_changed)
        sigaction(SIGCHLD, &program_signals.sigchld, NULL);
    program_signals.sigchld_changed = false;
}

/* Under mpi the actions saved at the rank's start are MPI's own (its
 * backtrace handler): such a processor dies by the signal instead, as a
 * rank does (mpi_die_by_signal). */
void nest_child_signals(void)
{
    restore_all();
    for (size_t i = 0; nest_under_device && i < sizeof fault_signals / sizeof fault_signals[0]; i++)
        signal(fault_signals[i], SIG_DFL);
}
