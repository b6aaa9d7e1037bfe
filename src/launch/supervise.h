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

/* A job starts in the worker.  'who' names it in the line ("processor 0",
 * "node 1", "host"), 'end_call' is the call that ends it ("bsp_end"),
 * 'where' follows the name ("" or " in ebsp_spmd"); with 'steps' the line
 * names the superstep instead.  Returns where the worker mirrors its
 * superstep (NULL without a supervisor). */
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
