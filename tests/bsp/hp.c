/* hp.c - bsp_hpput and bsp_hpget (unbuffered): after the bsp_sync the data
 * is there, for small transfers at offsets and for large ones.
 * Usage: hp [MiB per transfer] (default 8). */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8 args="2"
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

/* Word i of processor t's data. */
static uint64_t word(int t, size_t i) { return ((uint64_t)t << 48) ^ (i * 0x9e3779b97f4a7c15u); }

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? (size_t)atoi(argv[1]) : 8;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    int right = (s + 1) % p, left = (s + p - 1) % p;

    size_t nbytes = mib << 20, n = nbytes / sizeof(uint64_t);
    uint64_t *src = malloc(nbytes), *dst = malloc(nbytes), *back = malloc(nbytes);
    CHECK(src && dst && back, "out of memory");
    for (size_t i = 0; i < n; i++)
        src[i] = word(s, i);
    memset(dst, 0, nbytes);
    bsp_push_reg(src, nbytes);
    bsp_push_reg(dst, nbytes);
    bsp_sync();

    /* Small: single words at scattered offsets, both ways. */
    for (size_t i = 1; i < n; i *= 3)
        bsp_hpput(right, &src[i], dst, i * sizeof *src, sizeof *src);
    uint64_t small[64];
    int k = 0;
    for (size_t i = 2; i < n && k < 64; i *= 2, k++)
        bsp_hpget(right, src, i * sizeof *src, &small[k], sizeof *small);
    bsp_sync();
    for (size_t i = 1; i < n; i *= 3)
        CHECK(dst[i] == word(left, i), "processor %d: dst[%zu] wrong after hpput", s, i);
    k = 0;
    for (size_t i = 2; i < n && k < 64; i *= 2, k++)
        CHECK(small[k] == word(right, i), "processor %d: word %zu wrong after hpget", s, i);

    /* Large: the whole area to the right neighbour and back from it.  The
     * sources are not touched until the bsp_sync, as hp* requires. */
    bsp_hpput(right, src, dst, 0, nbytes);
    bsp_hpget(right, src, 0, back, nbytes);
    bsp_sync();
    for (size_t i = 0; i < n; i++) {
        CHECK(dst[i] == word(left, i), "processor %d: dst word %zu wrong after hpput", s, i);
        CHECK(back[i] == word(right, i), "processor %d: word %zu wrong after hpget", s, i);
    }

    /* Large with an odd offset and length, to oneself. */
    size_t off = 13, len = nbytes - 2 * off - 1;
    memset(dst, 0, nbytes);
    bsp_hpput(s, (char *)src + 7, dst, off, len);
    bsp_sync();
    CHECK(memcmp((char *)dst + off, (char *)src + 7, len) == 0, "processor %d: unaligned hpput",
          s);
    for (size_t i = 0; i < off; i++)
        CHECK(((char *)dst)[i] == 0, "processor %d: hpput wrote before its offset", s);
    for (size_t i = off + len; i < nbytes; i++)
        CHECK(((char *)dst)[i] == 0, "processor %d: hpput wrote past its end", s);

    bsp_pop_reg(dst);
    bsp_pop_reg(src);
    bsp_sync();
    free(back);
    free(dst);
    free(src);
    bsp_end();
    return 0;
}
