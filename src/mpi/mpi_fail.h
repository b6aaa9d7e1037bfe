/* mpi_fail.h - one failure line per MPI job (mpi.c), for the mpi device and
 * mp.h's MPI transport.  Only in builds with MPI. */
#ifndef SUPERSTEP_DEVICE_MPI_FAIL_H
#define SUPERSTEP_DEVICE_MPI_FAIL_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

/* Shall this failing rank print its line?  None after another has said
 * that it fails; it tells every rank that it fails, and of the ranks of
 * one machine that fail together the first to claim the line prints. */
bool mpi_first_to_fail(void);

/* MPI_Init, with what Superstep's ranks need of the MPI library (docs/mpi.md, "Vendor notes",
 * spawn-hang). */
void mpi_init_library(void);

/* MPI_Abort(MPI_COMM_WORLD, code), once this rank's line is out (where
 * MPI_Abort prints a line of its own, stderr goes to /dev/null first:
 * docs/mpi.md, "Vendor notes", abort-message). */
void mpi_abort_job(int code) __attribute__((noreturn));

/* Read SUPERSTEP_ABORT_TIMEOUT (and the world rank) once, MPI being up:
 * the failure paths, signal handlers among them, use what was read. */
void mpi_fail_arm(void);
/* SUPERSTEP_ABORT_TIMEOUT in seconds (0: no limit), read at the first call
 * (mpi_fail_arm's, or the watcher's start before MPI is up): no MPI call. */
uint64_t mpi_abort_limit(void);

/* now_ns() + SUPERSTEP_ABORT_TIMEOUT, or 0 where the setting is 0 (no
 * limit): until when a process waits for another to act on a failure. */
int64_t mpi_abort_deadline(void);
/* The same with half the setting: until when a failing process waits for
 * its launcher to read its last lines (lines_drain), so that the ranks
 * waiting for its abort (the whole setting) do not give up first. */
int64_t mpi_drain_deadline(void);

/* Another rank prints the job's line and stops the job (or the launcher
 * does, for a rank that died): wait for that, which ends this process.
 * Should it not come within SUPERSTEP_ABORT_TIMEOUT seconds (0: wait for
 * ever), print a line saying that the limit expired and abort the job. */
void mpi_await_abort(int code) __attribute__((noreturn));

/* End this rank by the fatal signal sig, its line printed: the job's
 * status is 128 + sig, as on shm.  Where the launcher would report another
 * signal, the rank aborts the job with 128 + sig instead (docs/mpi.md, "Vendor notes",
 * signal-status); should that abort not come back within
 * SUPERSTEP_ABORT_TIMEOUT (a fault inside MPI), a line says that the limit
 * expired and the rank ends by the signal. */
void mpi_die_by_signal(int sig) __attribute__((noreturn));

/* A kernel whose host stopped the run (EM_STOP, already received) answers
 * EM_STOPPED, leaves its host and ends with status 0: ending otherwise
 * would make mpirun stop the whole job, the host with it. */
void mpi_leave_stopped(MPI_Comm parent) __attribute__((noreturn));

#endif
