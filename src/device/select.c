/*
 * select.c - choosing the device, once, at the first launch.
 *
 *   SUPERSTEP_DEVICE=shm   local processes on one shared segment
 *   SUPERSTEP_DEVICE=mpi   the ranks of an MPI job (mpirun, bsprun --device mpi)
 *   SUPERSTEP_DEVICE=auto  (the default) mpi when an MPI launcher started the
 *                          program, shm otherwise
 *
 * The choice is made lazily, at the first call that needs it (bsp_init,
 * bsp_nprocs before bsp_begin, bsp_begin), and remembered.  A requested
 * device that cannot be used falls back to shm with one warning line, unless
 * SUPERSTEP_DEVICE_MANDATORY=1 (bsprun --mandatory): then it is an error
 * that says why.
 */
#include "device/device.h"
#include "settings/settings.h"

#include "launch/launch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef SUPERSTEP_HAVE_MPI
extern struct device device_mpi;
#endif

/* Was this process started by an MPI launcher?  (Open MPI, MPICH/Hydra and
 * PMIx launchers, Slurm's srun with PMI, each leave one of these.) */
bool device_started_by_mpi(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK" };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return true;
    return false;
}

static bool mandatory(void)
{
    return setting_num(SET_DEVICE_MANDATORY) == 1;
}

/* The requested device 'name' cannot be used because 'why'. */
static void unusable(const char *name, const char *why)
{
    if (mandatory())
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: device %s cannot be used: %s (SUPERSTEP_DEVICE_MANDATORY=1)",
                    name, why);
    fflush(stdout);
    fprintf(stderr, "superstep: warning: device %s cannot be used (%s); running on shm\n", name, why);
    fflush(stderr);
    dev = &device_shm;
}

struct device *device_choose(void)
{
    static bool chosen;
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
#ifdef SUPERSTEP_HAVE_MPI
    if (!device_started_by_mpi()) {
        unusable("mpi", "not started by an MPI launcher: run it with mpirun -n P, or bsprun --device mpi -n P");
        return dev;
    }
    dev = &device_mpi;
#else
    unusable("mpi", is_auto ? "started by an MPI launcher, but Superstep was built without MPI support; "
                              "every rank runs on its own"
                            : "Superstep was built without MPI support");
#endif
    return dev;
}
