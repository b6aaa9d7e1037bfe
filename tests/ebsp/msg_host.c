/* msg_host.c - messages between host and kernels of many sizes (0 .. 1 MiB),
 * tag sizes set on the host (for messages down) and by the kernels (for
 * messages up), read back with ebsp_get_tag, ebsp_move and ebsp_hpmove;
 * two runs per session, a fresh queue for each.
 * Usage: msg_host DOWN_TAGSIZE UP_TAGSIZE */
// RUN: n=1 args="0 0"
// RUN: n=4 args="4 0"
// RUN: n=3 args="0 12"
// RUN: n=5 args="7 3"
// RUN: n=16 args="16 16" timeout=120
#include <host_bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "msg_common.h"

int main(int argc, char **argv)
{
    CHECK(argc == 3, "usage: msg_host DOWN_TAGSIZE UP_TAGSIZE");
    int td = atoi(argv[1]), tu = atoi(argv[2]);
    bsp_init("msg_kernel", argc, argv);
    int p = bsp_nprocs();
    bsp_begin(p);
    int t = td;
    ebsp_set_tagsize(&t);
    CHECK(t == 0, "initial host tag size %d", t);
    CHECK(ebsp_get_tagsize() == td, "ebsp_get_tagsize %d before the run", ebsp_get_tagsize());
    unsigned char *buf = malloc(1 << 20), tag[64];
    for (int run = 0; run < 2; run++) {
        for (int q = 0; q < p; q++)
            for (int k = 0; k < NSIZES; k++) {
                for (int i = 0; i < sizes[k]; i++)
                    buf[i] = msg_byte(0, q, k, i);
                for (int i = 0; i < td; i++)
                    tag[i] = msg_byte(2, q, k, i);
                ebsp_send_down(q, td ? tag : NULL, buf, sizes[k]);
            }
        CHECK(ebsp_spmd() == 1, "run %d failed", run);
        CHECK(ebsp_get_tagsize() == tu, "tag size after the run %d, kernels set %d", ebsp_get_tagsize(), tu);
        int n, bytes, total = 0;
        for (int k = 0; k < NSIZES; k++)
            total += sizes[k];
        ebsp_qsize(&n, &bytes);
        CHECK(n == p * NSIZES && bytes == p * total, "qsize %d %d", n, bytes);
        for (int q = 0; q < p; q++)
            for (int k = 0; k < NSIZES; k++) {
                int status;
                memset(tag, 0xee, sizeof tag);
                ebsp_get_tag(&status, tag);
                CHECK(status == sizes[k], "message %d of %d: %d bytes", k, q, status);
                for (int i = 0; i < tu; i++)
                    CHECK(tag[i] == msg_byte(3, q, k, i), "tag byte %d of message %d of %d", i, k, q);
                CHECK(tag[tu] == 0xee, "tag longer than %d", tu);
                const unsigned char *pl = buf;
                if (k % 2) {
                    memset(buf, 0, 1 << 20);
                    ebsp_move(buf, 1 << 20);
                } else {
                    void *tp, *pp;
                    CHECK(ebsp_hpmove(&tp, &pp) == sizes[k], "hpmove");
                    CHECK(tu == 0 || memcmp(tp, tag, tu) == 0, "hpmove tag");
                    pl = pp;
                }
                for (int i = 0; i < sizes[k]; i++)
                    CHECK(pl[i] == msg_byte(1, q, k, i), "byte %d of message %d of %d", i, k, q);
            }
        int status;
        ebsp_get_tag(&status, tag);
        CHECK(status == -1, "queue not empty: %d", status);
        void *tp, *pp;
        CHECK(ebsp_hpmove(&tp, &pp) == -1, "hpmove on an empty queue");
    }
    free(buf);
    bsp_end();
    return 0;
}
