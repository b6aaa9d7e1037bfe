/* order_kernel.c - kernel of order_host (checked by order.sh).
 * "rounds R": in round r processor r % p writes the line "r", then all meet
 * in ebsp_barrier, so line r is written before line r+1 by the clock of
 * every processor.  "fail K": the last processor writes "line 0" ..
 * "line K-1", then commits a fatal error (a put to processor p). */
// NORUN: the kernel of order_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <stdlib.h>
#include <string.h>

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
            for (int i = 0; i < count; i++)
                ebsp_message("line %d", i);
            bsp_put(p, &v, &v, 0, sizeof v);
        }
        bsp_sync();
    }
    bsp_end();
    return 0;
}
