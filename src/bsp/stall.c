/*
 * stall.c - SUPERSTEP_STALL_TIMEOUT for BSPlib and Epiphany kernels.
 *
 * A processor that computes for ever while the others wait in bsp_sync,
 * bsp_end or ebsp_barrier would leave them waiting silently.  With the
 * setting, a wait at the barrier longer than that many seconds names the
 * processors still computing (their collective call word is CALL_NONE and
 * they have not ended), with their superstep, and stops the job.  Every
 * waiter may notice; the launch layer prints the first report only.
 */
#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "launch/launch.h"
#include "settings/settings.h"

#include <stdio.h>

static bool computing(uint32_t q)
{
    return q != bsp.me && atomic_load(&job.ls->proc[q].call) == CALL_NONE &&
           !atomic_load(&job.ls->proc[q].ended);
}

static void report_stall(int64_t waited_ns)
{
    char late[256];
    size_t len = 0;
    uint32_t n = 0, first = 0;
    for (uint32_t q = 0; q < bsp.p; q++) {
        if (!computing(q))
            continue;
        if (!n++)
            first = q;
        if (len < sizeof late - 32)
            len += (size_t)snprintf(late + len, sizeof late - len, "%s%u", n > 1 ? ", " : "", q);
        else if (len < sizeof late - 1)
            len += (size_t)snprintf(late + len, sizeof late - len, ", ...");
    }
    if (!n) /* everybody is in some call: a mismatch or the host will say */
        return;
    bsp_error(bsp_call_name(atomic_load(&job.ls->proc[bsp.me].call)),
              "waited %lld s for processor%s %s, still computing in superstep %llu (SUPERSTEP_STALL_TIMEOUT=%llu)",
              (long long)(waited_ns / 1000000000), n > 1 ? "s" : "", late,
              (unsigned long long)atomic_load(&job.ls->proc[first].step),
              (unsigned long long)setting_num(SET_STALL_TIMEOUT));
}

void bsp_stall_arm(void)
{
    uint64_t s = setting_num(SET_STALL_TIMEOUT);
    barrier_set_stall(s ? (int64_t)s * 1000000000 : 0, s ? report_stall : NULL);
}
