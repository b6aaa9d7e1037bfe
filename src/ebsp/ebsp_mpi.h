/*
 * ebsp_mpi.h - an Epiphany kernel on the mpi device (kmpi.c): its side of
 * the protocol of session/session_mpi.h.
 */
#ifndef SUPERSTEP_EBSP_MPI_H
#define SUPERSTEP_EBSP_MPI_H

#include <stdint.h>

#ifdef SUPERSTEP_HAVE_MPI
#include <stdbool.h>

/* The kernel's side (kmpi.c). */
bool kmpi_spawned(void);          /* started by a host's ebsp_spmd on mpi */
int kmpi_begin(void);             /* receive the session; returns p */
void kmpi_line(const char *text, uint32_t len);
void kmpi_host_sync(void);
void kmpi_end(void);
void kmpi_abort(void) __attribute__((noreturn));
#else /* without MPI no kernel is spawned, and nothing below is called */
#include <stdbool.h>
#include <stdlib.h>
static inline bool kmpi_spawned(void) { return false; }
static inline int kmpi_begin(void) { return 1; }
static inline void kmpi_line(const char *text, uint32_t len) { (void)text, (void)len; }
static inline void kmpi_host_sync(void) {}
static inline void kmpi_end(void) {}
static inline __attribute__((noreturn)) void kmpi_abort(void) { abort(); }
#endif

#endif
