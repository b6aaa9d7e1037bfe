/* bsmp_align.c - bsp_hpmove's payload pointers are 8-byte aligned for every
 * tag size and payload size (the queue keeps records at multiples of 8),
 * including messages with long tags or payloads (the general record) and
 * messages interleaved with puts (which split the runs the sync copies in
 * one piece); tags, payloads, order and bsp_qsize stay exact. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static const int tagsizes[] = { 0, 1, 4, 5, 8, 13, 64, 255, 256, 300 };
static const int sizes[] = { 0, 1, 3, 7, 8, 15, 16, 17, 64, 65, 100, 255, 4000, 65535, 65536, 70000 };
#define NT (int)(sizeof tagsizes / sizeof *tagsizes)
#define NS (int)(sizeof sizes / sizeof *sizes)

static unsigned char byte_at(int src, int k, int i) { return (unsigned char)(src * 29 + k * 11 + i * 3 + 1); }

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int word = 0;
    bsp_push_reg(&word, sizeof word);
    unsigned char *buf = malloc(70000 + 300);
    CHECK(buf, "malloc");
    for (int t = 0; t < NT; t++) {
        int ts = tagsizes[t];
        bsp_set_tagsize(&ts);
        bsp_sync();
        /* To every processor: each size once, a put between every two. */
        for (int d = 0; d < p; d++)
            for (int k = 0; k < NS; k++) {
                unsigned char tag[300];
                for (int i = 0; i < tagsizes[t]; i++)
                    tag[i] = byte_at(s, k, 1000 + i);
                for (int i = 0; i < sizes[k]; i++)
                    buf[i] = byte_at(s, k, i);
                bsp_send(d, tag, buf, sizes[k]);
                if (k % 3 == 1)
                    bsp_put(d, &k, &word, 0, sizeof k);
            }
        bsp_sync();
        int nmsg, nbytes, total = 0;
        for (int k = 0; k < NS; k++)
            total += sizes[k];
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == p * NS && nbytes == p * total, "processor %d, tag size %d: qsize %d, %d", s,
              tagsizes[t], nmsg, nbytes);
        for (int i = 0; i < p * NS; i++) {
            int src = i / NS, k = i % NS;
            void *tp, *pp;
            CHECK(bsp_hpmove(&tp, &pp) == sizes[k], "processor %d, tag size %d: message %d length", s,
                  tagsizes[t], i);
            CHECK((uintptr_t)pp % 8 == 0, "processor %d, tag size %d: payload of %d bytes at %p, not 8-byte aligned",
                  s, tagsizes[t], sizes[k], pp);
            const unsigned char *tag = tp, *pay = pp;
            for (int j = 0; j < tagsizes[t]; j++)
                CHECK(tag[j] == byte_at(src, k, 1000 + j), "processor %d, tag size %d: message %d tag byte %d", s,
                      tagsizes[t], i, j);
            for (int j = 0; j < sizes[k]; j++)
                CHECK(pay[j] == byte_at(src, k, j), "processor %d, tag size %d: message %d payload byte %d", s,
                      tagsizes[t], i, j);
        }
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == 0 && nbytes == 0, "processor %d: qsize %d, %d after the last", s, nmsg, nbytes);
    }
    bsp_pop_reg(&word);
    bsp_sync();
    free(buf);
    bsp_end();
    return 0;
}
