/* msg_kernel.c - kernel of msg_host: checks the host's messages (there from
 * bsp_begin to the first bsp_sync, with the host's tag size), sets its own
 * tag size and sends messages of many sizes up.
 * Arguments (from the host): DOWN_TAGSIZE UP_TAGSIZE. */
// NORUN: the kernel of msg_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "msg_common.h"

int main(int argc, char **argv)
{
    bsp_begin();
    CHECK(argc == 3, "kernel arguments: %d", argc);
    int td = atoi(argv[1]), tu = atoi(argv[2]);
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(ebsp_get_tagsize() == td, "processor %d: tag size %d, host set %d", s, ebsp_get_tagsize(), td);
    int n, bytes, total = 0;
    for (int k = 0; k < NSIZES; k++)
        total += sizes[k];
    bsp_qsize(&n, &bytes);
    CHECK(n == NSIZES && bytes == total, "processor %d: qsize %d %d, expected %d %d", s, n, bytes, NSIZES, total);
    unsigned char *buf = malloc(1 << 20), tag[64];
    for (int k = 0; k < NSIZES; k++) {
        int status;
        memset(tag, 0xee, sizeof tag);
        bsp_get_tag(&status, tag);
        CHECK(status == sizes[k], "processor %d: message %d has %d bytes, expected %d", s, k, status, sizes[k]);
        for (int i = 0; i < td; i++)
            CHECK(tag[i] == msg_byte(2, s, k, i), "processor %d: tag byte %d of message %d", s, i, k);
        CHECK(tag[td] == 0xee, "processor %d: tag longer than %d", s, td);
        const unsigned char *pl;
        if (k % 2) {
            bsp_move(buf, sizes[k]);
            pl = buf;
        } else {
            void *tp, *pp;
            CHECK(bsp_hpmove(&tp, &pp) == sizes[k], "processor %d: hpmove", s);
            CHECK(td == 0 || memcmp(tp, tag, td) == 0, "processor %d: hpmove tag", s);
            pl = pp;
        }
        for (int i = 0; i < sizes[k]; i++)
            CHECK(pl[i] == msg_byte(0, s, k, i), "processor %d: byte %d of message %d", s, i, k);
    }
    bsp_qsize(&n, &bytes);
    CHECK(n == 0, "processor %d: %d messages left", s, n);

    /* A message between processors with the host's tag size; the tag size
     * the kernels choose applies from the next superstep. */
    memset(tag, s, sizeof tag);
    bsp_send((s + 1) % p, tag, &s, sizeof s);
    int t = tu;
    bsp_set_tagsize(&t);
    CHECK(t == td, "processor %d: bsp_set_tagsize returned %d", s, t);
    bsp_sync();
    bsp_qsize(&n, &bytes);
    CHECK(n == 1 && bytes == sizeof(int), "processor %d: after the sync qsize %d %d", s, n, bytes);
    int from = -1;
    bsp_move(&from, sizeof from);
    CHECK(from == (s + p - 1) % p, "processor %d: message from %d", s, from);
    CHECK(ebsp_get_tagsize() == tu, "processor %d: tag size %d, set %d", s, ebsp_get_tagsize(), tu);
    bsp_sync();

    /* Up: every size, tags of the new size. */
    for (int k = 0; k < NSIZES; k++) {
        for (int i = 0; i < sizes[k]; i++)
            buf[i] = msg_byte(1, s, k, i);
        for (int i = 0; i < tu; i++)
            tag[i] = msg_byte(3, s, k, i);
        ebsp_send_up(tu ? tag : NULL, buf, sizes[k]);
    }
    free(buf);
    bsp_end();
    return 0;
}
