/*
 * supervise.h - the process the shell waits for stays outside the job.
 *
 * The process that starts a job on this machine (processor 0 of BSPlib,
 * node 1 of mp.h, an Epiphany host) forks once, at its first job.  The
 * original process becomes the supervisor: it only waits, forwards the
 * termination signals sent to it, and ends as the worker (the child, which
 * goes on as the program) ended.  A worker that leaves while a job runs
 * without the ending call, in a way no code of its own can report (_exit,
 * exec of another program, a signal that cannot be caught such as SIGKILL),
 * is named by the supervisor with one line, and the exit is non-zero.
 * See docs/architecture.md, "The supervisor".
 */
#ifndef SUPERSTEP_SUPERVISE_H
#define SUPERSTEP_SUPERVISE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Fork the supervisor unless this process already is a supervised worker;
 * returns in the worker: 0, or -errno (no supervisor, nothing changed). */
int supervise_start(void);

/* A job starts in the worker: supervise_page_arm on the supervisor's page
 * (NULL without a supervisor). */
_Atomic uint64_t *supervise_job(const char *who, const char *end_call, const char *where, bool steps);

/* The job ended cleanly, or its failure is being reported by the runtime
 * (someone claimed it): from now on the supervisor only mirrors the
 * worker's status.  Safe in a signal handler and in any processor. */
void supervise_settled(void);

/* In a process the worker forked (a processor): give up the worker's end of
 * the exec detection, so that only the worker holds it. */
void supervise_forget(void);

/* A forked process that closed a close-on-exec pipe only it held, and did
 * not end cleanly: did it exec (true), or is it exiting?  Told by the
 * kernel's state (its PF_FORKNOEXEC flag, kept also once it has ended), not
 * by a delay nor by its name (which the program may change).
 * Async-signal-safe. */
bool supervise_execd(pid_t pid);

/* Field 'field' (numbered as proc(5) numbers them, 3 or above) of
 * /proc/PID/stat as a number, and the process's state (field 3: 'Z' a
 * zombie) in *state; false when it cannot be read or the field is no
 * non-negative number.  Also readable for a zombie.  Async-signal-safe. */
bool supervise_proc_stat(pid_t pid, int field, char *state, uint64_t *value);

/* What a watcher names a process by, on a page that the process (and the
 * processes it forks) and its watcher share: the supervisor's page for its
 * worker, mpi_watch.c's for its rank. */
enum { WATCH_IDLE, WATCH_ARMED, WATCH_SETTLED };
struct watch_page {
    _Atomic uint32_t state;    /* WATCH_ARMED: a job runs that nobody has reported or ended */
    _Atomic uint64_t step;     /* the process's superstep (job.step_mirror) */
    uint32_t steps;            /* name the superstep */
    uint64_t caught;           /* mpi_watch.c: the runtime's fault signals the rank catches */
    char who[32], end_call[32], where[64];
};

/* A page shared with the processes forked from now on; NULL: none. */
struct watch_page *supervise_page_new(void);

/* A job starts: the line will name 'who' ("processor 0", "node 1", "host"),
 * 'end_call' the call that ends it ("bsp_end"), 'where' follows what
 * happened ("" or " in ebsp_spmd"); with 'steps' the superstep instead.
 * Returns where the process mirrors its superstep. */
_Atomic uint64_t *supervise_page_arm(struct watch_page *pg, const char *who, const char *end_call,
                                     const char *where, bool steps);

/* The page's line: "WHO WHAT", where or superstep, and "without calling
 * END_CALL" when 'without'.  Async-signal-safe. */
void supervise_page_report(const struct watch_page *pg, const char *what, bool without);

/* The page's line for a process that ended with wait status 'status' (-1:
 * unknown how).  Async-signal-safe. */
void supervise_page_report_end(const struct watch_page *pg, int status);

/* The wait status of a process that has ended and is not yet reaped (its
 * exit code, field 52 of /proc/PID/stat); -1 when it runs, is gone, or
 * cannot be read.  Async-signal-safe. */
int supervise_zombie_status(pid_t pid);

/* "superstep: WHO WHAT in superstep STEP[ without calling END_CALL]\n"
 * (with 'steps'; else WHERE follows WHAT) on stderr, in one write; no
 * END_CALL part when it is NULL or "".  The supervisor's line, and the
 * mpi device's watcher's.  Async-signal-safe. */
void supervise_report(const char *who, const char *what, bool steps, uint64_t step, const char *where,
                      const char *end_call);

/* Close every descriptor above 2 but the n in keep (-1: none), so that
 * a pipe whose reader waits to see it closed stays open nowhere here.  For
 * the watching processes (the supervisor, mpi's per-rank watcher) after
 * their fork.  Async-signal-safe. */
void supervise_close_all_but(const int *keep, int n);

#endif
