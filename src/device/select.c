/*
 * select.c - choosing the device, once, at the first launch.
 *
 *   SUPERSTEP_DEVICE=shm   local processes on one shared segment
 *   SUPERSTEP_DEVICE=mpi   the ranks of an MPI job (mpirun, bsprun --device mpi)
 *   SUPERSTEP_DEVICE=auto  (the default) mpi when an MPI launcher started the
 *                          program, shm otherwise
 *
 * The choice is made lazily, at the first call that needs it (bsp_init,
 * bsp_nprocs before bsp_begin, bsp_begin), and remembered.  shm is built
 * in; mpi is a plug-in (src/mpi), loaded only once it is chosen.  A
 * requested device that cannot be used (no MPI launcher, a plug-in missing
 * or from another build) falls back to shm with one warning line, unless
 * SUPERSTEP_DEVICE_MANDATORY=1 (bsprun --mandatory): then it is an error
 * that says why.
 */
#include "device/device.h"
#include "settings/settings.h"

#include "launch/launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const struct device_plugin *(*device_plugin_load)(const char *name, char *why, size_t cap);
static const struct device_plugin *plugin; /* the chosen device's, or NULL */

/* Was this process started by an MPI launcher?  (Each launcher leaves one
 * of these: docs/mpi.md, "Choosing the device"; srun without PMI leaves its
 * own, checked as several processes started.) */
bool device_started_by_mpi(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK" };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    return device_launched(NULL) > 1;
}

long device_launched(long *rank)
{
    static const char *const vars[][2] = { { "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_RANK" },
                                            { "PMI_SIZE", "PMI_RANK" },
                                            { "SLURM_STEP_NUM_TASKS", "SLURM_PROCID" } };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *size = getenv(vars[i][0]), *me = getenv(vars[i][1]);
        if (size && me && atol(size) > 0) {
            if (rank)
                *rank = atol(me);
            return atol(size);
        }
    }
    if (rank)
        *rank = 0;
    return 1;
}

static bool mandatory(void)
{
    return setting_num(SET_DEVICE_MANDATORY) == 1;
}

/* The requested device 'name' cannot be used because 'why': shm instead,
 * unless that changes what the program means (the launcher started
 * several processes, each of which would run the whole job alone). */
static void unusable(const char *name, const char *why)
{
    long rank, n = device_launched(&rank);
    char host[64] = "?";
    gethostname(host, sizeof host - 1);
    if (n > 1) /* each rank that cannot says so: the others may run on where it can */
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: device %s cannot be used on %s (rank %ld of the %ld processes "
                    "the launcher started, which would each run the program alone on shm): %s",
                    name, host, rank, n, why);
    if (mandatory())
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: device %s cannot be used: %s (SUPERSTEP_DEVICE_MANDATORY=1)",
                    name, why);
    fflush(stdout);
    fprintf(stderr, "superstep: warning: device %s cannot be used (%s); running on shm\n", name, why);
    fflush(stderr);
    dev = &device_shm;
}

static bool chosen;

struct device *device_choose(void)
{
    if (chosen)
        return dev;
    chosen = true;
    dev = &device_shm;
    const char *want = setting_str(SET_DEVICE); /* shm, mpi or auto: checked there */
    if (!want)
        want = "auto";
    if (!strcmp(want, "shm"))
        return dev;
    bool is_auto = !strcmp(want, "auto");
    if (is_auto && !device_started_by_mpi())
        return dev;
    if (!device_started_by_mpi()) {
        unusable("mpi", "not started by an MPI launcher: run it with mpirun -n P, or bsprun --device mpi -n P");
        return dev;
    }
    char why[1024];
    plugin = device_plugin_load("mpi", why, sizeof why);
    if (!plugin) {
        unusable("mpi", why);
        return dev;
    }
    dev = plugin->device;
    return dev;
}

const struct device_plugin *device_plugin(void)
{
    device_choose();
    return plugin;
}

/* A process that may be a rank of an MPI job gives the plug-in its exit,
 * also when it ends before any call chose the device (the plug-in then
 * tells the ranks that wait for it in bsp_begin).  Registered as the
 * program starts, before anything the program registers, so that it runs
 * last.  Nothing to do on shm. */
static void device_at_exit(int status, void *arg)
{
    if (!chosen && device_started_by_mpi()) {
        char why[1024]; /* not loaded: no line at exit, a call would have said it */
        plugin = device_plugin_load("mpi", why, sizeof why);
    }
    if (plugin)
        plugin->at_exit(status, arg);
}

__attribute__((constructor)) static void device_at_exit_install(void)
{
    on_exit(device_at_exit, NULL);
}
