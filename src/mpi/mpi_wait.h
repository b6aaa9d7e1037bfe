/* mpi_wait.h - the one wait of every process that waits on MPI (mpi_wait.c):
 * the mpi device's exchanges, mp.h's MPI transport, the Epiphany host and
 * its kernels on MPI.  Only in builds with MPI (the mpi plug-in). */
#ifndef SUPERSTEP_DEVICE_MPI_WAIT_H
#define SUPERSTEP_DEVICE_MPI_WAIT_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Look at ready(arg) (an MPI_Test, an MPI_Iprobe: it makes MPI progress)
 * until it is true, or until now_ns() reaches 'deadline' (0: never); false
 * then.  While this node has a CPU for each of its runnable processes the
 * wait spins (never sleeps, never yields).  Where they outnumber its CPUs
 * it yields after each of its looks 65 to 128, and sleeps between looks
 * after that (1 us doubling to 1 ms): a nap, not an event (mpi_wait.c
 * says why).  mpi_idle_poll, when set, is called
 * at each look (a kernel looks there for its host's stop). */
bool mpi_wait_until(bool (*ready)(void *arg), void *arg, int64_t deadline);

/* MPI_Waitall of n requests, by mpi_wait_until; false at 'deadline'. */
bool mpi_wait_all_until(int n, MPI_Request *r, int64_t deadline);
void mpi_wait_all(int n, MPI_Request *r); /* no deadline */

/* Wait for a message from src with tag on c (MPI_ANY_*: any), its status
 * in *st (MPI_STATUS_IGNORE: none), not received; false at 'deadline'. */
bool mpi_wait_probe(int src, int tag, MPI_Comm c, MPI_Status *st, int64_t deadline);

/* Decide, collectively on c (every rank of c calls it, once), whether this
 * node is crowded: more ranks of c here (MPI_COMM_TYPE_SHARED) than CPUs
 * in the union of their affinity masks (the CPUs the job may use here: its
 * cpuset, cgroup or taskset; mpirun's binding of each rank to one core
 * says nothing of how many the ranks share).  A kernel spawned by an
 * Epiphany host is crowded (the host's kernels come beside the ranks). */
void mpi_wait_decide(MPI_Comm c);

/* May this rank call a blocking collective where another rank calls one
 * too (no node of the job crowded, as mpi_wait_decide decided)?  Else the
 * collective is non-blocking, in the one wait.  The same answer on every
 * rank: a blocking and a non-blocking collective never match (MPI 3.0,
 * 5.12), and a job whose nodes disagreed hung (3 ranks on 2 nodes). */
bool mpi_wait_blocking_collectives(void);

/* More runnable processes on this node than its CPUs?  As mpi_wait_decide
 * decided; where nothing decided (an Epiphany host's processes), crowded
 * in a spawned kernel only. */
bool mpi_wait_crowded(void);

/* The job starts other processes on this node (an Epiphany host's
 * kernels): its waits are crowded from now on. */
void mpi_wait_set_crowded(void);

/* Which ranks of c watch their collective waits (SUPERSTEP_STALL_TIMEOUT
 * watches: 'watching' on this rank): a byte per rank, malloc'd; NULL when out of
 * memory.  Collective: the ranks agree on how they tell where they are,
 * even where only some have the setting.  pids, when not NULL, gets each
 * rank's pid where this rank can read its /proc entry (the same kernel
 * and pid namespace), else 0: so a late peer stopped by a signal is
 * named stopped, as on shm. */
uint8_t *mpi_wait_watchers(MPI_Comm c, bool watching, pid_t *pids);

extern void (*mpi_idle_poll)(void);

#endif
