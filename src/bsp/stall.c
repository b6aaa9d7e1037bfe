/*
 * stall.c - SUPERSTEP_STALL_TIMEOUT for BSPlib and Epiphany kernels.
 *
 * A processor that computes for ever while the others wait in bsp_sync,
 * bsp_end or ebsp_barrier would leave them waiting silently.  With the
 * setting, a wait at the barrier longer than that many seconds names the
 * processors still computing (their collective call word is CALL_NONE and
 * they have not ended) and those whose process is stopped (SIGSTOP, a
 * debugger: /proc tells, where the pid is known), with their superstep,
 * and stops the job.  The
 * device's exchange runs the watch (barrier_wait on shm; on mpi, its
 * point-to-point counts tell who has come).  Every waiter may notice; the
 * launch layer prints the first report only.
 */
#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "launch/launch.h"

bool bsp_stall_computing(uint32_t q)
{
    return q != job.me && atomic_load(&job.ls->proc[q].call) == CALL_NONE && !atomic_load(&job.ls->proc[q].ended);
}

char bsp_stall_stopped(uint32_t q)
{
    return q != job.me && !atomic_load(&job.ls->proc[q].ended) ? launch_proc_state(q) : 0;
}

uint64_t bsp_stall_step(uint32_t q)
{
    return atomic_load(&job.ls->proc[q].step);
}

static struct late_watch watch;

/* A processor that died while processor 0 (its monitor) is stopped stays
 * a zombie, unreported: name it as dead (and stop the job). */
static void stop_if_peer_dead(void)
{
    for (uint32_t q = 0; q < bsp.p; q++)
        if (q != bsp.me)
            launch_stop_if_dead(q);
}

/* The watch's dead-peer half, also without the setting: at each sleep
 * slice, only while the monitor is stopped (else it reports every death
 * itself), so that a slice costs one /proc read. */
static void watch_dead(void)
{
    if (launch_monitor_stopped())
        stop_if_peer_dead();
}

/* A dead processor is named as dead, not as late.  Nobody computing or
 * stopped: everybody is in some call (a mismatch, or kernels in
 * ebsp_host_sync), which others report. */
static void report_stall(int64_t waited_ns)
{
    char line[512];
    stop_if_peer_dead();
    struct late_who who = { "processor", 0, bsp.p, bsp_stall_computing, bsp_stall_step, bsp_stall_stopped };
    if (late_line(line, sizeof line, &watch, waited_ns, &who))
        bsp_error(bsp_call_name(atomic_load(&job.ls->proc[bsp.me].call)), "%s", line);
}

void bsp_stall_arm(void)
{
    late_arm(&watch, report_stall);
    watch.dead = watch_dead;
    dev->late = &watch;
    launch_words.calls = bsp_call_names; /* an interrupted job's line says who waited where */
    launch_words.ncalls = CALL_COUNT;
}
