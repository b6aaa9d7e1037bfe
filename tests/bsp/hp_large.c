/* hp_large.c - bsp_hpput/bsp_hpget beyond what one process_vm_writev/readv
 * call moves (2^31 - 4096 bytes): one hpput of INT_MAX bytes, one hpget of
 * INT_MAX bytes, and three 800 MB hpputs to one peer in one superstep (one
 * 2.4 GB batch).  Needs about 5 GB of memory, hence 'large'. */
// RUN: n=2 large="5 GB of memory" timeout=600
#define SUPERSTEP_MCBSP
#include <bsp.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define PIECE ((size_t)800 * 1000 * 1000)

/* The byte at i of a buffer filled by fill(b, n, seed). */
static unsigned char pattern(size_t i, unsigned seed) { return (unsigned char)((i >> 12) * 31 + seed); }

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i += 4096)
        memset(b + i, pattern(i, seed), n - i < 4096 ? n - i : 4096);
}

/* Every page's first and last byte, and the buffer's last byte. */
static void verify(const unsigned char *b, size_t n, unsigned seed, const char *what)
{
    for (size_t i = 0; i < n; i += 4096) {
        size_t last = n - i < 4096 ? n - 1 : i + 4095;
        CHECK(b[i] == pattern(i, seed) && b[last] == pattern(i, seed), "%s: wrong byte near %zu", what, i);
    }
}

int main(void)
{
    bsp_begin(2);
    bsp_pid_t s = bsp_pid(), peer = 1 - s;

    /* One INT_MAX hpput 0 -> 1, then one INT_MAX hpget by 0 from 1. */
    size_t big = (size_t)INT_MAX;
    unsigned char *a = malloc(big);
    CHECK(a, "out of memory");
    fill(a, big, s ? 7 : 3);
    bsp_push_reg(a, big);
    bsp_sync();
    if (s == 0)
        bsp_hpput(peer, a, a, 0, big);
    bsp_sync();
    if (s == 1)
        verify(a, big, 3, "hpput of INT_MAX bytes");
    if (s == 1)
        fill(a, big, 9);
    bsp_sync();
    if (s == 0)
        bsp_hpget(peer, a, 0, a, big);
    bsp_sync();
    if (s == 0)
        verify(a, big, 9, "hpget of INT_MAX bytes");
    bsp_pop_reg(a);
    bsp_sync();
    free(a);

    /* Three 800 MB hpputs 1 -> 0 into one 2.4 GB area. */
    unsigned char *area = malloc(3 * PIECE);
    CHECK(area, "out of memory");
    if (s == 1)
        fill(area, 3 * PIECE, 5);
    bsp_push_reg(area, 3 * PIECE);
    bsp_sync();
    if (s == 1)
        for (size_t k = 0; k < 3; k++)
            bsp_hpput(peer, area + k * PIECE, area, k * PIECE, PIECE);
    bsp_sync();
    if (s == 0)
        verify(area, 3 * PIECE, 5, "three 800 MB hpputs");
    bsp_pop_reg(area);
    bsp_sync();
    free(area);
    bsp_end();
    return 0;
}
