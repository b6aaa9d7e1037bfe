/* put_overlap.c - several puts to one place in one superstep are applied in
 * order of source pid, then in issue order within a source: the last put of
 * the highest-numbered source wins, byte by byte where they overlap. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <string.h>
#include <time.h>

#include "check.h"

#define AREA 256
#define NPUTS 40
static int x;
static unsigned char area[AREA];

/* The k-th put of processor s: a deterministic pseudo-random range. */
static void nth_put(int s, int k, int *off, int *len, unsigned char *byte)
{
    unsigned h = (unsigned)(s * 7919 + k * 104729 + 12345);
    h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
    *off = (int)(h % AREA);
    *len = (int)((h >> 8) % (AREA - *off + 1));
    *byte = (unsigned char)(1 + (s * NPUTS + k) % 255);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    bsp_push_reg(&x, sizeof x);
    bsp_push_reg(area, sizeof area);
    bsp_sync();

    /* Everybody puts three values to x on everybody: 10s, 10s+1, 10s+2. */
    for (int k = 0; k < 3; k++) {
        int v = 10 * s + k;
        for (int t = 0; t < p; t++)
            bsp_put(t, &v, &x, 0, sizeof v);
    }
    bsp_sync();
    CHECK(x == 10 * (p - 1) + 2, "processor %d: x = %d, expected %d", s, x, 10 * (p - 1) + 2);

    /* The same once more, with the lower pids putting later in real time:
     * only the pids count, not the order of arrival. */
    x = -1;
    struct timespec nap = {0, (long)(p - 1 - s) * 2000 * 1000};
    nanosleep(&nap, NULL);
    for (int k = 0; k < 3; k++) {
        int v = 10 * s + k;
        for (int t = 0; t < p; t++)
            bsp_put(t, &v, &x, 0, sizeof v);
    }
    bsp_sync();
    CHECK(x == 10 * (p - 1) + 2, "processor %d: x = %d, expected %d", s, x, 10 * (p - 1) + 2);

    /* Partly overlapping ranges of bytes: every processor issues NPUTS puts
     * to every processor; the result must equal applying them in
     * (source pid, issue order) to a local model. */
    memset(area, 0, sizeof area);
    for (int k = 0; k < NPUTS; k++) {
        int off, len;
        unsigned char byte, buf[AREA];
        nth_put(s, k, &off, &len, &byte);
        memset(buf, byte, len);
        for (int t = 0; t < p; t++)
            bsp_put(t, buf, area, off, len);
    }
    bsp_sync();
    unsigned char model[AREA] = {0};
    for (int src = 0; src < p; src++)
        for (int k = 0; k < NPUTS; k++) {
            int off, len;
            unsigned char byte;
            nth_put(src, k, &off, &len, &byte);
            memset(model + off, byte, len);
        }
    for (int i = 0; i < AREA; i++)
        CHECK(area[i] == model[i], "processor %d: byte %d is %u, expected %u", s, i, area[i],
              model[i]);

    bsp_pop_reg(area);
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
    return 0;
}
