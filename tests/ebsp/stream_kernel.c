/* stream_kernel.c - kernel of stream_host.  Streams: 0..p-1 one per
 * processor (down, with data), p the shared up stream, p+1 the stream handed
 * from processor to processor. */
// NORUN: the kernel of stream_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <limits.h>
#include <string.h>

#include "check.h"
#include "ebsp/ebsp.h"
#include "stream_common.h"

static int s;

/* The next token must be token k of stream 'owner'. */
static void expect(ebsp_stream *st, int owner, int k, int preload)
{
    void *buf = (void *)1;
    int n = bsp_stream_move_down(st, &buf, preload);
    if (k == DOWN_TOKENS) {
        CHECK(n == 0 && buf == NULL, "processor %d: token past the end: %d bytes", s, n);
        return;
    }
    int want = k < DOWN_TOKENS - 1 ? TOKEN : DOWN_BYTES - TOKEN * (DOWN_TOKENS - 1);
    CHECK(n == want, "processor %d: token %d of stream %d has %d bytes, expected %d", s, k, owner, n, want);
    const unsigned char *b = buf;
    for (int i = 0; i < n; i++)
        CHECK(b[i] == down_byte(owner, k * TOKEN + i), "processor %d: byte %d of token %d of stream %d", s, i, k, owner);
}

int main(void)
{
    bsp_begin();
    s = bsp_pid();
    int p = bsp_nprocs();
    ebsp_stream st;

    /* 1. My stream, front to back, double buffered. */
    CHECK(bsp_stream_open(&st, s) == TOKEN, "bsp_stream_open returns the token size");
    CHECK(st.max_chunksize == TOKEN, "token size %u", st.max_chunksize);
    uint64_t used = ebsp_stats.prefetch_used;
    for (int k = 0; k <= DOWN_TOKENS; k++)
        expect(&st, s, k, 1);
    CHECK(ebsp_stats.prefetch_used - used == DOWN_TOKENS - 1, "processor %d: %llu tokens came prefetched", s,
          (unsigned long long)(ebsp_stats.prefetch_used - used));

    /* 2. Seeks, clamped at both ends. */
    bsp_stream_seek(&st, INT_MIN);
    expect(&st, s, 0, 0);
    bsp_stream_seek(&st, 2);
    expect(&st, s, 3, 0);
    bsp_stream_seek(&st, -1);
    expect(&st, s, 3, 0);
    bsp_stream_seek(&st, -100);
    expect(&st, s, 0, 0);
    bsp_stream_seek(&st, INT_MAX);
    expect(&st, s, DOWN_TOKENS, 0);
    bsp_stream_seek(&st, -1);
    expect(&st, s, DOWN_TOKENS - 1, 0);
    bsp_stream_seek(&st, 100);
    expect(&st, s, DOWN_TOKENS, 1);
    bsp_stream_seek(&st, -3);
    expect(&st, s, DOWN_TOKENS - 3, 0);
    /* A seek discards a prefetched token. */
    bsp_stream_seek(&st, INT_MIN);
    expect(&st, s, 0, 1);       /* token 1 is being prefetched */
    bsp_stream_seek(&st, 1);    /* skip it */
    expect(&st, s, 2, 1);
    expect(&st, s, 3, 0);       /* token 3 was prefetched: used */
    bsp_stream_seek(&st, -2);
    expect(&st, s, 2, 0);
    bsp_stream_close(&st);
    /* Reopening starts at the front again. */
    bsp_stream_open(&st, s);
    expect(&st, s, 0, 0);
    bsp_stream_close(&st);

    /* 3. Stream p+1 goes round: in superstep k processor k opens it, reads
     * token k % 11, closes it. */
    for (int k = 0; k < p; k++) {
        if (s == k) {
            bsp_stream_open(&st, p + 1);
            bsp_stream_seek(&st, k % DOWN_TOKENS);
            expect(&st, 0, k % DOWN_TOKENS, 1);
            bsp_stream_close(&st);
        }
        bsp_sync();
    }

    /* 4. Stream p: each processor in turn appends its tokens, alternating
     * two buffers without waiting. */
    int run = -1, n, bytes;
    bsp_qsize(&n, &bytes);
    (void)n;
    (void)bytes;
    for (int k = 0; k < p; k++) {
        if (s == k) {
            bsp_stream_open(&st, p);
            bsp_stream_seek(&st, INT_MAX);
            int bufs[2][UP_TOKEN / sizeof(int)];
            for (int j = 0; j < UP_TOKENS; j++) {
                int *b = bufs[j % 2];
                for (unsigned i = 0; i < UP_TOKEN / sizeof(int); i++)
                    b[i] = s * 1000 + j * 10 + (int)i;
                CHECK(bsp_stream_move_up(&st, b, UP_TOKEN, 0) == UP_TOKEN, "move_up");
            }
            bsp_stream_close(&st);
        }
        bsp_sync();
    }
    (void)run;

    /* 5. Streams may stay open at bsp_end: they are handed back. */
    bsp_stream_open(&st, s);
    expect(&st, s, 0, 1);
    bsp_end();
    return 0;
}
