/*
 * launch.h - starting the processors of a job, watching them, stopping them.
 *
 * Two ways to start p processors on the shared segment:
 *   launch_fork:  the caller becomes processor 0 and forks the others, which
 *                 continue from the call (BSPlib's bsp_begin);
 *   launch_spawn: the caller stays outside the job and starts p copies of an
 *                 executable, which find the segment through the environment
 *                 (an Epiphany host starting its kernel).
 * In both, a monitor thread in the starting process waits on every child's
 * pidfd.  A child that dies by a signal, or exits without ending cleanly, is
 * named with its step (the superstep), the job is marked failed in the
 * segment, and every other processor is stopped.  Children get
 * PR_SET_PDEATHSIG so none outlives the starter.  Both start by making the
 * starting process a supervised worker (supervise.h): the process the shell
 * waits for stays outside the job and names the starter's own silent exits.
 */
#ifndef SUPERSTEP_LAUNCH_H
#define SUPERSTEP_LAUNCH_H

#include "barrier/barrier.h"
#include "segment/segment.h"

#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <sys/types.h>

/* Exit statuses. */
#define LAUNCH_EXIT_ERROR 1     /* an error or an abort */
#define LAUNCH_EXIT_STOPPED 3   /* stopped because another processor failed */

struct launch_proc {
    _Atomic int32_t os_pid;
    _Atomic uint32_t ended;     /* ended cleanly */
    _Atomic uint64_t step;      /* superstep, for diagnosis */
    _Atomic uint32_t call;      /* which collective call it waits in (layer-defined) */
    char pad[SEG_LINE - 2 * sizeof(uint32_t) - sizeof(uint64_t) - sizeof(uint32_t) - sizeof(int32_t)];
};

/* The job's failure as its claimant reported it, for a failed job's trace
 * (src/profile): when it was claimed and its line, written by the claimant
 * before it publishes the failure. */
struct launch_failure {
    _Atomic int64_t at_ns;      /* CLOCK_MONOTONIC; 0: no failure */
    char line[4 * SEG_LINE - sizeof(int64_t)]; /* without "superstep: " and newline */
};

struct launch_shared {
    struct barrier barrier;     /* the job's barrier and failure word */
    _Atomic uint32_t exit_code; /* the job's exit status once failed */
    uint32_t nprocs;
    _Atomic uint32_t started;   /* futex word: every processor recorded and watched */
    uint32_t abort_limit_s;     /* SUPERSTEP_ABORT_TIMEOUT, for every process of the job */
    char pad[SEG_LINE - 4 * sizeof(uint32_t)];
    struct launch_failure failure;
    struct launch_proc proc[];
};

/* Lay out the launch tables in a fresh segment. */
struct launch_shared *launch_setup(struct segment *seg, uint32_t nprocs);

/* This process's view of the job. */
struct job {
    struct segment seg;
    struct launch_shared *ls;
    uint32_t nprocs;
    uint32_t me;                /* processor id; UINT32_MAX for a spawning host */
    bool starter;               /* this process started the job (runs the monitor) */
    bool forked;                /* processors exist: failing must stop them */
    _Atomic uint64_t *step_mirror; /* the supervisor's copy of processor 0's superstep, or NULL */
    struct launch_proc *node_mirror; /* this processor's entry copied where the other processes of
                                        its machine read it (the mpi device's node page), or NULL */
    uint32_t nest;              /* 0, or the depth of an inner run (launch_nest_enter) */
    pid_t pid;                  /* the processor's process (launch_mark_self); 0: none */
};

extern struct job job;

/*
 * A process that the program forks from a processor (node, kernel) is no
 * processor, however it was made: fork(), syscall(SYS_fork), clone without
 * CLONE_VM.  Told by what it is: the processor records its pid in job.pid
 * and in a page marked MADV_WIPEONFORK, which the kernel hands every
 * process forked from it zeroed; such a copy finds job.pid set and its own
 * word 0.  A load and a compare, no system call (getpid is one, about
 * 60 ns): every API call checks it.  Call launch_mark_self in the process
 * once it is its job's processor.
 */
extern pid_t *launch_self_pid;
void launch_mark_self(void);
static inline bool launch_forked_copy(void)
{
    return __builtin_expect(*launch_self_pid != job.pid, 0);
}

/* A failure of this job claimed by a process the processor forked (the
 * copy's refused call claims it in the tables it shares with the
 * processor): stop as a processor that saw it.  Else return.  On shm the
 * failure word wakes every waiter anyway; an mpi rank shares its tables
 * with its own forks only, and learns of their report here. */
void launch_stop_if_failed(void);

/* Fork nprocs-1 children; returns in every processor (0 in the caller). */
int launch_fork(uint32_t nprocs);

/* Start nprocs copies of 'path' (argv as given) on the segment of 'job'. */
int launch_spawn(const char *path, char *const argv[]);

/* One more descriptor (close-on-exec, as all of ours) that launch_spawn's
 * children keep across their exec: the flag is cleared in each child
 * between fork and exec.  -1: none (the Epiphany host's session segment). */
extern int launch_inherit_fd;

/* "NAME=value" entries (NULL-terminated; NULL: none) that launch_spawn's
 * children get in their environment, replacing the starter's variables of
 * those names: the starter's own environment is never changed (another
 * thread of it may read it meanwhile). */
extern char **launch_spawn_env;

/* In an exec'd processor: map the segment named by the environment. */
bool launch_attach(void);

/* Ending: a child exits here; the starter waits for every child first.
 * Returns the job's exit status for a spawning host (0: all ended cleanly). */
int launch_finish(void);

/* Every failure line of a job goes through here: claim the job's failure
 * with 'code' (the first claimant prints "superstep: <line>", after the
 * program's own output), then publish it, which wakes every waiter; and
 * return, for a caller that stops afterwards or, a host, goes on.  'line'
 * is one line already (launch_one_line); NULL claims without a line (a
 * kernel's bsp_abort, whose line is Epiphany BSP's own). */
void launch_report(uint32_t code, const char *line);

/* The failed job's line (NULL when none was kept) and when its failure
 * was claimed (CLOCK_MONOTONIC ns; 0: no failure seen here), once the
 * failure is published.  A device that reports its own failures outside
 * launch_report (mpi) keeps its line with launch_keep_failure. */
const char *launch_failure_line(int64_t *at_ns);
void launch_keep_failure(const char *line);

/* Does fd take output before the job's failure is SUPERSTEP_ABORT_TIMEOUT
 * old?  A pipe that nobody reads never does: after a failure, the
 * library's own writes (its line, the flushes of the program's output,
 * the profile's notes) skip it rather than hang the job, which must end
 * (its exit status still says that it failed; a line that could not be
 * written is lost there, kept in the failed job's trace).  A processor
 * blocked in its own write is killed as one that computes.  Async-signal-
 * safe. */
bool launch_takes_output(int fd);
/* The same with the deadline given ('until', now_ns's clock; 0: none): for
 * the mpi device's failure paths, whose ranks share no failure tables. */
bool launch_output_until(int fd, int64_t until);

/* Report a failure (printed once for the whole job) and stop everything.
 * Never returns in a processor; a spawning host gets control back. */
void launch_fail(uint32_t code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void launch_vfail(uint32_t code, const char *fmt, va_list ap) __attribute__((noreturn));

/* Make a user's text fit one diagnosis line, in place, within cap bytes:
 * trailing newlines dropped, interior ones shown as "\n" (text.c). */
void launch_one_line(char *msg, size_t cap);
/* Async-signal-safe text building (for signal handlers and the supervisor):
 * append s, or v in decimal, at buf[at], NUL-terminated within cap; return
 * the new length. */
size_t launch_put_str(char *buf, size_t at, size_t cap, const char *s);
size_t launch_put_u64(char *buf, size_t at, size_t cap, uint64_t v);
/* "killed by signal 9 (SIGKILL)" at buf[at]. */
size_t put_killed(char *buf, size_t at, size_t cap, int sig);

/* "; processor 1 was computing, processors 0 and 2 were in bsp_sync" (after
 * 'lead' instead of "; "), for a job interrupted while the processor named
 * was in superstep 'step' (each other superstep is named), from the n
 * entries' call words (launch_words.calls); entries whose os_pid is
 * negative are left out (processors elsewhere).  Async-signal-safe. */
size_t launch_put_where(char *buf, size_t at, size_t cap, const char *lead, const struct launch_proc *proc,
                        uint32_t n, uint64_t step);

/* Wait for another processor to report a failure it is known to report
 * (so that one processor names a collective mismatch), then stop. */
void launch_await_failure(void) __attribute__((noreturn));

/* How failure reports name a processor: BSP's words unless the layer that
 * starts the job sets its own ("node 3 ... without calling mp_quit"). */
struct launch_words {
    const char *proc;      /* "processor" */
    uint32_t first;        /* the number reports give processor 0: 0 */
    const char *end_call;  /* the call that ends a processor: "bsp_end" */
    bool steps;            /* name the superstep: true */
    const char *const *calls; /* the names of the call words (struct launch_proc's 'call'; 0: computing), */
    uint32_t ncalls;          /* for the line of an interrupted job; NULL: not named */
};
extern struct launch_words launch_words;

/* Route the fatal signals (SEGV, BUS, FPE, ILL, ABRT) to 'handler', which
 * runs once (the default action is back for a re-raise); NULL restores the
 * defaults. */
void launch_catch_fatal_signals(void (*handler)(int));

/* In a fatal-signal handler, after the report: hand the signal to the
 * program's own action (restored), or the default; 'si' may be NULL. */
void launch_chain_signal(int sig, const siginfo_t *si);

/* Every processor, whatever the device, once started: standard output and
 * error line-buffered, so that lines of different processors never mix
 * inside a line, also into a file or a pipe. */
void launch_buffer_lines(void);

/* Before reporting that a direct transfer with processor 'peer' failed with
 * 'err': when the peer's process is gone (ESRCH) without having ended
 * cleanly, its death is certain to be reported (by the monitor, or the
 * supervisor for the starter), so wait for that report, however long it
 * takes, and stop: the death is what gets named, with its signal or status.
 * Else return (the caller's own line is the right one). */
void launch_stop_if_peer_died(uint32_t peer, int err);

/* The state of processor p's process, as /proc/PID/stat's third field
 * tells ('T' stopped by a signal, 't' by its tracer, 'Z' ended and not
 * yet reaped); 0 when its pid is not known here (a remote MPI rank) or
 * /proc cannot be read. */
char launch_proc_state(uint32_t p);

/* A processor waiting for p, when its watch finds p late
 * (SUPERSTEP_STALL_TIMEOUT) or, asleep, finds the monitor stopped
 * (launch_monitor_stopped): p's process may have died unseen, its monitor
 * being stopped (processor 0 stopped by SIGSTOP or a debugger, and with it
 * its monitor thread; p, its child, stays a zombie until then).  Then
 * report p's death as the monitor would (the zombie's /proc entry tells
 * how it ended; when the monitor reports it too, the first claimant
 * prints), kill the monitor's process if it is stopped (it cannot stop the
 * job; every processor dies with it, PR_SET_PDEATHSIG, and its supervisor
 * ends as it ended: by SIGKILL), and stop; else return. */
void launch_stop_if_dead(uint32_t p);

/* Whether the process whose monitor watches this processor (its parent,
 * the run's starter) is stopped (SIGSTOP, a debugger): then nobody reports
 * a death of a processor but those waiting for it (launch_stop_if_dead).
 * false in the starter (its monitor runs while it does) and where no
 * processor was forked here (mpi). */
bool launch_monitor_stopped(void);

/* Called by a processor that saw the failure word set while waiting. */
void launch_stopped(void) __attribute__((noreturn));

/* Set by a device whose processors no monitor watches (mpi): launch_fail
 * hands it the failure line (without "superstep: "), launch_stopped NULL;
 * it prints the line once for the job and stops every processor with
 * 'code'.  NULL on shm. */
extern void (*launch_fail_hook)(uint32_t code, const char *msg);

/* Called once in the starting process when the job has failed, after every
 * other processor is stopped and before it exits (the profiler keeps its
 * trace); NULL when unset. */
extern void (*launch_failed_hook)(void);

/* Called when a process of this job claims a failure that the launch layer
 * reports (an inner run's, on the mpi device: the rank's watcher then names
 * nothing); false when the device's job already has its line (another
 * rank's failure on this machine): then this one is not printed.
 * Async-signal-safe; NULL on shm. */
extern bool (*launch_claimed_hook)(void);

static inline void launch_set_step(uint64_t step)
{
    atomic_store_explicit(&job.ls->proc[job.me].step, step, memory_order_relaxed);
    if (job.step_mirror)
        atomic_store_explicit(job.step_mirror, step, memory_order_relaxed);
    if (job.node_mirror)
        atomic_store_explicit(&job.node_mirror->step, step, memory_order_relaxed);
}

/* Nested runs (MulticoreBSP's hierarchical BSP): a processor of a job
 * starts a job of its own by launch_fork, as its processor 0.  Before,
 * launch_nest_enter sets this process's job aside (job is fresh, no device
 * hooks, no supervisor); after its launch_finish, launch_nest_leave gives it
 * back.  A failure in the inner job claims and publishes it in every job
 * around it too, and its line ends with where the inner job was started.
 * Returns 0 or -errno (-EMLINK: nested too deep). */
int launch_nest_enter(void);
void launch_nest_leave(void);
uint32_t launch_nest_depth(void);

/* Environment variables that carry the job to an exec'd processor. */
#define ENV_SEGMENT_FD "SUPERSTEP_SEGMENT_FD"
#define ENV_PROC_ID "SUPERSTEP_PROC_ID"

#endif
