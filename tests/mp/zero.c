/* zero.c - zero-length messages: with a NULL or a real data pointer, into
 * a NULL buffer with maxlength 0 or a real one, of both classes, mixed
 * with non-empty ones; tags and order come back intact.
 * Usage: zero [COUNT] */
// RUN: n=2
// RUN: n=3 args="5000"
// RUN: n=1 args="100"
#include "mp_test.h"

#include <stdio.h>

int main(int argc, char **argv)
{
    long count = argc > 1 ? atol(argv[1]) : 1000;
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int n = mp_npes(), me = mp_this_pe();
    int dst = me % n + 1, src = (me + n - 2) % n + 1; /* a ring; one node sends to itself */
    char data[4] = "abc";
    for (long i = 0; i < count; i++) {
        int tag = (int)(i * 2654435761u) & ~MP_SYSTEM;
        if (i % 5 == 4)
            tag |= MP_SYSTEM;
        if (i % 7 == 6)
            CHECK(mp_send(dst, tag, data, 3), "send 3 bytes");
        else
            CHECK(mp_send(dst, tag, i % 2 ? data : NULL, 0), "send nothing");
    }
    long seen[2] = { 0, 0 };
    for (long k = 0; k < count; k++) {
        int tag = 0, from = 0;
        char buf[4] = { 0 };
        /* The message to come: NULL buffer for an empty one. */
        size_t plen = 99;
        CHECK(mp_probe_wait(src, 30) && mp_probe_info(src, &plen, NULL, NULL), "nothing waiting");
        size_t len = plen ? mp_recv(sizeof buf, buf, &tag, &from) : mp_recv(0, NULL, &tag, &from);
        CHECK(from == src && len == plen, "got %zu bytes from %d, expected %zu from %d", len, from, plen, src);
        int cls = (tag & MP_SYSTEM) != 0;
        /* Find which message this is: the next of its class. */
        long i = seen[cls];
        for (;; i++) {
            bool is_sys = i % 5 == 4;
            if (is_sys == (bool)cls)
                break;
        }
        int want = (int)(i * 2654435761u) & ~MP_SYSTEM;
        if (cls)
            want |= MP_SYSTEM;
        CHECK(tag == want, "class %d message %ld: tag %d, expected %d", cls, i, tag, want);
        size_t want_len = i % 7 == 6 ? 3 : 0;
        CHECK(len == want_len && (!len || memcmp(buf, "abc", 3) == 0), "message %ld: %zu bytes", i, len);
        seen[cls] = i + 1;
    }
    CHECK(mp_sync(), "barrier");
    CHECK(!mp_probe(), "left over");
    CHECK(mp_sync(), "barrier");
    printf("node %d: %ld empty and tiny messages\n", me, count);
    finish();
    return 0;
}
