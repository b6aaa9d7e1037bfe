/* direct_get_sync.c - bsp_direct_get right after bsp_sync sees what that
 * sync delivered (issue 34, item 4): once bsp_sync returns anywhere,
 * everything the superstep communicated is in place everywhere, as in
 * MulticoreBSP.  Every processor puts (its id, the round) into its right
 * neighbour's registered 'left', and a block of words into the
 * neighbour's 'block' (so that applying takes a while), calls bsp_sync,
 * then reads the neighbour's 'left' and the block's last word with
 * bsp_direct_get: they must hold the reader's own id and the round.
 * Before the fix the old value came back at p = 3, 4 and 8 in nearly
 * every run.
 * A last round puts 16 MiB, whose applying outlasts a reader's spinning
 * and yielding: the reader then sleeps until the owner's bsp_sync wakes it.
 * Then registrations that overlap (the mpi device attaches the areas to
 * one MPI window, which takes no area twice: it merges them), read through
 * each, also after the larger one is popped.
 * On the mpi device (MPI one-sided reads) the reads failed with "device mpi
 * cannot read processor 1's memory directly" before issue 34 item 5, and
 * came back with the old values where the reader did not wait for the
 * owner's applied superstep; where MPI has no window (Open MPI over TCP,
 * so across nodes) they failed so until they went two-sided (issue 31).
 * Usage: direct_get_sync [nested Q | areas N STRIDE]: "nested": every
 * outer processor also runs the same rounds in an inner run of Q
 * processors (MulticoreBSP's hierarchical runs), then once more in the
 * outer run.  "areas": N registered areas of 8 words, STRIDE words apart,
 * the first and the last read after a put into each (on the mpi device
 * 4000 areas on 64 pages made Open MPI 4.1 spin in MPI_Win_attach for
 * ever; areas on more than 32 separate page ranges are more than the mpi
 * device attaches: tests/mpi/direct_get.sh). */
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=8
// RUN: n=2 args="nested 3" nompi="inner runs and bsp_direct_get need the shm device"
// RUN: n=2 args="areas 4000 8"
// RUN: n=3 args="areas 40 1024" nompi="tests/mpi/direct_get.sh: more areas than the mpi device attaches"
#include <bsp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define ROUNDS 200
#define WORDS 4096
#define BIG (16 << 20)

static int inner_q;

static void big(void)
{
    int p = (int)bsp_nprocs(), s = (int)bsp_pid(), right = (s + 1) % p;
    char *area = calloc(BIG, 1), *mine = malloc(BIG);
    CHECK(area && mine, "out of memory");
    memset(mine, 'a' + s, BIG);
    bsp_push_reg(area, BIG);
    bsp_sync();
    bsp_put(right, mine, area, 0, BIG);
    bsp_sync();
    char last = 0;
    bsp_direct_get(right, area, BIG - 1, &last, 1);
    CHECK(last == 'a' + s, "processor %d: the last byte of processor %d's 16 MiB is %d", s, right, last);
    bsp_pop_reg(area);
    bsp_sync();
    free(area);
    free(mine);
}

/* A middle part of 'whole' registered, then 'whole' and the middle again;
 * the right neighbour's puts into 'whole' read through both, and through
 * the middle once 'whole' is popped (at the sync of the last put). */
static void overlap(void)
{
    int p = (int)bsp_nprocs(), s = (int)bsp_pid(), right = (s + 1) % p;
    int64_t whole[64], *mid = whole + 16, v[64], got[16], last;
    memset(whole, 0xff, sizeof whole);
    bsp_push_reg(mid, 16 * sizeof *mid);
    bsp_sync();
    bsp_push_reg(whole, sizeof whole);
    bsp_push_reg(mid, 16 * sizeof *mid);
    bsp_sync();
    for (int64_t r = 0; r < 3; r++) {
        for (int i = 0; i < 64; i++)
            v[i] = (s * 1000 + r) * 64 + i;
        bsp_put(right, v, whole, 0, sizeof v);
        if (r == 2)
            bsp_pop_reg(whole);
        bsp_sync();
        bsp_direct_get(right, mid, 0, got, sizeof got);
        for (int i = 0; i < 16; i++)
            CHECK(got[i] == (s * 1000 + r) * 64 + 16 + i, "processor %d, overlap round %lld: processor %d's "
                  "mid[%d] is %lld", s, (long long)r, right, i, (long long)got[i]);
        if (r == 2)
            break;
        bsp_direct_get(right, whole, 63 * sizeof *whole, &last, sizeof last);
        CHECK(last == (s * 1000 + r) * 64 + 63, "processor %d, overlap round %lld: processor %d's whole[63] is %lld",
              s, (long long)r, right, (long long)last);
    }
    bsp_pop_reg(mid);
    bsp_pop_reg(mid);
    bsp_sync();
}

static void rounds(void)
{
    int p = (int)bsp_nprocs(), s = (int)bsp_pid();
    int right = (s + 1) % p, left_of = (s + p - 1) % p;
    int64_t left[2] = { -1, -1 };
    int64_t *block = calloc(WORDS, sizeof *block), *mine = malloc(WORDS * sizeof *mine);
    CHECK(block && mine, "out of memory");
    bsp_push_reg(left, sizeof left);
    bsp_push_reg(block, WORDS * sizeof *block);
    bsp_sync();
    for (int64_t r = 0; r < ROUNDS; r++) {
        int64_t v[2] = { s, r };
        for (int i = 0; i < WORDS; i++)
            mine[i] = r * WORDS + i;
        bsp_put(right, mine, block, 0, WORDS * sizeof *mine);
        bsp_put(right, v, left, 0, sizeof v);
        bsp_sync();
        int64_t got[2] = { -1, -1 }, last = -1;
        bsp_direct_get(right, left, 0, got, sizeof got);
        bsp_direct_get(right, block, (WORDS - 1) * sizeof *block, &last, sizeof last);
        CHECK(got[0] == s && got[1] == r, "processor %d, round %lld: processor %d's left holds (%lld, %lld)", s,
              (long long)r, right, (long long)got[0], (long long)got[1]);
        CHECK(last == r * WORDS + WORDS - 1, "processor %d, round %lld: processor %d's block ends with %lld", s,
              (long long)r, right, (long long)last);
        CHECK(left[0] == left_of && left[1] == r, "processor %d, round %lld: own left (%lld, %lld)", s, (long long)r,
              (long long)left[0], (long long)left[1]);
    }
    bsp_pop_reg(block);
    bsp_pop_reg(left);
    bsp_sync();
    free(block);
    free(mine);
    big();
    overlap();
}

static void areas(int n, int stride)
{
    int p = (int)bsp_nprocs(), s = (int)bsp_pid(), right = (s + 1) % p;
    int64_t *a = calloc((size_t)n * stride, sizeof *a), v[2] = { s, 7 }, got[2] = { -1, -1 };
    CHECK(a, "out of memory");
    for (int i = 0; i < n; i++)
        bsp_push_reg(a + (size_t)i * stride, 8 * sizeof *a);
    bsp_sync();
    bsp_put(right, v, a, 0, sizeof v);
    bsp_put(right, v, a + (size_t)(n - 1) * stride, 6 * sizeof *a, sizeof v);
    bsp_sync();
    bsp_direct_get(right, a, 0, got, sizeof got);
    CHECK(got[0] == s && got[1] == 7, "processor %d: processor %d's first area holds (%lld, %lld)", s, right,
          (long long)got[0], (long long)got[1]);
    bsp_direct_get(right, a + (size_t)(n - 1) * stride, 6 * sizeof *a, got, sizeof got);
    CHECK(got[0] == s && got[1] == 7, "processor %d: processor %d's last area holds (%lld, %lld)", s, right,
          (long long)got[0], (long long)got[1]);
    for (int i = 0; i < n; i++)
        bsp_pop_reg(a + (size_t)i * stride);
    bsp_sync();
    free(a);
}

static void inner(void)
{
    bsp_begin(inner_q);
    rounds();
    bsp_end();
}

int main(int argc, char **argv)
{
    bool nested = argc == 3 && !strcmp(argv[1], "nested");
    if (argc == 4 && !strcmp(argv[1], "areas")) {
        bsp_begin(bsp_nprocs());
        areas(atoi(argv[2]), atoi(argv[3]));
        bsp_end();
        return 0;
    }
    CHECK(argc == 1 || nested, "usage: direct_get_sync [nested Q | areas N STRIDE]");
    inner_q = nested ? atoi(argv[2]) : 0;
    bsp_begin(bsp_nprocs());
    if (nested) {
        bsp_init(inner, argc, argv);
        inner();
    }
    rounds();
    bsp_end();
    return 0;
}
