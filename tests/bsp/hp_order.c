/* hp_order.c - many bsp_hpput and bsp_hpget in one superstep, overlapping
 * and not: a later transfer to the same bytes wins, as a put would, and
 * every byte lands.  Each processor, in every round:
 *   - hpputs 'ops' random pieces (1 byte to 64 KiB, one in 16 up to 3 MiB)
 *     of its source to random places of its right neighbour's area, which
 *     overlap; the neighbour checks its area against the same sequence
 *     applied in order;
 *   - hpgets 'ops' random pieces of its left neighbour's source into random
 *     places of a local buffer, overlapping, checked the same way;
 *   - hpputs one disjoint 4 KiB slot to every processor (itself included)
 *     and hpgets one from each: all pairs in one superstep.
 * On mpi the transfers go straight between the processes' memories
 * (src/mpi/mpi_hp.c); overlapping ones land in the program's order.
 * Usage: hp_order [rounds [ops]] (default 4 200). */
// RUN: n=1
// RUN: n=2
// RUN: n=3 args="3 300"
// RUN: n=4
// RUN: n=2 env="SUPERSTEP_NO_DIRECT=1"
// RUN: n=5 args="2 100"
// RUN: n=3 args="4 1"
#include <bsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define AREA ((size_t)4 << 20) /* the area hpput into, and the buffer hpget into */
#define SLOT 4096

/* Deterministic per (seed): the same on the processor that transfers and
 * on the one that checks. */
static uint64_t next(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

struct piece {
    size_t from, to, n;
};

static struct piece draw(uint64_t *x)
{
    size_t n = next(x) % 16 == 0 ? 1 + next(x) % (3u << 20) : 1 + next(x) % (64u << 10);
    return (struct piece){ next(x) % (AREA - n), next(x) % (AREA - n), n };
}

/* Byte i of processor t's source in round r. */
static unsigned char src_byte(int t, int r, size_t i) { return (unsigned char)(i * 7 + (i >> 9) + t * 31 + r * 101); }

static void fill(unsigned char *b, int t, int r)
{
    for (size_t i = 0; i < AREA; i++)
        b[i] = src_byte(t, r, i);
}

/* The bytes the pieces of 'seed' give 'b' (set to 'base' first), in order. */
static void expect(unsigned char *b, const unsigned char *src, uint64_t seed, int ops)
{
    memset(b, 0xee, AREA);
    for (int k = 0; k < ops; k++) {
        struct piece c = draw(&seed);
        memcpy(b + c.to, src + c.from, c.n);
    }
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 4, ops = argc > 2 ? atoi(argv[2]) : 200;
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs(), right = (s + 1) % p, left = (s + p - 1) % p;
    unsigned char *src = malloc(AREA), *area = malloc(AREA), *got = malloc(AREA), *want = malloc(AREA);
    unsigned char *peer_src = malloc(AREA);
    unsigned char *slots = malloc((size_t)p * SLOT), *back = malloc((size_t)p * SLOT);
    CHECK(src && area && got && want && peer_src && slots && back, "out of memory");
    bsp_push_reg(src, (long)AREA);
    bsp_push_reg(area, (long)AREA);
    bsp_push_reg(slots, (long)p * SLOT);
    bsp_sync();

    for (int r = 0; r < rounds; r++) {
        fill(src, s, r);
        memset(area, 0xee, AREA);
        memset(got, 0xee, AREA);
        memset(slots, 0, (size_t)p * SLOT);
        memset(back, 0, (size_t)p * SLOT);
        bsp_sync(); /* every area reset before anyone writes it */

        uint64_t put_seed = 0x9e3779b97f4a7c15ull ^ (uint64_t)(s * 1000 + r + 1);
        uint64_t get_seed = 0xc2b2ae3d27d4eb4full ^ (uint64_t)(s * 1000 + r + 1);
        uint64_t x = put_seed;
        for (int k = 0; k < ops; k++) {
            struct piece c = draw(&x);
            bsp_hpput(right, src + c.from, area, (long)c.to, (long)c.n);
        }
        x = get_seed;
        for (int k = 0; k < ops; k++) {
            struct piece c = draw(&x);
            bsp_hpget(left, src, (long)c.from, got + c.to, (long)c.n);
        }
        for (int t = 0; t < p; t++) {
            bsp_hpput(t, src + (size_t)t * SLOT, slots, (long)s * SLOT, SLOT);
            bsp_hpget(t, src, (long)s * SLOT, back + (size_t)t * SLOT, SLOT);
        }
        bsp_sync();

        /* what my left neighbour hpput into my area, in its order */
        fill(peer_src, left, r);
        expect(want, peer_src, 0x9e3779b97f4a7c15ull ^ (uint64_t)(left * 1000 + r + 1), ops);
        for (size_t i = 0; i < AREA; i++)
            CHECK(area[i] == want[i], "round %d: hpput byte %zu from processor %d is %u, want %u", r, i, left,
                  area[i], want[i]);
        /* what I hpgot from my left neighbour's source, in my order */
        expect(want, peer_src, get_seed, ops);
        for (size_t i = 0; i < AREA; i++)
            CHECK(got[i] == want[i], "round %d: hpget byte %zu from processor %d is %u, want %u", r, i, left,
                  got[i], want[i]);
        for (int t = 0; t < p; t++)
            for (size_t i = 0; i < SLOT; i++) {
                CHECK(slots[(size_t)t * SLOT + i] == src_byte(t, r, (size_t)s * SLOT + i),
                      "round %d: slot byte %zu from processor %d wrong", r, i, t);
                CHECK(back[(size_t)t * SLOT + i] == src_byte(t, r, (size_t)s * SLOT + i),
                      "round %d: hpget slot byte %zu from processor %d wrong", r, i, t);
            }
        bsp_sync(); /* checked before the next round resets the areas */
    }
    bsp_pop_reg(slots);
    bsp_pop_reg(area);
    bsp_pop_reg(src);
    bsp_sync();
    free(src);
    free(area);
    free(got);
    free(want);
    free(peer_src);
    free(slots);
    free(back);
    if (s == 0)
        printf("hp_order: OK\n");
    bsp_end();
    return 0;
}
