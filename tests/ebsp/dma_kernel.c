/* dma_kernel.c - kernel of dma_host: ebsp_dma_push returns before the copy
 * is done (computation overlaps it), copies run in push order, waits and
 * handles behave, and DMA into another processor's memory through
 * ebsp_get_direct_address works. */
// NORUN: the kernel of dma_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "ebsp/ebsp.h"

#define BIG (32u << 20)

int main(void)
{
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs();

    /* A zeroed handle has nothing pending. */
    ebsp_dma_handle h;
    memset(&h, 0, sizeof h);
    ebsp_dma_wait(&h);

    /* Overlap: right after the push the copy is still going, at least in
     * one of a few tries (a synchronous copy would never be seen so). */
    char *src = malloc(BIG), *dst = malloc(BIG);
    CHECK(src && dst, "malloc");
    memset(src, 1, BIG);
    memset(dst, 0, BIG);
    int seen_running = 0;
    for (int round = 0; round < 5 && !seen_running; round++) {
        memset(dst + BIG - 4096, 0, 4096);
        src[BIG - 1] = (char)(round + 2);
        ebsp_dma_push(&h, dst, src, BIG);
        if (dst[BIG - 1] != (char)(round + 2))
            seen_running = 1;
        /* compute while it copies */
        volatile double x = 0;
        for (int i = 0; i < 100000; i++)
            x += i * 0.5;
        ebsp_dma_wait(&h);
        CHECK(dst[BIG - 1] == (char)(round + 2) && dst[0] == 1, "processor %d: copy incomplete after wait", s);
        ebsp_dma_wait(&h); /* waited already: returns at once */
    }
    CHECK(seen_running, "processor %d: ebsp_dma_push never returned before its copy was done", s);

    /* Order: each copy reads what the one before it wrote. */
    enum { N = 200, LEN = 4096 };
    char *chain = calloc(N + 1, LEN);
    memset(chain, 'a' + s % 26, LEN);
    ebsp_dma_handle hs[N];
    for (int i = 0; i < N; i++)
        ebsp_dma_push(&hs[i], chain + (size_t)(i + 1) * LEN, chain + (size_t)i * LEN, LEN);
    ebsp_dma_wait(&hs[N - 1]); /* and so every earlier one */
    for (int i = 0; i <= N; i++)
        CHECK(chain[(size_t)i * LEN + LEN - 1] == 'a' + s % 26, "processor %d: copy %d out of order", s, i);
    for (int i = 0; i < N; i++)
        ebsp_dma_wait(&hs[i]);
    free(chain);

    /* Into the next processor's local memory. */
    int *inbox = ebsp_malloc(256 * sizeof(int));
    memset(inbox, 0, 256 * sizeof(int));
    bsp_push_reg(inbox, 256 * sizeof(int));
    bsp_sync();
    int mine[256];
    for (int i = 0; i < 256; i++)
        mine[i] = s * 1000 + i;
    int *remote = ebsp_get_direct_address((s + 1) % p, inbox);
    CHECK(remote, "processor %d: no direct address", s);
    ebsp_dma_push(&h, remote, mine, sizeof mine);
    ebsp_dma_wait(&h);
    bsp_sync();
    int prev = (s + p - 1) % p;
    for (int i = 0; i < 256; i++)
        CHECK(inbox[i] == prev * 1000 + i, "processor %d: inbox[%d] = %d", s, i, inbox[i]);
    CHECK(ebsp_stats.dma_pushed >= N + 2, "processor %d: %llu copies counted", s,
          (unsigned long long)ebsp_stats.dma_pushed);

    /* Copies still queued at bsp_end are finished first: the host checks
     * the first MiB of local memory. */
    memset(src, 'A' + s % 26, 1 << 20);
    ebsp_dma_push(&h, ebsp_local_address(0), dst, BIG);   /* a big one first */
    ebsp_dma_push(&h, ebsp_local_address(0), src, 1 << 20);
    bsp_end();
    return 0;
}
