/* failed_hook.c - the failed-job hook (the profile's, written when a job
 * fails) holds the job's end no longer than SUPERSTEP_ABORT_TIMEOUT:
 * processor 0 dies by SIGSEGV in superstep 1 while its hook, run in the
 * fatal-signal handler, never finishes (the test's own hook, sleeping for
 * ever); the monitor, which waits for it, says that the limit expired and
 * ends the job (exit status 139: the kill line's).  Before, a fixed 10 s
 * bound ended it with no line.  With a limit of 0 the monitor waits until
 * the hook is done, which here takes 0.5 s and then says "hook done". */
// RUN: n=2 args="hang" env="SUPERSTEP_ABORT_TIMEOUT=1" fail="^superstep: writing the failed job's profile did not finish: the time limit expired \(SUPERSTEP_ABORT_TIMEOUT=1\); the job ends without it$" nompi="the hook is the shm device's monitor's (a rank on mpi runs it itself, mpi.c)"
// RUN: n=2 args="slow" env="SUPERSTEP_ABORT_TIMEOUT=0" fail="^hook done$" nompi="the hook is the shm device's monitor's (a rank on mpi runs it itself, mpi.c)"
#include <bsp.h>

#include "check.h"
#include "late.h"
#include "launch/launch.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static void hook_hangs(void)
{
    sleep_forever();
}

static void hook_slow(void)
{
    struct timespec t = { 0, 500000000 };
    nanosleep(&t, NULL);
    static const char done[] = "hook done\n";
    (void)!write(2, done, sizeof done - 1);
}

int main(int argc, char **argv)
{
    CHECK(argc == 2 && (!strcmp(argv[1], "hang") || !strcmp(argv[1], "slow")), "usage: failed_hook hang|slow");
    bsp_begin(bsp_nprocs());
    bsp_sync();
    if (bsp_pid() == 0) {
        launch_failed_hook = !strcmp(argv[1], "hang") ? hook_hangs : hook_slow;
        raise(SIGSEGV);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
