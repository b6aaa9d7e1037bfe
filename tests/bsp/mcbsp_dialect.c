/* mcbsp_dialect.c - the MulticoreBSP for C 2.x dialect: unsigned processor
 * ids, size_t sizes, and SIZE_MAX where the 1998 dialect returns -1 for an
 * empty queue (bsp_get_tag status, bsp_hpmove). */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
#define SUPERSTEP_MCBSP
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static size_t x[4];

int main(void)
{
    bsp_nprocs_t avail = bsp_nprocs();
    bsp_begin(avail);
    bsp_pid_t s = bsp_pid();
    bsp_nprocs_t p = bsp_nprocs();
    CHECK(p == avail && s < p, "pid %u of %u", s, p);
    bsp_pid_t right = (s + 1) % p, left = (s + p - 1) % p;

    /* Registration, put and get with size_t sizes. */
    bsp_push_reg(x, sizeof x);
    bsp_sync();
    size_t v = 1000 + s;
    bsp_put(right, &v, x, sizeof(size_t), sizeof v);
    size_t got = 0;
    x[3] = 3000 + s;
    bsp_get(right, x, 3 * sizeof(size_t), &got, sizeof got);
    bsp_sync();
    CHECK(x[1] == 1000 + left, "processor %u: x[1] = %zu", s, x[1]);
    CHECK(got == 3000 + right, "processor %u: got %zu", s, got);
    bsp_hpput(right, &v, x, 0, sizeof v);
    bsp_hpget(right, x, 3 * sizeof(size_t), &got, sizeof got);
    bsp_sync();
    CHECK(x[0] == 1000 + left && got == 3000 + right, "processor %u: hpput/hpget", s);

    /* An empty queue: SIZE_MAX from bsp_get_tag and bsp_hpmove. */
    bsp_nprocs_t packets = 99;
    bsp_size_t bytes = 99, status = 0;
    bsp_qsize(&packets, &bytes);
    CHECK(packets == 0 && bytes == 0, "processor %u: qsize %u, %zu", s, packets, bytes);
    bsp_get_tag(&status, NULL);
    CHECK(status == SIZE_MAX, "processor %u: get_tag on an empty queue gave %zu", s, status);
    void *tp, *pp;
    CHECK(bsp_hpmove(&tp, &pp) == SIZE_MAX, "processor %u: hpmove on an empty queue", s);

    /* Tag size in size_t; messages, and SIZE_MAX again once all are read. */
    bsp_size_t ts = sizeof(uint32_t);
    bsp_set_tagsize(&ts);
    CHECK(ts == 0, "processor %u: old tag size %zu", s, ts);
    bsp_sync();
    for (bsp_pid_t d = 0; d < p; d++) {
        uint32_t tag = 10 * s + d;
        char msg[16];
        int len = snprintf(msg, sizeof msg, "from %u", s);
        bsp_send(d, &tag, msg, (bsp_size_t)len + 1);
    }
    bsp_sync();
    bsp_qsize(&packets, &bytes);
    CHECK(packets == p, "processor %u: %u messages", s, packets);
    for (bsp_pid_t src = 0; src < p; src++) {
        uint32_t tag = 0;
        char msg[16], want[16];
        snprintf(want, sizeof want, "from %u", src);
        bsp_get_tag(&status, &tag);
        CHECK(status == strlen(want) + 1 && tag == 10 * src + s, "processor %u: status %zu tag "
              "%u", s, status, tag);
        if (src % 2) {
            bsp_move(msg, sizeof msg);
        } else {
            CHECK(bsp_hpmove(&tp, &pp) == strlen(want) + 1, "processor %u: hpmove", s);
            memcpy(msg, pp, strlen(want) + 1);
        }
        CHECK(strcmp(msg, want) == 0, "processor %u: got \"%s\", expected \"%s\"", s, msg, want);
    }
    uint32_t tag = 7;
    bsp_get_tag(&status, &tag);
    CHECK(status == SIZE_MAX && tag == 7, "processor %u: get_tag after the last message", s);
    CHECK(bsp_hpmove(&tp, &pp) == SIZE_MAX, "processor %u: hpmove after the last message", s);

    bsp_pop_reg(x);
    bsp_sync();
    bsp_end();
    return 0;
}
