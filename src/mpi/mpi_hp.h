/* mpi_hp.h - bsp_hpput and bsp_hpget on the mpi device without a staging
 * copy (mpi_hp.c): the device's direct_write and direct_read, carried by
 * two-sided messages inside the sync's exchange.  Only in the mpi plug-in. */
#ifndef SUPERSTEP_DEVICE_MPI_HP_H
#define SUPERSTEP_DEVICE_MPI_HP_H

#include <mpi.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Fewer bytes go through the streams (device.h, direct_min): measured
 * (bench/RESULTS_mpi.md, "hp transfers"), a copy there costs less than
 * MPI's handling of a piece below it. */
#define MPI_HP_DIRECT_MIN 4096

/* At the device's begin and end: the communicator of the processors. */
void mpi_hp_open(MPI_Comm c, uint32_t p);
void mpi_hp_close(void);

/* device.h's direct_write and direct_read: queue the pieces (the bytes at
 * local[i] to, or from, processor peer's remote[i]); they move in the next
 * exchange.  False (errno set) when out of memory. */
bool mpi_hp_write(uint32_t dst, const struct iovec *local, const struct iovec *remote, size_t n);
bool mpi_hp_read(uint32_t src, const struct iovec *local, const struct iovec *remote, size_t n);

/* The exchange's counts: at words[q * stride], the descriptors queued
 * towards q since the last exchange.  Writes only where a word changes
 * (the empty superstep's cost). */
void mpi_hp_counts(uint64_t *words, size_t stride);

/* In an exchange, after the counts: take the n messages processor q
 * queued towards this one (theirs[q]) and start what they ask, then wait
 * until every transfer of this processor's, both ways, is done. */
void mpi_hp_exchange(const uint64_t *theirs, size_t stride);

#endif
