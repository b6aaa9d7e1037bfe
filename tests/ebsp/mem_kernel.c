/* mem_kernel.c - kernel of mem_host: ebsp_malloc, ebsp_ext_malloc, ebsp_free,
 * local memory shared with the host, direct addresses, immediate hp
 * transfers, ebsp_memcpy.  Argument: the local memory size expected. */
// NORUN: the kernel of mem_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "device/device.h"

static int private_global[8];

int main(int argc, char **argv)
{
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(argc == 2, "arguments");
    size_t lsize = (size_t)atoll(argv[1]);
    char *base = ebsp_local_address(0);
    CHECK(base && ebsp_local_size() == lsize, "processor %d: local memory %zu, expected %zu", s, ebsp_local_size(), lsize);
    CHECK(ebsp_local_address(lsize) == NULL && ebsp_local_address(lsize - 1) == base + lsize - 1, "local_address bounds");

    /* The host wrote 16 ints at offset 100. */
    int *in = (int *)(base + 100);
    for (int i = 0; i < 16; i++)
        CHECK(in[i] == s * 1000 + i, "processor %d: host data %d is %d", s, i, in[i]);

    /* Allocation from the top down, 16-byte aligned, reuse after free. */
    char *a = ebsp_malloc(100);
    CHECK(a && (uintptr_t)a % 16 == 0 && a + 112 == base + lsize, "processor %d: first block %p, top %p", s,
          (void *)a, (void *)(base + lsize));
    char *b = ebsp_malloc(1);
    CHECK(b && b + 16 == a, "second block below the first");
    ebsp_free(a);
    char *c = ebsp_malloc(64);
    CHECK(c && c >= b + 16 && c + 64 <= base + lsize, "reuse of the freed block");
    ebsp_free(b);
    ebsp_free(c);
    /* Fill local memory with 4 KiB blocks: it holds lsize / 4096 of them. */
    size_t nblk = lsize / 4096, got = 0;
    void **blk = calloc(nblk + 2, sizeof *blk);
    while (got < nblk + 2 && (blk[got] = ebsp_malloc(4096)))
        got++;
    CHECK(got == nblk, "processor %d: %zu blocks of 4 KiB in %zu bytes", s, got, lsize);
    CHECK(ebsp_malloc(16) == NULL, "allocation in a full local memory");
    for (size_t i = 0; i < got; i += 2)
        ebsp_free(blk[i]);
    for (size_t i = 0; i < got; i += 2)
        CHECK((blk[i] = ebsp_malloc(4096)) != NULL, "reallocation %zu", i);
    for (size_t i = 0; i < got; i++)
        ebsp_free(blk[i]);
    free(blk);
    CHECK(ebsp_malloc(0x7fffffffu) == NULL, "absurd allocation");

    /* External memory: elsewhere, also aligned. */
    char *e = ebsp_ext_malloc(1000);
    CHECK(e && (uintptr_t)e % 16 == 0 && (e < base || e >= base + lsize), "ext_malloc");
    memset(e, 1, 1000);
    ebsp_free(e);

    /* Direct addresses of ebsp_malloc'd, registered memory. */
    int *x = ebsp_malloc(64 * sizeof(int));
    int y = 0, unreg = 0;
    memset(x, 0, 64 * sizeof(int));
    bsp_push_reg(x, 64 * sizeof(int));
    bsp_push_reg(private_global, sizeof private_global);
    bsp_push_reg(&y, sizeof y);
    bsp_sync();
    int next = (s + 1) % p, prev = (s + p - 1) % p;
    int *rx = ebsp_get_direct_address(next, x);
    CHECK(rx != NULL, "processor %d: no direct address for registered local memory", s);
    CHECK(ebsp_get_direct_address(s, x) == x, "processor %d: own direct address", s);
    CHECK(ebsp_get_direct_address(next, private_global) == NULL, "direct address of a global");
    CHECK(ebsp_get_direct_address(next, &y) == NULL, "direct address of a stack variable");
    CHECK(ebsp_get_direct_address(next, &unreg) == NULL, "direct address of an unregistered variable");
    for (int i = 0; i < 32; i++)
        rx[i] = s * 100 + i;
    bsp_sync();
    for (int i = 0; i < 32; i++)
        CHECK(x[i] == prev * 100 + i, "processor %d: x[%d] = %d", s, i, x[i]);

    /* hp transfers are immediate: visible after a barrier, before any sync. */
    int v = s + 7;
    bsp_hpput(next, &v, x, 40 * sizeof(int), sizeof v);
    if (dev->direct)
        bsp_hpput(next, &v, private_global, 4 * sizeof(int), sizeof v);
    ebsp_barrier();
    CHECK(x[40] == prev + 7, "processor %d: hpput into local memory not there at the barrier: %d", s, x[40]);
    if (dev->direct)
        CHECK(private_global[4] == prev + 7, "processor %d: hpput into a global not there: %d", s, private_global[4]);
    int w = -1, w2 = -1;
    bsp_hpget(prev, x, 0, &w, sizeof w);
    CHECK(w == ((prev + p - 1) % p) * 100, "processor %d: hpget gave %d", s, w);
    if (dev->direct) {
        bsp_hpget(prev, private_global, 4 * sizeof(int), &w2, sizeof w2);
        CHECK(w2 == (prev + p - 1) % p + 7, "processor %d: hpget from a global gave %d", s, w2);
    }
    bsp_sync();

    /* ebsp_memcpy, and a result for the host at offset 200. */
    int out[4] = { s, p, x[0], 42 };
    ebsp_memcpy(base + 200, out, sizeof out);
    bsp_pop_reg(&y);
    bsp_pop_reg(private_global);
    bsp_pop_reg(x);
    bsp_sync();
    ebsp_free(x);
    bsp_end();
    return 0;
}
