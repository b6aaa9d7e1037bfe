/* watchdog.c - the launcher watchdog of Epiphany hosts on mpi (src/host/
 * hwatch.c), on its own: arm it, as the host does at its first spawn, and
 * end.  tests/mpi/watchdog.sh runs it under a stand-in for mpirun.
 * Usage: watchdog (prints "armed") */
// RUN: n=1 out="^armed$"
#include "host/host.h"

#include <stdio.h>

int main(void)
{
    hwatch_launcher();
    printf("armed\n");
    return 0;
}
