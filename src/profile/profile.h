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
 * run's totals.  When the job fails (shm), the supersteps every processor
 * completed are written (launch_failed_hook).  SUPERSTEP_NO_PROFILE at compile time
 * removes the hooks (to measure what they cost).  What a processor sent is what the others
 * received from it, so senders count nothing: the hot paths (bsp_put,
 * bsp_send) carry no hook at all.
 *
 * When off, each hook costs one compare with memory and one predictable
 * branch:
 *     PROFILE(sync_begin());
 */
#ifndef SUPERSTEP_PROFILE_H
#define SUPERSTEP_PROFILE_H

#include <stdbool.h>
#include <stdint.h>

/* Hidden: inside the library, so a -fPIC build tests it without the GOT. */
extern bool profile_on __attribute__((visibility("hidden")));

#ifndef SUPERSTEP_NO_PROFILE
#define PROFILE(call)                               \
    do {                                            \
        if (__builtin_expect(profile_on, 0))        \
            profile_##call;                         \
    } while (0)
#else /* compiled out: to measure what the hooks cost (bench/RESULTS.md) */
#define PROFILE(call) ((void)0)
#endif

/* bsp_begin, before the processors start: reads SUPERSTEP_PROFILE and, when
 * set, maps the shared buffer and sets profile_on.  Not a hot path. */
void profile_init(int64_t nprocs);
/* bsp_begin, in every processor once it knows its id. */
void profile_start(uint32_t me, uint32_t nprocs);

/* bsp_sync: at entry; after each barrier (exchange), before anything is
 * consumed; before the second barrier (gets served, direct transfers done);
 * at the end. */
void profile_sync_begin(void);
void profile_sync_waited(void);
void profile_sync_served(void);
void profile_sync_end(void);

/* bsp_end: at entry, before the last barrier (closes this processor's
 * records); after that barrier, with the number of processors that
 * profile (processor 0 writes the trace; on mpi, where each rank reads
 * its own environment, only when all of them do). */
void profile_end_begin(void);
void profile_finish(uint32_t nprofiling);

#endif
