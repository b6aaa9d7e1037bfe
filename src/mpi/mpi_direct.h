/* mpi_direct.h - bsp_direct_get on the mpi device (mpi_direct.c): the
 * device's expose, withdraw, remote_read and applied (device.h).  Only in
 * the mpi plug-in. */
#ifndef SUPERSTEP_DEVICE_MPI_DIRECT_H
#define SUPERSTEP_DEVICE_MPI_DIRECT_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct counted_word;

/* Collective over c, at the device's begin and end. */
void mpi_direct_open(MPI_Comm c);
void mpi_direct_close(void);

void mpi_direct_expose(const void *addr, uint64_t size);
void mpi_direct_withdraw(const void *addr, uint64_t size);
bool mpi_direct_read(uint32_t src, void *dst, uint64_t at, uint64_t n, uint32_t step, char *why, size_t cap);

/* Where MPI has no window for the reads, they go two-sided: the owner
 * answers in its waits (mpi_wait.c calls mpi_direct_serve at every look;
 * it returns at once where reads are one-sided), and no exchange may
 * wait in a blocking collective meanwhile. */
bool mpi_direct_two_sided(void);
void mpi_direct_serve(void);

/* This rank's 'applied' word, in the window. */
extern struct counted_word *const mpi_direct_applied;

#endif
