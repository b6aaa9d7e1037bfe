/*
 * send.c - bulk synchronous message passing: 16-byte messages, 4-byte tags.
 *
 *   bsprun -n P send [M] [move|hpmove]     (default M = 100000, move)
 *
 * Every processor sends M messages to its right neighbour (s+1 mod P,
 * itself when P = 1), syncs, and takes every message it received out of the
 * queue (bsp_get_tag + bsp_move, or bsp_hpmove).  One round moves M
 * messages out of and M into each processor; the rate is M / T messages per
 * second per processor, T the median time of a round.
 */
#include <bsp.h>

#include "bench.h"

#include <stdbool.h>

static int m = 100000;
static bool hp;

/* The SPMD part, entered through bsp_init (see puts.c). */
static void spmd(void)
{
    bsp_begin(bench_nprocs(bsp_nprocs()));
    int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p;
    bsp_size_t ts = 4; /* MulticoreBSP takes a size_t, BSPlib an int */
    bsp_set_tagsize(&ts);
    bsp_sync();
    char payload[16];
    memset(payload, s, sizeof payload);
    int reps = bench_quick() ? 7 : 21;
    double *t = malloc((size_t)reps * sizeof *t);
    uint64_t check = 0;
    for (int r = -2; r < reps; r++) {
        bsp_sync();
        double t0 = bench_now();
        for (int i = 0; i < m; i++) {
            uint32_t tag = (uint32_t)i;
            bsp_send(right, &tag, payload, sizeof payload);
        }
        bsp_sync();
        int status;
        uint32_t tag;
        char in[16];
        if (hp) {
            void *tp, *pp;
            while (bsp_hpmove(&tp, &pp) != -1) {
                memcpy(&tag, tp, sizeof tag);
                check += tag + (unsigned char)((char *)pp)[15];
            }
        } else {
            for (;;) {
                bsp_get_tag(&status, &tag);
                if (status == -1)
                    break;
                bsp_move(in, sizeof in);
                check += tag + (unsigned char)in[15];
            }
        }
        if (r >= 0)
            t[r] = bench_now() - t0;
    }
    if (check == 0 && m > 1)
        bsp_abort("send: nothing received");
    double med = bench_median(t, reps);
    if (s == 0) {
        printf("send_p%d_%s %.6g Mmsg/s\n", p, hp ? "hpmove" : "move", m / med / 1e6);
        printf("send_p%d_%s_ns %.6g ns\n", p, hp ? "hpmove" : "move", med / m * 1e9);
    }
    bsp_end();
}

int main(int argc, char **argv)
{
    m = argc > 1 ? atoi(argv[1]) : m;
    hp = argc > 2 && !strcmp(argv[2], "hpmove");
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
