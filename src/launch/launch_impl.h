/*
 * launch_impl.h - what the files of the launch layer share; no other layer
 * includes it (launch.h is the layer's header).
 *
 * The files, each one idea:
 *   start.c     forking or spawning the processors, and their end;
 *   monitor.c   the thread that watches the processors a run started;
 *   failure.c   the job's one failure line, and how a processor stops;
 *   signals.c   the starter's signal handlers and the interrupt line;
 *   nest.c      nested runs (a processor starting a run of its own);
 *   text.c      async-signal-safe text, and a user's text on one line;
 *   supervise.c the supervisor outside the job (supervise.h).
 */
#ifndef SUPERSTEP_LAUNCH_IMPL_H
#define SUPERSTEP_LAUNCH_IMPL_H

#include "launch/launch.h"

#include <poll.h>
#include <pthread.h>

/* ---- start.c -------------------------------------------------------------- */

/* The thread that started the run waits, should it end first, until the
 * run has ended (PR_SET_PDEATHSIG would kill the children at once). */
void watch_starter_thread(void);

/* ---- monitor.c ------------------------------------------------------------ */

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
extern struct monitor *mon;    /* the run this thread's calls act on */

/* The per-processor tables of 'mon' for nprocs, every descriptor -1. */
int monitor_tables(uint32_t nprocs);
void monitor_free_tables(struct monitor *m);
/* Start watching children [first_child, job.nprocs); host: the starter
 * is outside the job (launch_spawn), and gets control back at a failure. */
int monitor_start(uint32_t first_child, bool host);
/* The starter has ended cleanly: the monitor ends once every child has
 * (mon->result: a host's view of how the job ended). */
void monitor_end(void);
/* The starter failed: the monitor stops the others and ends the process. */
void monitor_take_over(void) __attribute__((noreturn));
/* SIGKILL to every child of 'm' not yet reaped.  Async-signal-safe. */
void monitor_kill_children(const struct monitor *m);
/* The failed-job hook, run once (by the monitor or processor 0's handler). */
void run_failed_hook(void);

/* ---- failure.c ------------------------------------------------------------ */

uint64_t proc_step(const struct launch_shared *ls, uint32_t p);
/* Claim the failure of the run with tables 'ls' at nesting 'depth' (and of
 * every run around it), print its line when first, publish it. */
void report_at(struct launch_shared *ls, uint32_t depth, uint32_t code, const char *line);
bool claim_failure_at(struct launch_shared *ls, uint32_t depth, uint32_t code);
void publish_failure_at(struct launch_shared *ls, uint32_t depth);
void keep_line(struct launch_shared *ls, const char *line);
bool takes_output(const struct launch_shared *ls, int fd);
void flush_output(const struct launch_shared *ls);
/* Processor p ended, not cleanly (si: how, as waitid tells): report it. */
void report_death(struct launch_shared *ls, uint32_t depth, uint32_t p, const siginfo_t *si);
/* " in superstep S" when reports name supersteps, else "". */
const char *step_text(const struct launch_shared *ls, char *buf, size_t n, uint32_t p);

/* ---- signals.c ------------------------------------------------------------ */

/* The termination requests the runtime catches (where the program left
 * them at their default) and the supervisor forwards. */
extern const int stop_signals[9];

/* "processor 1 killed by signal 2 (SIGINT) in superstep 3" at buf[at],
 * and for a termination request where every processor was.  Async-
 * signal-safe. */
size_t killed_text(char *buf, size_t at, size_t cap, const struct launch_shared *ls, uint32_t p, int sig);

/* The program's own signal actions that a run changed: saved when it
 * starts, given back when it ends (and set aside by an inner run). */
struct program_signals {
    struct sigaction action[NSIG];
    bool saved[NSIG];
    struct sigaction sigchld;  /* SIGCHLD, when the run set it to the default */
    bool sigchld_changed;
};
extern struct program_signals program_signals;

/* The starter catches the fatal signals and the termination requests
 * (catching_here: an outer run of this process does already). */
bool catching_here(void);
void catch_signals_in_starter(void);
void restore_all(void);
void give_back_alternate_stack(void);
/* SIGCHLD at its default while the run has children (the kernel would
 * reap them otherwise), given back in the children and at the end. */
void own_sigchld(void);
void give_back_sigchld(void);
/* In a processor of an inner run: the program's own actions. */
void nest_child_signals(void);

/* ---- nest.c --------------------------------------------------------------- */

/* nest_ls[d] is the tables of the run at depth d around the current one
 * (mapped in every process of the inner runs, which are forks of their
 * starter), and nest_where[d] the words a line of depth d ends with ("" at
 * depth 0); nest_depth, of the run this thread's calls act on. */
#define NEST_MAX 8
extern struct launch_shared *nest_ls[NEST_MAX];
extern char nest_where[NEST_MAX + 1][512];
extern uint32_t nest_depth;
extern bool nest_under_device; /* the outermost run has a device's failure path (mpi) */
/* A failed inner run that an MPI rank started ends the rank through the
 * outer device's failure path; does not return there. */
void nest_device_end(uint32_t depth, uint32_t code);

#endif
