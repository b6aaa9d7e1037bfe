/* mpi_fail.h - one failure line per MPI job (mpi.c), for the mpi device and
 * mp.h's MPI transport.  Only in builds with MPI. */
#ifndef SUPERSTEP_DEVICE_MPI_FAIL_H
#define SUPERSTEP_DEVICE_MPI_FAIL_H

#include <stdbool.h>

/* Shall this failing rank print its line?  It tells every rank that it
 * fails and listens 60 ms: of ranks that fail together only the lowest
 * prints, and none after another has said that it fails. */
bool mpi_first_to_fail(void);

#endif
