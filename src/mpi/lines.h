/* lines.h - whole output lines for processes whose output a launcher
 * forwards (the ranks of an MPI job): see lines.c. */
#ifndef SUPERSTEP_DEVICE_LINES_H
#define SUPERSTEP_DEVICE_LINES_H

#include <stdint.h>

/* From now on stdout and stderr go out a whole line per write. */
void lines_whole(void);

/* The job has failed: from now on a write to stdout or stderr waits at
 * most until 'deadline' (now_ns's clock; 0: none; the first call's
 * counts) for the descriptor to take output, and is dropped after it (a
 * pipe that nobody reads must not hang the failed job).  The failure
 * paths pass SUPERSTEP_ABORT_TIMEOUT's deadline.  Async-signal-safe. */
void lines_failing(int64_t deadline);

/* Write what is pending (a last line without its newline): before _exit. */
void lines_flush(void);

/* Wait until the launcher has read what stdout and stderr hold, where they
 * are pipes, or until 'deadline' (now_ns's clock; 0: none): before a job
 * is aborted, whose launcher stops reading a rank once it is told
 * (docs/mpi.md, "Vendor notes", drop-pipes).  The failure paths pass SUPERSTEP_ABORT_TIMEOUT's deadline. */
void lines_drain(int64_t deadline);

/* Wait until the reader of pipe fd has taken everything, or is gone, or
 * until 'deadline' (as above): there is no event for an emptied pipe.
 * Async-signal-safe. */
void lines_await_drained(int fd, int64_t deadline);

#endif
