/*
 * profile.h - the superstep profiler (SUPERSTEP_PROFILE=trace.json).
 *
 * Off unless SUPERSTEP_PROFILE names a file at bsp_begin.  Then every
 * processor stamps each bsp_sync (entry, after each barrier, end) and, after
 * each barrier, counts the records and payload bytes each source sent it
 * (a pre-scan of the incoming streams through the device's scan calls, so
 * the drain loop needs no hook).  The records go into a per-processor
 * buffer in a private shared memfd that bsp_begin maps before it forks (so
 * nothing ever appears in the file system but the trace).  At bsp_end
 * processor 0 reads every processor's records (on mpi they come to it
 * through the device's streams) and trace.c writes one Chrome trace JSON
 * file: one track (thread) per processor with "superstep k", "compute",
 * "sync wait", "profiler", "gets/direct", "sync wait 2" and
 * "communication" slices, the h-relation sizes as arguments, and the
 * run's totals.  When the job fails, the supersteps every processor
 * completed are written (launch_failed_hook; on mpi only the reporting
 * rank's, the others listed as missing).  SUPERSTEP_NO_PROFILE at compile time
 * removes the hooks (to measure what they cost).  What a processor sent is what the others
 * received from it, so senders count nothing: the hot paths (bsp_put,
 * bsp_send) carry no hook at all.
 *
 * The profiler is a layer above BSP (it reads the BSP layer's records and
 * direct-transfer queue), so the BSP layer names none of its functions: it
 * calls the hooks of struct bsp_observer (bsp/bsp_impl.h), which this
 * layer fills in and installs by a constructor (profile_observer).  When
 * off, each hook costs one compare with memory and one predictable branch:
 *     OBSERVE(sync_begin());
 */
#ifndef SUPERSTEP_PROFILE_H
#define SUPERSTEP_PROFILE_H

#include "bsp/bsp_impl.h"

/* The profiler's hooks.  A program linked with the public libraries always
 * holds it (they are one object); one linked with the plain internal
 * archive names it to the linker (-u profile_observer, Makefile), since
 * nothing below refers to it. */
extern const struct bsp_observer profile_observer;

#endif
