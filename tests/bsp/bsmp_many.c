/* bsmp_many.c - many small messages: every processor sends M messages
 * (default 100000), round-robin over all processors, in one superstep; all
 * arrive, complete and in order of source, then send order.
 * Usage: bsmp_many [M]. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8 args="30000"
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 100000;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    bsp_sync();

    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < m; k++) {
            int64_t payload = ((int64_t)round << 48) | ((int64_t)s << 32) | k;
            bsp_send(k % p, &k, &payload, sizeof payload);
        }
        bsp_sync();

        /* Source t sent me the k with k % p == s, in increasing order. */
        int expect = p * ((m - s + p - 1) / p);
        int nmsg, nbytes;
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == expect && nbytes == expect * 8, "processor %d: qsize %d, %d, expected %d",
              s, nmsg, nbytes, expect);
        for (int t = 0; t < p; t++)
            for (int k = s; k < m; k += p) {
                int status, tag;
                bsp_get_tag(&status, &tag);
                CHECK(status == 8 && tag == k, "processor %d: status %d tag %d, expected "
                      "message %d from %d", s, status, tag, k, t);
                int64_t payload;
                if (k % 2 == 0) {
                    bsp_move(&payload, sizeof payload);
                } else {
                    void *tp, *pp;
                    CHECK(bsp_hpmove(&tp, &pp) == 8, "processor %d: hpmove", s);
                    memcpy(&payload, pp, sizeof payload);
                }
                CHECK(payload == (((int64_t)round << 48) | ((int64_t)t << 32) | k),
                      "processor %d: message %d from %d has payload %llx", s, k, t,
                      (unsigned long long)payload);
            }
        int status;
        bsp_get_tag(&status, &tagsize);
        CHECK(status == -1, "processor %d: more messages than sent", s);
    }
    bsp_end();
    return 0;
}
