/* dma_host.c - runs dma_kernel twice (a fresh DMA engine in every run). */
// RUN: n=1
// RUN: n=2
// RUN: n=4 timeout=120
#include <host_bsp.h>

#include "check.h"

int main(int argc, char **argv)
{
    bsp_init("dma_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    for (int run = 0; run < 2; run++) {
        CHECK(ebsp_spmd() == 1, "run %d failed", run);
        for (int q = 0; q < bsp_nprocs(); q++) {
            char c[2];
            ebsp_read(q, 0, &c[0], 1);
            ebsp_read(q, (1 << 20) - 1, &c[1], 1);
            CHECK(c[0] == 'A' + q % 26 && c[1] == c[0], "processor %d: the last copy did not finish", q);
            ebsp_write(q, "xx", 0, 2);
        }
    }
    bsp_end();
    return 0;
}
