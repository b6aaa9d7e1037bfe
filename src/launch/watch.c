/*
 * watch.c - SUPERSTEP_STALL_TIMEOUT: the one "who is late" watchdog.
 *
 * A processor that computes for ever while the others wait in a collective
 * call (bsp_sync, bsp_end, ebsp_barrier, ebsp_host_sync, mp_sync) would
 * leave them waiting silently.  With the setting, the one wait (barrier.h)
 * calls report_late after every N seconds of a collective wait; it names
 * the processors whose collective call word says they compute (CALL_NONE)
 * and that have not ended, with their superstep, and stops the job.  When
 * every other processor is in some call (a mismatch, or a kernel waiting
 * for its host) it returns: another processor reports.
 *
 * The words come from the job's table in the segment, or, on a device
 * whose processors share no memory, from launch_peer_hook: what the
 * collective call in progress has heard from each processor (mpi.c,
 * mp_mpi.c).  No question is asked, and no answer awaited.
 */
#include "launch/launch.h"
#include "settings/settings.h"

#include <stdio.h>

void (*launch_peer_hook)(uint32_t q, struct launch_peer *peer);

const char *launch_call_name(uint32_t call)
{
    static const char *const names[] = { "no collective call", "bsp_sync", "bsp_end", "ebsp_barrier",
                                         "ebsp_host_sync", "mp_sync", "a receive" };
    return call < sizeof names / sizeof *names ? names[call] : "an unknown call";
}

static struct launch_peer peer_of(uint32_t q)
{
    struct launch_peer peer;
    if (launch_peer_hook) {
        launch_peer_hook(q, &peer);
        return peer;
    }
    peer.call = atomic_load(&job.ls->proc[q].call);
    peer.step = atomic_load(&job.ls->proc[q].step);
    peer.ended = atomic_load(&job.ls->proc[q].ended) != 0;
    return peer;
}

static void report_late(int64_t waited_ns)
{
    char late[256], where[48] = "", in[48] = "";
    size_t len = 0;
    uint32_t n = 0;
    for (uint32_t q = 0; q < job.nprocs; q++) {
        struct launch_peer peer = peer_of(q);
        if (q == job.me || peer.call != CALL_NONE || peer.ended)
            continue;
        if (!n++ && launch_words.steps)
            snprintf(in, sizeof in, " in superstep %llu", (unsigned long long)peer.step);
        if (len < sizeof late - 32)
            len += (size_t)snprintf(late + len, sizeof late - len, "%s%u", n > 1 ? ", " : "", q + launch_words.first);
        else if (len < sizeof late - 1)
            len += (size_t)snprintf(late + len, sizeof late - len, ", ...");
    }
    if (!n)
        return;
    struct launch_peer self = peer_of(job.me);
    if (launch_words.steps)
        snprintf(where, sizeof where, ", superstep %llu", (unsigned long long)self.step);
    launch_fail(LAUNCH_EXIT_ERROR, "%s: %s %u%s: waited %lld s for %s%s %s, still computing%s (SUPERSTEP_STALL_TIMEOUT=%llu)",
                launch_call_name(self.call), launch_words.proc, job.me + launch_words.first, where,
                (long long)(waited_ns / 1000000000), launch_words.proc, n > 1 ? "s" : "", late, in,
                (unsigned long long)setting_num(SET_STALL_TIMEOUT));
}

void launch_watch_arm(void)
{
    uint64_t s = setting_num(SET_STALL_TIMEOUT);
    wait_watch(s ? (int64_t)s * 1000000000 : 0, s ? report_late : NULL);
}
