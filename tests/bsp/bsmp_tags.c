/* bsmp_tags.c - bulk synchronous message passing with every tag size from 0
 * to 16: bsp_send, then in the next superstep bsp_qsize, bsp_get_tag and
 * either bsp_move or bsp_hpmove.  qsize counts the messages still queued and
 * their payload bytes (tags excluded); get_tag gives the payload length and
 * copies the tag; an empty queue gives -1. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <string.h>

#include "check.h"

#define PER_DEST 3

static unsigned char tag_byte(int src, int dst, int k, int i) { return (unsigned char)(src * 31 + dst * 7 + k * 3 + i + 1); }
static unsigned char pay_byte(int src, int k, int i) { return (unsigned char)(src * 17 + k * 5 + i * 11); }
static int pay_len(int src, int dst, int k, int tagsize) { return (src + dst + k + tagsize) % 5 * 3; }

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();

    for (int ts = 0; ts <= 16; ts++) {
        int size = ts;
        bsp_set_tagsize(&size);
        CHECK(size == (ts == 0 ? 0 : ts - 1), "processor %d: set_tagsize(%d) returned %d", s, ts,
              size);
        bsp_sync(); /* the new tag size holds from here */

        for (int d = 0; d < p; d++)
            for (int k = 0; k < PER_DEST; k++) {
                unsigned char tag[16], pay[16];
                for (int i = 0; i < ts; i++)
                    tag[i] = tag_byte(s, d, k, i);
                int len = pay_len(s, d, k, ts);
                for (int i = 0; i < len; i++)
                    pay[i] = pay_byte(s, k, i);
                bsp_send(d, tag, pay, len);
            }
        int nmsg = -1, nbytes = -1;
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == 0 && nbytes == 0, "processor %d: messages visible before the sync", s);
        bsp_sync();

        /* Expected: PER_DEST messages from each source, in source order. */
        int left_msgs = p * PER_DEST, left_bytes = 0;
        for (int src = 0; src < p; src++)
            for (int k = 0; k < PER_DEST; k++)
                left_bytes += pay_len(src, s, k, ts);
        for (int src = 0; src < p; src++)
            for (int k = 0; k < PER_DEST; k++) {
                bsp_qsize(&nmsg, &nbytes);
                CHECK(nmsg == left_msgs && nbytes == left_bytes,
                      "processor %d, tag size %d: qsize %d messages %d bytes, expected %d, %d", s,
                      ts, nmsg, nbytes, left_msgs, left_bytes);
                int len = pay_len(src, s, k, ts), status = -2;
                unsigned char tag[17], pay[17];
                memset(tag, 0xee, sizeof tag);
                memset(pay, 0xee, sizeof pay);
                bsp_get_tag(&status, tag);
                CHECK(status == len, "processor %d, tag size %d: status %d, expected %d", s, ts,
                      status, len);
                for (int i = 0; i < ts; i++)
                    CHECK(tag[i] == tag_byte(src, s, k, i), "processor %d, tag size %d: message "
                          "%d from %d: tag byte %d", s, ts, k, src, i);
                CHECK(tag[ts] == 0xee, "processor %d: get_tag wrote more than %d bytes", s, ts);
                /* get_tag does not dequeue: asking again gives the same. */
                bsp_get_tag(&status, tag);
                CHECK(status == len, "processor %d: second get_tag gave %d", s, status);
                const unsigned char *payload;
                if (ts % 2 == 0) {
                    bsp_move(pay, sizeof pay);
                    payload = pay;
                    CHECK(pay[len] == 0xee, "processor %d: move wrote past the payload", s);
                } else {
                    void *tp = NULL, *pp = NULL;
                    int got = bsp_hpmove(&tp, &pp);
                    CHECK(got == len, "processor %d: hpmove gave %d, expected %d", s, got, len);
                    CHECK(ts == 0 || memcmp(tp, tag, ts) == 0, "processor %d: hpmove tag", s);
                    payload = pp;
                }
                for (int i = 0; i < len; i++)
                    CHECK(payload[i] == pay_byte(src, k, i), "processor %d, tag size %d: message "
                          "%d from %d: payload byte %d", s, ts, k, src, i);
                left_msgs--;
                left_bytes -= len;
            }
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == 0 && nbytes == 0, "processor %d: qsize %d, %d at the end", s, nmsg, nbytes);
        int status = 5;
        unsigned char tag[16] = {0};
        bsp_get_tag(&status, tag);
        CHECK(status == -1, "processor %d: get_tag on an empty queue gave %d", s, status);
        void *tp, *pp;
        CHECK(bsp_hpmove(&tp, &pp) == -1, "processor %d: hpmove on an empty queue", s);
    }
    bsp_end();
    return 0;
}
