/*
 * nest.c - nested runs (MulticoreBSP's hierarchical BSP).
 *
 * A processor of a run may start an inner run of its own, as its processor
 * 0, by launch_fork.  Before, launch_nest_enter sets this process's run
 * aside (the job, the monitor, the device's hooks, the program's signal
 * actions) and gives it a fresh one; after the inner run's launch_finish,
 * launch_nest_leave gives the outer run back.  A failure anywhere stops
 * the whole job (failure.c claims it at every level), and its line ends
 * with where the inner run was started.
 */
#include "launch/launch_impl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct launch_shared *nest_ls[NEST_MAX];
char nest_where[NEST_MAX + 1][512];
uint32_t nest_depth;
bool nest_under_device;

/* What an inner run sets aside in its starter and gives back at its end. */
static struct nest_level {
    struct program_signals signals;
    struct job job;
    struct monitor *mon;
    void (*fail_hook)(uint32_t code, const char *msg);
    void (*failed_hook)(void);
} nest_saved[NEST_MAX];

/* A failed inner run that an MPI rank started ends the rank through the
 * outer device's failure path (mpi: an abort carrying the status; a
 * rank's plain exit with 128 + signal made a launcher report another
 * status now and then: docs/mpi.md, "Vendor notes", nest-status).  Does not return there. */
void nest_device_end(uint32_t depth, uint32_t code)
{
    if (depth == 1 && nest_saved[0].fail_hook)
        nest_saved[0].fail_hook(code, NULL);
}

uint32_t launch_nest_depth(void)
{
    return nest_depth;
}

int launch_nest_enter(void)
{
    if (nest_depth + 1 >= NEST_MAX)
        return -EMLINK;
    struct monitor *inner = calloc(1, sizeof *inner);
    if (!inner)
        return -ENOMEM;
    uint32_t d = nest_depth;
    struct nest_level *l = &nest_saved[d];
    l->signals = program_signals;
    l->job = job;
    l->mon = mon;
    if (!d)
        nest_under_device = launch_fail_hook != NULL;
    l->fail_hook = launch_fail_hook;
    l->failed_hook = launch_failed_hook;
    char body[sizeof nest_where[0] - 3];
    snprintf(body, sizeof body, "in the inner run that %s %u started in superstep %llu%s%.*s",
             launch_words.proc, job.me + launch_words.first, (unsigned long long)proc_step(job.ls, job.me),
             d ? ", " : "", d ? (int)strlen(nest_where[d]) - 3 : 0, d ? nest_where[d] + 2 : "");
    snprintf(nest_where[d + 1], sizeof nest_where[d + 1], " (%s)", body);
    nest_ls[d] = job.ls;
    /* The inner run is a shm run of this process and its forks: no
     * device hook of the outer run (an MPI call) may run in it. */
    launch_fail_hook = NULL;
    launch_failed_hook = NULL;
    program_signals.sigchld_changed = false;
    mon = inner;
    memset(&job, 0, sizeof job);
    job.seg.fd = -1;
    job.nest = d + 1;
    job.pid = l->job.pid; /* the same process: no copy */
    nest_depth = d + 1;
    return 0;
}

void launch_nest_leave(void)
{
    if (!nest_depth)
        return;
    struct nest_level *l = &nest_saved[--nest_depth];
    monitor_free_tables(mon);
    free(mon);
    mon = l->mon;
    job = l->job;
    launch_fail_hook = l->fail_hook;
    launch_failed_hook = l->failed_hook;
    program_signals = l->signals;
    nest_ls[nest_depth] = NULL;
    if (job.starter && mon->running)
        watch_starter_thread();
}
