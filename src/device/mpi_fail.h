/* mpi_fail.h - what the mpi device (mpi.c) shares with mp.h's MPI transport
 * and the Epiphany host and kernels on MPI: starting MPI, the one wait, and
 * the one failure path.  Only in builds with MPI. */
#ifndef SUPERSTEP_DEVICE_MPI_FAIL_H
#define SUPERSTEP_DEVICE_MPI_FAIL_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>

/* MPI_Init unless the program did, with what Superstep's ranks need: the
 * process mpirun started stays outside as the rank's supervisor (forked
 * before MPI starts), Open MPI's PMIx uses its "hash" data store (see
 * mpi.c), and the ranks of this machine share a page (the waits' bell, the
 * failure line's claim).  True when this call started MPI. */
bool mpi_init_library(void);

/* The one wait, polling MPI: until ready(arg) (which tests requests,
 * probes) is true.  It never sleeps while this machine has a CPU for each
 * of the job's ranks on it; else, after spinning and yielding, it sleeps
 * on the machine's bell (rung when a rank begins a wait: mpi_ring), at
 * most 1 us doubling to 1 ms at a time, since MPI's progress rings no
 * bell.  'collective': SUPERSTEP_STALL_TIMEOUT watches it.  mpi_idle_poll,
 * when set, is called at each look (a kernel looks there for its host's
 * stop, src/ebsp/kmpi.c). */
void mpi_wait_until(bool (*ready)(void *arg), void *arg, bool collective);
void mpi_wait_all(int n, MPI_Request *r);
void mpi_ring(void);
extern void (*mpi_idle_poll)(void);

/* 'others' processes of the job run on this machine beside its ranks (an
 * Epiphany host's kernels while they run): waits may sleep when they and
 * the ranks outnumber the CPUs. */
void mpi_share_machine(int others);

/* The one failure path: print 'msg' once (NULL: another rank reports),
 * then stop the job with 'code' (MPI_Abort).  A rank that does not print
 * waits to be stopped by the one that does.  Never returns. */
void mpi_fail(uint32_t code, const char *msg) __attribute__((noreturn));

/* Shall this failing rank print the job's line?  No when another rank has
 * said that it fails, or a rank of this machine has claimed the line
 * (mpi_claim_line: a compare-and-swap, safe in a signal handler). */
bool mpi_first_to_fail(void);
bool mpi_claim_line(void);

/* MPI_Abort(MPI_COMM_WORLD, code), once this rank's line is out.  With
 * MPICH its stderr goes to /dev/null first: MPICH's MPI_Abort prints
 * "Abort(1) on node 1 (rank 1 in comm 0): ..." there (even with
 * MPIR_CVAR_SUPPRESS_ABORT_MESSAGE=1 a part of it), a second line beside
 * the job's one failure line.  Open MPI's notice goes through mpirun (-q
 * silences it). */
void mpi_abort_job(int code) __attribute__((noreturn));

/* Wait until the launcher stops this rank (another rank reports the
 * failure and aborts the job). */
void mpi_await_stop(void) __attribute__((noreturn));

/* End this rank by the fatal signal sig, its line printed: its supervisor
 * passes 128 + sig to the launcher, which stops the job. */
void mpi_die_by_signal(int sig) __attribute__((noreturn));

/* A kernel whose host stopped the run (EM_STOP, already received) answers
 * EM_STOPPED, leaves its host and ends with status 0: ending otherwise
 * would make mpirun stop the whole job, the host with it. */
void mpi_leave_stopped(MPI_Comm parent) __attribute__((noreturn));

#endif
