/* bsmp_sizes.c - messages of 0 bytes, of odd sizes and of several MiB;
 * bsp_move copies at most reception_nbytes bytes.
 * Usage: bsmp_sizes [MiB of the large messages] (default 3). */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
#include <bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* hpmove's pointers need not be aligned: read through memcpy. */
static int int_at(const void *q)
{
    int v;
    memcpy(&v, q, sizeof v);
    return v;
}

static unsigned char byte_at(int src, size_t i) { return (unsigned char)(src * 101 + i * 7 + i / 251); }

int main(int argc, char **argv)
{
    int mib = argc > 1 ? atoi(argv[1]) : 3;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int tagsize = sizeof(int);
    bsp_set_tagsize(&tagsize);
    bsp_sync();

    /* Zero-byte payloads, with a NULL or a real payload pointer. */
    int dummy = 1;
    for (int d = 0; d < p; d++) {
        int tag = 10 * s;
        bsp_send(d, &tag, NULL, 0);
        tag++;
        bsp_send(d, &tag, &dummy, 0);
    }
    bsp_sync();
    int nmsg, nbytes;
    bsp_qsize(&nmsg, &nbytes);
    CHECK(nmsg == 2 * p && nbytes == 0, "processor %d: qsize %d, %d", s, nmsg, nbytes);
    for (int i = 0; i < 2 * p; i++) {
        int status = -5, tag = -1;
        bsp_get_tag(&status, &tag);
        CHECK(status == 0, "processor %d: status %d for an empty payload", s, status);
        CHECK(tag == 10 * (i / 2) + i % 2, "processor %d: tag %d", s, tag);
        if (i % 2 == 0) {
            bsp_move(NULL, 0);
        } else {
            void *tp, *pp;
            CHECK(bsp_hpmove(&tp, &pp) == 0, "processor %d: hpmove length", s);
            CHECK(int_at(tp) == tag, "processor %d: hpmove tag", s);
        }
    }
    bsp_qsize(&nmsg, &nbytes);
    CHECK(nmsg == 0 && nbytes == 0, "processor %d: queue not empty", s);

    /* Large messages of an odd length to everybody. */
    size_t big = ((size_t)mib << 20) + 3;
    unsigned char *out = malloc(big), *in = malloc(big + 1);
    CHECK(out && in, "out of memory");
    for (size_t i = 0; i < big; i++)
        out[i] = byte_at(s, i);
    for (int d = 0; d < p; d++)
        bsp_send(d, &s, out, big);
    memset(out, 0, big); /* bsp_send copied it */
    bsp_sync();
    bsp_qsize(&nmsg, &nbytes);
    CHECK(nmsg == p && (size_t)nbytes == p * big, "processor %d: qsize %d, %d", s, nmsg, nbytes);
    for (int src = 0; src < p; src++) {
        int status, tag = -1;
        bsp_get_tag(&status, &tag);
        CHECK((size_t)status == big && tag == src, "processor %d: status %d tag %d", s, status,
              tag);
        if (src % 2 == 0) {
            in[big] = 0xab;
            bsp_move(in, big + 1);
            CHECK(in[big] == 0xab, "processor %d: move wrote past the payload", s);
            for (size_t i = 0; i < big; i++)
                CHECK(in[i] == byte_at(src, i), "processor %d: byte %zu from %d", s, i, src);
        } else {
            void *tp, *pp;
            CHECK((size_t)bsp_hpmove(&tp, &pp) == big, "processor %d: hpmove length", s);
            CHECK(int_at(tp) == src, "processor %d: hpmove tag", s);
            const unsigned char *q = pp;
            for (size_t i = 0; i < big; i++)
                CHECK(q[i] == byte_at(src, i), "processor %d: byte %zu from %d", s, i, src);
        }
    }

    /* bsp_move with a smaller buffer copies only its first bytes. */
    for (int d = 0; d < p; d++)
        bsp_send(d, &s, (unsigned char[]){1, 2, 3, 4, 5, 6, 7, 8}, 8);
    bsp_sync();
    for (int src = 0; src < p; src++) {
        unsigned char buf[8];
        memset(buf, 0, sizeof buf);
        bsp_move(buf, 5);
        CHECK(memcmp(buf, "\1\2\3\4\5\0\0\0", 8) == 0, "processor %d: move(5) copied "
              "%u %u %u %u %u %u %u %u", s, buf[0], buf[1], buf[2], buf[3], buf[4], buf[5],
              buf[6], buf[7]);
    }
    bsp_qsize(&nmsg, &nbytes);
    CHECK(nmsg == 0, "processor %d: the truncated moves did not dequeue", s);

    free(in);
    free(out);
    bsp_end();
    return 0;
}
