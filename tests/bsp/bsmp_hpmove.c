/* bsmp_hpmove.c - the tag and payload pointers bsp_hpmove returns stay valid
 * until the next bsp_sync, also after later hpmoves and sends. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define PER_DEST 50

static unsigned char byte_at(int src, int k, int i) { return (unsigned char)(src * 13 + k * 7 + i); }

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int ts = 6;
    bsp_set_tagsize(&ts);
    bsp_sync();

    for (int step = 0; step < 3; step++) {
        for (int d = 0; d < p; d++)
            for (int k = 0; k < PER_DEST; k++) {
                unsigned char tag[6] = {(unsigned char)s, (unsigned char)k, 1, 2, 3, 4};
                unsigned char pay[100];
                int len = (k * 37 + step) % 100;
                for (int i = 0; i < len; i++)
                    pay[i] = byte_at(s, k, i);
                bsp_send(d, tag, pay, len);
            }
        bsp_sync();

        int n = p * PER_DEST;
        void **tags = malloc(n * sizeof *tags), **pays = malloc(n * sizeof *pays);
        int *lens = malloc(n * sizeof *lens);
        for (int i = 0; i < n; i++)
            lens[i] = bsp_hpmove(&tags[i], &pays[i]);
        void *tp, *pp;
        CHECK(bsp_hpmove(&tp, &pp) == -1, "processor %d: queue not empty", s);

        /* Sending now fills next superstep's queue, not this one's. */
        for (int d = 0; d < p; d++)
            bsp_send(d, "abcdef", "ghijkl", 6);

        for (int i = 0; i < n; i++) {
            int src = i / PER_DEST, k = i % PER_DEST, len = (k * 37 + step) % 100;
            const unsigned char *tag = tags[i], *pay = pays[i];
            CHECK(lens[i] == len, "processor %d: message %d length %d", s, i, lens[i]);
            CHECK(tag[0] == src && tag[1] == k && memcmp(tag + 2, "\1\2\3\4", 4) == 0,
                  "processor %d step %d: tag of message %d changed", s, step, i);
            for (int j = 0; j < len; j++)
                CHECK(pay[j] == byte_at(src, k, j), "processor %d step %d: payload of message "
                      "%d changed at byte %d", s, step, i, j);
        }
        free(lens);
        free(pays);
        free(tags);
        bsp_sync();

        /* The "abcdef" messages. */
        int nmsg, nbytes;
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == p && nbytes == 6 * p, "processor %d: qsize %d, %d", s, nmsg, nbytes);
        for (int i = 0; i < p; i++) {
            unsigned char tag[6], pay[6];
            int status;
            bsp_get_tag(&status, tag);
            bsp_move(pay, sizeof pay);
            CHECK(status == 6 && memcmp(tag, "abcdef", 6) == 0 && memcmp(pay, "ghijkl", 6) == 0,
                  "processor %d: message %d wrong", s, i);
        }
    }
    bsp_end();
    return 0;
}
