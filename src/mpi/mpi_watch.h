/* mpi_watch.h - the rank's watcher (mpi_watch.c): names a rank of an MPI
 * job that ends in a way no code of its own can report (a signal it does
 * not catch, SIGKILL, _exit), with one line, as the supervisor does for
 * processor 0 on shm.  Only in builds with MPI (the mpi plug-in).
 *
 * The rank makes it, a child of its own, before MPI_Init (MPI stays in the
 * process the launcher started; the fork copies a small process).  It learns of the rank's end
 * from the kernel (a pidfd of the rank) and how it ended from the kernel too
 * (the pidfd's exit information, or the zombie's /proc entry), never from a
 * delay.  The job's failure line is claimed once per launcher and machine:
 * a socket bound to a name derived from the launcher's pid (the ranks of a
 * machine share their launcher), bound by the rank that prints its own
 * failure or by the watcher that prints its rank's end, and held until the
 * launcher ends.  A rank stopped by its launcher is no failure: the
 * SIGTERM with which the launcher stops every rank after a failure, and a
 * SIGKILL of the rank's process group (the watcher is in it and goes with
 * it); docs/mpi.md, "Errors and faults", says how each launcher stops. */
#ifndef SUPERSTEP_DEVICE_MPI_WATCH_H
#define SUPERSTEP_DEVICE_MPI_WATCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* Fork the watcher (once per process; before MPI_Init).  Without one (the
 * fork failed, no pidfd, MPI started by the program) the others below do
 * nothing, and the claim is the rank's alone, released as it ends. */
void mpi_watch_start(void);

/* MPI_Init comes, in processor 'proc' (the launcher's rank): until
 * mpi_watch_disarm, an end is named "in MPI_Init" (a rank whose MPI cannot
 * start leaves the others waiting in theirs). */
void mpi_watch_starting(long proc);

/* This rank is processor 'proc' in a job: from now until settled, an end
 * that nobody reports is named.  Returns where the rank mirrors its
 * superstep (job.step_mirror), NULL without a watcher. */
_Atomic uint64_t *mpi_watch_arm(uint32_t proc);

/* The job ended cleanly, or the rank reports its own failure: the watcher
 * names nothing.  Async-signal-safe. */
void mpi_watch_settle(void);

/* The rank ends cleanly (after MPI_Finalize; an exit handler, and before
 * an _exit): the watcher ends and the rank reaps it, so that nothing of it
 * is left, not even to init.  Kept where this rank holds the claim. */
void mpi_watch_end(void);

/* Does the rank still hold its end of the watcher's socket?  False after
 * the program closed descriptors it does not own (every one above 2, say):
 * MPI's went with it, and MPI may block for ever.  Asked before the
 * exchange of every bsp_sync and bsp_end, and at mp_quit, which then fail
 * with a line. */
bool mpi_watch_intact(void);

/* Did srun start this rank itself, not through an mpirun (docs/mpi.md,
 * "Vendor notes", srun-signal)?  Then srun does not stop the job for a
 * rank's death by a signal: the rank (mpi_die_by_signal) or its watcher
 * aborts it. */
bool mpi_srun_direct(void);
#define MPI_WATCH_CLOSED                                                                                  \
    "descriptors of the runtime and of MPI were closed by the program (the watcher's socket is gone), so " \
    "the job cannot go on; close only descriptors the program opened"

/* A run ended and MPI stays up for the next (mpi.c): the watcher names
 * nothing until armed again, and keeps what it needs to name an end then. */
void mpi_watch_disarm(void);

/* The claim below, where no watcher was started (MPI initialised by the
 * program, mp.h's transport): its socket and the job's name. */
void mpi_watch_claim_open(void);

/* Claim the job's failure line on this machine: true when this rank (or a
 * rank without a claim) may print it, false when another rank's failure
 * was claimed first.  Async-signal-safe. */
bool mpi_watch_claim(void);

/* Does this rank (or an inner processor of it) hold this machine's claim:
 * is the job's line its own?  Async-signal-safe. */
bool mpi_watch_holds_claim(void);

/* launch_claimed_hook: the launch layer reports a failure of an inner run
 * that this rank started (from the rank or one of its inner processors,
 * which share the page and the claim): settle and claim; false when
 * another rank of this machine holds the claim (the launcher stops this
 * rank's inner run for that rank's failure).  Async-signal-safe. */
bool mpi_watch_claimed(void);

#endif
