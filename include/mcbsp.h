/*
 * mcbsp.h - MulticoreBSP for C's extensions, for Superstep.
 *
 * Includes bsp.h (which has bsp_direct_get and bsp_hpsend in every dialect)
 * and adds MulticoreBSP's machine and affinity interface.  Each BSP
 * processor is a process here, not a thread; "threads" below means BSP
 * processors, and "cores" the CPUs this program may run on.
 *
 * The settings take effect at the next bsp_begin, where every processor
 * pins itself to one CPU (on the shm device; with the mpi device mpirun
 * places the processes):
 *   SCATTER  processors spread evenly over the cores (processor s of P on
 *            core s * cores / P), the first hardware thread of each core
 *            before any second one;
 *   COMPACT  processor s on the s-th hardware thread, cores filled in order;
 *   MANUAL   processor s on CPU pinning[s] (mcbsp_set_pinning).
 * A call here overrides SUPERSTEP_AFFINITY=compact|scatter|none, which
 * overrides the default, SCATTER (as in MulticoreBSP, and measured faster
 * than no pinning: see docs/settings.md).
 */
#ifndef SUPERSTEP_MCBSP_H
#define SUPERSTEP_MCBSP_H

#include "bsp.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum mcbsp_affinity_mode { SCATTER = 0, COMPACT, MANUAL };

/* How hardware threads are numbered when a core has several: CONSECUTIVE
 * gives core i the numbers i*t .. i*t+t-1, WRAPPED the numbers i, i+c, ... */
enum mcbsp_thread_numbering { CONSECUTIVE = 0, WRAPPED };

/* The number bsp_nprocs() returns before bsp_begin (default: the CPUs this
 * program may run on, or SUPERSTEP_NPROCS). */
void mcbsp_set_maximum_threads(size_t max);
size_t mcbsp_get_maximum_threads(void);

void mcbsp_set_affinity_mode(enum mcbsp_affinity_mode mode);
enum mcbsp_affinity_mode mcbsp_get_affinity_mode(void);

/* Cores, and hardware threads per core.  Each getter returns what a call
 * set, else (available cores only) the SUPERSTEP_NPROCS of bsprun -n,
 * else the value of a machine.info file in the working directory (read as
 * MulticoreBSP reads it), else the default: the CPUs this program may
 * run on, 1. */
void mcbsp_set_available_cores(size_t num_cores);
size_t mcbsp_get_available_cores(void);
void mcbsp_set_threads_per_core(size_t threads_per_core);
size_t mcbsp_get_threads_per_core(void);
/* Hardware threads per core left unused (kept and reported; processes are
 * placed by the other settings). */
void mcbsp_set_unused_threads_per_core(size_t unused_threads_per_core);
size_t mcbsp_get_unused_threads_per_core(void);
void mcbsp_set_thread_numbering(enum mcbsp_thread_numbering numbering);
enum mcbsp_thread_numbering mcbsp_get_thread_numbering(void);

/* MANUAL pinning: processor s runs on CPU pinning[s]; the array is copied
 * (length entries); implies mcbsp_set_affinity_mode(MANUAL).  The getter
 * returns a malloc'd copy (free it), or NULL when none was set. */
void mcbsp_set_pinning(const size_t *pinning, size_t length);
size_t *mcbsp_get_pinning(void);

/* CPUs that SCATTER and COMPACT leave out (copied); the getter returns a
 * malloc'd copy or NULL. */
void mcbsp_set_reserved_cores(const size_t *reserved, size_t length);
size_t mcbsp_get_reserved_cores_number(void);
size_t *mcbsp_get_reserved_cores(void);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_MCBSP_H */
