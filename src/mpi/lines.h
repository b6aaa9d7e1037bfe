/* lines.h - whole output lines for processes whose output a launcher
 * forwards (the ranks of an MPI job): see lines.c. */
#ifndef SUPERSTEP_DEVICE_LINES_H
#define SUPERSTEP_DEVICE_LINES_H

#include <stdint.h>

/* From now on stdout and stderr go out a whole line per write. */
void lines_whole(void);

/* Write what is pending (a last line without its newline): before _exit. */
void lines_flush(void);

/* Wait until the launcher has read what stdout and stderr hold, where they
 * are pipes, or until 'deadline' (now_ns's clock; 0: none): before a job
 * is aborted, whose launcher stops reading a rank once it is told (MPICH's
 * Hydra).  The failure paths pass SUPERSTEP_ABORT_TIMEOUT's deadline. */
void lines_drain(int64_t deadline);

/* Wait until the reader of pipe fd has taken everything, or until
 * 'deadline' (as above): there is no event for an emptied pipe.  Async-
 * signal-safe. */
void lines_await_drained(int fd, int64_t deadline);

#endif
