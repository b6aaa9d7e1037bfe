/* plugin_maps.c - whether the mpi plug-in and libmpi are mapped into the
 * processors of a job: never on shm (a program that runs on shared memory
 * neither links nor loads them), always on the mpi device.  Every
 * processor reads its /proc/self/maps inside the job; processor 0 says
 * what all found.  tests/mpi/plugin.sh runs it under the MPI launcher.
 * Usage: plugin_maps absent|present */
// RUN: n=3 args="absent" out="^absent on 3 processors \(device shm\)$"
#include <bsp.h>

#include "check.h"

#include <stdio.h>
#include <string.h>

/* Does /proc/self/maps show the plug-in or libmpi? */
static int mapped(void)
{
    FILE *f = fopen("/proc/self/maps", "r");
    CHECK(f, "cannot open /proc/self/maps");
    char line[4096];
    int found = 0;
    while (fgets(line, sizeof line, f))
        if (strstr(line, "/device-mpi.so") || strstr(line, "/libmpi"))
            found = 1;
    fclose(f);
    return found;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2 && (!strcmp(argv[1], "absent") || !strcmp(argv[1], "present")), "usage: plugin_maps absent|present");
    int want = !strcmp(argv[1], "present");
    bsp_begin(bsp_nprocs());
    int p = (int)bsp_nprocs(), mine = mapped(), all[64] = { 0 };
    CHECK(p <= 64, "at most 64 processors");
    bsp_push_reg(all, sizeof all);
    bsp_sync();
    bsp_put(0, &mine, all, (int)bsp_pid() * (int)sizeof mine, sizeof mine);
    bsp_sync();
    if (bsp_pid() == 0) {
        for (int s = 0; s < p; s++)
            CHECK(all[s] == want, "processor %d: the plug-in or libmpi is %s", s, all[s] ? "mapped" : "not mapped");
        printf("%s on %d processors (device %s)\n", argv[1], p, want ? "mpi" : "shm");
    }
    bsp_pop_reg(all);
    bsp_end();
    return 0;
}
