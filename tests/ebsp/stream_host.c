/* stream_host.c - streams made by the host, read and written by the
 * kernels over two runs; the host then reads the up stream's tokens.
 * Streams of a session are gone at bsp_end: a second session starts again
 * from id 0. */
// RUN: n=1
// RUN: n=3
// RUN: n=8 timeout=120
#include <host_bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "stream_common.h"

static void session(int p)
{
    bsp_begin(p);
    unsigned char *data = malloc(DOWN_BYTES);
    for (int q = 0; q < p; q++) {
        for (int i = 0; i < DOWN_BYTES; i++)
            data[i] = down_byte(q, i);
        bsp_stream_create(DOWN_BYTES, TOKEN, data);
    }
    char *up = bsp_stream_create(2 * p * UP_TOKENS * UP_TOKEN, UP_TOKEN, NULL);
    for (int i = 0; i < DOWN_BYTES; i++)
        data[i] = down_byte(0, i);
    bsp_stream_create(DOWN_BYTES, TOKEN, data);
    free(data);
    for (int run = 1; run <= 2; run++) {
        CHECK(ebsp_spmd() == 1, "p %d run %d failed", p, run);
        /* The up stream: run * p * UP_TOKENS tokens, processor by processor. */
        const char *c = up;
        int prev = 0;
        for (int r = 0; r < run; r++)
            for (int q = 0; q < p; q++)
                for (int j = 0; j < UP_TOKENS; j++) {
                    int h[2];
                    memcpy(h, c, sizeof h);
                    CHECK(h[0] == prev && h[1] == UP_TOKEN, "run %d: header %d %d of token %d of %d", run, h[0],
                          h[1], j, q);
                    int v[UP_TOKEN / sizeof(int)];
                    memcpy(v, c + 8, sizeof v);
                    for (unsigned i = 0; i < UP_TOKEN / sizeof(int); i++)
                        CHECK(v[i] == q * 1000 + j * 10 + (int)i, "run %d: token %d of %d: int %u is %d", run, j, q,
                              i, v[i]);
                    c += 8 + UP_TOKEN;
                    prev = UP_TOKEN;
                }
        int h[2];
        memcpy(h, c, sizeof h);
        CHECK(h[0] == UP_TOKEN && h[1] == 0, "run %d: end header %d %d", run, h[0], h[1]);
    }
    bsp_end();
}

int main(int argc, char **argv)
{
    bsp_init("stream_kernel", argc, argv);
    session(bsp_nprocs());
    session(bsp_nprocs());
    return 0;
}
