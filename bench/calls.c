/*
 * calls.c - a fixed amount of BSP work, for counting instructions.
 *
 *   bsprun -n P calls put SYNCS H     SYNCS supersteps of H 8-byte bsp_puts
 *   bsprun -n P calls send SYNCS M    SYNCS supersteps of M 16-byte bsp_sends
 *                                     (4-byte tags), each queue emptied with
 *                                     bsp_get_tag + bsp_move
 *   bsprun -n P calls sync SYNCS      SYNCS empty supersteps
 *
 * Prints nothing: run it under valgrind --tool=callgrind (p = 1 is
 * deterministic) and divide the instruction counts by the number of calls;
 * subtract a run with H = 0 for the fixed costs.  Destinations as in
 * bench/puts (cyclic over the other processors, itself when P = 1).
 */
#include <bsp.h>

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int mode = !strcmp(argv[1], "put") ? 1 : !strcmp(argv[1], "send") ? 2 : 0;
    int syncs = atoi(argv[2]), h = argc > 3 ? atoi(argv[3]) : 0;
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();
    double *dst = calloc((size_t)p * h + 1, sizeof *dst), v = 1;
    bsp_push_reg(dst, (p * h + 1) * (int)sizeof *dst);
    int ts = 4;
    bsp_set_tagsize(&ts);
    bsp_sync();
    char payload[16] = { 0 }, in[16];
    for (int k = 0; k < syncs; k++) {
        if (mode == 1) {
            for (int i = 0; i < h; i++)
                bsp_put(p == 1 ? 0 : (s + 1 + i % (p - 1)) % p, &v, dst, (s * h + i) * (int)sizeof v, sizeof v);
        } else if (mode == 2) {
            for (int i = 0; i < h; i++) {
                unsigned tag = (unsigned)i;
                bsp_send((s + 1) % p, &tag, payload, sizeof payload);
            }
        }
        bsp_sync();
        if (mode == 2) {
            int status;
            unsigned tag;
            for (;;) {
                bsp_get_tag(&status, &tag);
                if (status == -1)
                    break;
                bsp_move(in, sizeof in);
            }
        }
    }
    bsp_pop_reg(dst);
    bsp_sync();
    bsp_end();
    free(dst);
    return 0;
}
