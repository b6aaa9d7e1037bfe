/* lines.h - whole output lines for processes whose output a launcher
 * forwards (the ranks of an MPI job): see lines.c. */
#ifndef SUPERSTEP_DEVICE_LINES_H
#define SUPERSTEP_DEVICE_LINES_H

/* From now on stdout and stderr go out a whole line per write. */
void lines_whole(void);

/* Write what is pending (a last line without its newline): before _exit. */
void lines_flush(void);

/* Wait (at most 1 s each) until the launcher has read what stdout and
 * stderr hold, where they are pipes: before a job is aborted, whose
 * launcher stops reading a rank once it is told (MPICH's Hydra). */
void lines_drain(void);

/* Wait (at most 1 s) until the reader of pipe fd has taken everything:
 * there is no event for an emptied pipe.  Async-signal-safe. */
void lines_await_drained(int fd);

#endif
