/* mem_host.c - the host's ebsp_write and ebsp_read of local memory, around
 * mem_kernel's checks of the allocators and direct access.  Also the size
 * set with SUPERSTEP_LOCAL_MEMORY. */
// RUN: n=1
// RUN: n=4
// RUN: n=3 env="SUPERSTEP_LOCAL_MEMORY=64K"
// RUN: n=2 env="SUPERSTEP_LOCAL_MEMORY=1M SUPERSTEP_NO_DIRECT=1"
// RUN: n=16 env="SUPERSTEP_LOCAL_MEMORY=256K" timeout=120
#include <host_bsp.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"

static unsigned long long local_size(void)
{
    const char *v = getenv("SUPERSTEP_LOCAL_MEMORY");
    if (!v)
        return 32ull << 20;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return *end == 'K' ? n << 10 : *end == 'M' ? n << 20 : n;
}

int main(int argc, char **argv)
{
    (void)argc;
    char arg[32];
    snprintf(arg, sizeof arg, "%llu", local_size());
    char *kargv[] = { argv[0], arg, NULL };
    bsp_init("mem_kernel", 2, kargv);
    int p = bsp_nprocs();
    bsp_begin(p);
    for (int run = 0; run < 2; run++) {
        for (int q = 0; q < p; q++) {
            int data[16];
            for (int i = 0; i < 16; i++)
                data[i] = q * 1000 + i;
            CHECK(ebsp_write(q, data, 100, sizeof data) == 1, "ebsp_write");
            int back[16];
            CHECK(ebsp_read(q, 100, back, sizeof back) == 1, "ebsp_read");
            CHECK(back[15] == q * 1000 + 15, "read back %d", back[15]);
        }
        CHECK(ebsp_spmd() == 1, "run %d failed", run);
        for (int q = 0; q < p; q++) {
            int out[4];
            ebsp_read(q, 200, out, sizeof out);
            CHECK(out[0] == q && out[1] == p && out[2] == ((q + p - 1) % p) * 100 && out[3] == 42,
                  "processor %d reported %d %d %d %d", q, out[0], out[1], out[2], out[3]);
        }
    }
    bsp_end();
    return 0;
}
