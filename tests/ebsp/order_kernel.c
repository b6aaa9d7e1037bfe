/* order_kernel.c - kernel of order_host (checked by order.sh).
 * "rounds R": in round r processor r % p writes the line "r", then all meet
 * in ebsp_barrier, so line r is written before line r+1 by the clock of
 * every processor.  "fail K": the last processor writes "line 0" ..
 * "line K-1", then commits a fatal error (a put to processor p).  "fail K
 * DIR" (order.sh held): the same, but the last processor first writes its
 * host's pid to DIR/host and writes its lines only once DIR/stopped
 * exists (order.sh has stopped the host then: the lines cannot be
 * printed until it continues). */
// NORUN: the kernel of order_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Tell order.sh the host's pid, and wait until it has stopped the host. */
static void await_host_stopped(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/host.tmp", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        exit(2);
    fprintf(f, "%d\n", (int)getppid());
    fclose(f);
    char done[4096];
    snprintf(done, sizeof done, "%s/host", dir);
    rename(path, done);
    snprintf(path, sizeof path, "%s/stopped", dir);
    while (access(path, F_OK) != 0)
        usleep(1000);
}

int main(int argc, char **argv)
{
    bsp_begin();
    int p = bsp_nprocs(), s = bsp_pid();
    int count = argc > 2 ? atoi(argv[2]) : 0;
    if (argc > 2 && !strcmp(argv[1], "rounds")) {
        for (int r = 0; r < count; r++) {
            if (s == r % p)
                ebsp_message("%d", r);
            ebsp_barrier();
        }
    } else if (argc > 2 && !strcmp(argv[1], "fail")) {
        int v = 0;
        bsp_push_reg(&v, sizeof v);
        bsp_sync();
        if (s == p - 1) {
            if (argc > 3)
                await_host_stopped(argv[3]);
            for (int i = 0; i < count; i++)
                ebsp_message("line %d", i);
            bsp_put(p, &v, &v, 0, sizeof v);
        }
        bsp_sync();
    }
    bsp_end();
    return 0;
}
