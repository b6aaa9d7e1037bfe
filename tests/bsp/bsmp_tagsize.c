/* bsmp_tagsize.c - bsp_set_tagsize(&n) returns the old size in n and takes
 * effect at the next bsp_sync; messages sent in the superstep of the change
 * keep the old tag size, also when they are received after it. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
#include <bsp.h>
#include <string.h>

#include "check.h"

/* hpmove's pointers need not be aligned: read through memcpy. */
static int int_at(const void *q)
{
    int v;
    memcpy(&v, q, sizeof v);
    return v;
}

/* Receive the one message from each source; check its tag has `ts` bytes
 * (the rest of the buffer untouched) and its payload is the source pid. */
static void receive(int ts, int step)
{
    int s = bsp_pid(), p = bsp_nprocs();
    int nmsg, nbytes;
    bsp_qsize(&nmsg, &nbytes);
    CHECK(nmsg == p && nbytes == p * (int)sizeof(int), "processor %d, step %d: qsize %d, %d", s,
          step, nmsg, nbytes);
    for (int src = 0; src < p; src++) {
        unsigned char tag[32];
        memset(tag, 0xee, sizeof tag);
        int status;
        bsp_get_tag(&status, tag);
        CHECK(status == sizeof(int), "processor %d, step %d: status %d", s, step, status);
        for (int i = 0; i < ts; i++)
            CHECK(tag[i] == (unsigned char)(src + i + step), "processor %d, step %d: tag byte %d "
                  "from %d is %u", s, step, i, src, tag[i]);
        for (int i = ts; i < 32; i++)
            CHECK(tag[i] == 0xee, "processor %d, step %d: tag of %d bytes, not %d", s, step,
                  i + 1, ts);
        void *tp, *pp;
        CHECK(bsp_hpmove(&tp, &pp) == sizeof(int), "processor %d: hpmove", s);
        CHECK(int_at(pp) == src, "processor %d, step %d: payload %d from %d", s, step,
              int_at(pp), src);
        if (ts > 0)
            CHECK(memcmp(tp, tag, ts) == 0, "processor %d, step %d: hpmove tag differs", s, step);
    }
}

/* Send one message to everybody with a tag of `ts` bytes. */
static void send_all(int ts, int step)
{
    int s = bsp_pid(), p = bsp_nprocs();
    unsigned char tag[32];
    for (int i = 0; i < 32; i++)
        tag[i] = (unsigned char)(i < ts ? s + i + step : 0x55);
    for (int d = 0; d < p; d++)
        bsp_send(d, ts > 0 ? tag : NULL, &s, sizeof s);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid();

    /* Step 0: the tag size starts at 0.  Ask for 8, send with tag size 0
     * (a NULL tag is fine then). */
    int n = 8;
    bsp_set_tagsize(&n);
    CHECK(n == 0, "processor %d: initial tag size %d", s, n);
    send_all(0, 0);
    bsp_sync();

    /* Step 1: tag size 8; last superstep's messages have 0-byte tags. */
    receive(0, 0);
    send_all(8, 1);
    n = 3;
    bsp_set_tagsize(&n);
    CHECK(n == 8, "processor %d: set_tagsize returned %d, expected 8", s, n);
    send_all(8, 1); /* still 8 after the call in this superstep */
    bsp_sync();

    /* Step 2: tag size 3; the messages were sent with 8-byte tags. */
    {
        int s2 = bsp_pid(), p = bsp_nprocs(), nmsg, nbytes;
        bsp_qsize(&nmsg, &nbytes);
        CHECK(nmsg == 2 * p, "processor %d: %d messages, expected %d", s2, nmsg, 2 * p);
    }
    /* Both rounds came from every source; source order first. */
    for (int src = 0; src < bsp_nprocs(); src++)
        for (int round = 0; round < 2; round++) {
            unsigned char tag[32];
            memset(tag, 0xee, sizeof tag);
            int status;
            bsp_get_tag(&status, tag);
            CHECK(status == sizeof(int), "processor %d: status %d", s, status);
            for (int i = 0; i < 8; i++)
                CHECK(tag[i] == (unsigned char)(src + i + 1), "processor %d: 8-byte tag byte %d "
                      "from %d is %u", s, i, src, tag[i]);
            CHECK(tag[8] == 0xee, "processor %d: tag longer than 8 bytes", s);
            int payload = -1;
            bsp_move(&payload, sizeof payload);
            CHECK(payload == src, "processor %d: payload %d from %d", s, payload, src);
        }
    send_all(3, 2);
    bsp_sync();

    /* Step 3: tag size 3 both for sending and receiving. */
    receive(3, 2);
    n = 16;
    bsp_set_tagsize(&n);
    CHECK(n == 3, "processor %d: set_tagsize returned %d, expected 3", s, n);
    bsp_sync();

    /* Step 4: set back to 0, check the value returned. */
    send_all(16, 4);
    n = 0;
    bsp_set_tagsize(&n);
    CHECK(n == 16, "processor %d: set_tagsize returned %d, expected 16", s, n);
    bsp_sync();
    receive(16, 4);
    send_all(0, 5);
    bsp_sync();
    receive(0, 5);
    bsp_end();
    return 0;
}
