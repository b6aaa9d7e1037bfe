/* small_copies.c - puts, messages and tags of every size from 0 to 80
 * bytes (small copies are done inline, in pieces that may overlap): each
 * arrives whole, and not one byte beside it is written (guard bytes around
 * every destination, a bsp_move with a smaller reception size, a tag of
 * every size from 1 to 40 read with bsp_get_tag). */
// RUN: n=1
// RUN: n=2
// RUN: n=3
#include <bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { MAXN = 80, GAP = 16, SLOT = MAXN + 2 * GAP, GUARD = 0xEE };

static unsigned char byte_of(int src, int n, int i) { return (unsigned char)(src * 31 + n * 7 + i + 1); }

static void check_guarded(const unsigned char *slot, int src, int n, const char *what)
{
    for (int i = 0; i < SLOT; i++) {
        int inside = i >= GAP && i < GAP + n;
        unsigned char want = inside ? byte_of(src, n, i - GAP) : GUARD;
        CHECK(slot[i] == want, "%s of %d bytes from %d: byte %d is %d, want %d", what, n, src, i - GAP,
                  slot[i], want);
    }
}

/* Every size of put, each into its own guarded slot on the right neighbour. */
static void puts_of_every_size(int s, int p)
{
    unsigned char *area = malloc((size_t)p * (MAXN + 1) * SLOT);
    memset(area, GUARD, (size_t)p * (MAXN + 1) * SLOT);
    bsp_push_reg(area, p * (MAXN + 1) * SLOT);
    bsp_sync();
    unsigned char src[MAXN];
    for (int n = 1; n <= MAXN; n++) {
        for (int i = 0; i < n; i++)
            src[i] = byte_of(s, n, i);
        bsp_put((s + 1) % p, src, area, (s * (MAXN + 1) + n) * SLOT + GAP, n);
    }
    bsp_sync();
    int left = (s + p - 1) % p;
    for (int n = 1; n <= MAXN; n++)
        check_guarded(area + (size_t)(left * (MAXN + 1) + n) * SLOT, left, n, "put");
    bsp_pop_reg(area);
    bsp_sync();
    free(area);
}

/* Messages of every payload size, moved whole and cut short. */
static void messages_of_every_size(int s, int p)
{
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync();
    unsigned char payload[MAXN];
    for (int n = 0; n <= MAXN; n++) {
        for (int i = 0; i < n; i++)
            payload[i] = byte_of(s, n, i);
        bsp_send((s + 1) % p, &n, payload, n);
    }
    bsp_sync();
    int left = (s + p - 1) % p, status, n;
    unsigned char slot[SLOT];
    for (int k = 0; k <= MAXN; k++) {
        bsp_get_tag(&status, &n);
        CHECK(status == k && n == k, "message %d: tag %d, size %d", k, n, status);
        memset(slot, GUARD, sizeof slot);
        int cut = k % 3 == 0 ? k / 2 : k; /* every third one cut to half */
        bsp_move(slot + GAP, cut);
        for (int i = 0; i < SLOT; i++) {
            int inside = i >= GAP && i < GAP + cut;
            unsigned char want = inside ? byte_of(left, k, i - GAP) : GUARD;
            CHECK(slot[i] == want, "bsp_move of %d of %d bytes: byte %d is %d, want %d", cut, k, i - GAP,
                      slot[i], want);
        }
    }
    bsp_get_tag(&status, &n);
    CHECK(status == -1, "a message too many: size %d", status);
}

/* Tags of every size from 1 to 40 bytes, one superstep each. */
static void tags_of_every_size(int s, int p)
{
    unsigned char tag[40], slot[SLOT];
    for (int t = 1; t <= 40; t++) {
        int size = t; /* bsp_set_tagsize returns the old size in its argument */
        bsp_set_tagsize(&size);
        bsp_sync();
        for (int i = 0; i < t; i++)
            tag[i] = byte_of(s, t, i);
        bsp_send((s + 1) % p, tag, NULL, 0);
        bsp_sync();
        int status;
        memset(slot, GUARD, sizeof slot);
        bsp_get_tag(&status, slot + GAP);
        CHECK(status == 0, "tag of %d bytes: message of %d bytes", t, status);
        check_guarded(slot, (s + p - 1) % p, t, "tag");
        bsp_move(NULL, 0);
    }
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    puts_of_every_size(s, p);
    messages_of_every_size(s, p);
    tags_of_every_size(s, p);
    bsp_end();
    return 0;
}
