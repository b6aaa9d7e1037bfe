/* mpi_node.h - the node page (mpi_node.c): each processor of this machine's
 * superstep and call (a launch_proc entry, job.node_mirror), in one page
 * that every rank of the machine maps, so that the line of an interrupted
 * job says where each processor was (mpi_watch.c), as on shm.  Only in
 * the mpi plug-in. */
#ifndef SUPERSTEP_DEVICE_MPI_NODE_H
#define SUPERSTEP_DEVICE_MPI_NODE_H

#include <mpi.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct launch_proc;

/* Collective over c (p processors, this one 'me'), at the device's begin:
 * returns this processor's entry, NULL where the page cannot be had (no
 * memfd, another rank's descriptor not to be opened): then the line
 * names no other processor. */
struct launch_proc *mpi_node_open(MPI_Comm c, uint32_t p, uint32_t me);
void mpi_node_close(void);

/* The page's p entries (those of processors on other machines have a
 * negative os_pid), NULL when none; *whole: every processor of the job is
 * on this machine.  Async-signal-safe. */
const struct launch_proc *mpi_node_entries(uint32_t *p, bool *whole);

/* Has a processor of this machine other than this one ended without its
 * ending call, or is it ending?  Then a SIGTERM from the launcher is its
 * stop of the job after that failure, not an interrupt.  Async-signal-safe. */
bool mpi_node_one_failed(void);

/* Is process pid exiting or ended (or gone), rather than running on?
 * Async-signal-safe. */
bool mpi_pid_exiting(pid_t pid);

#endif
