/* direct_kernel.c - kernel of direct_host: once bsp_sync returns, what it
 * delivered is in place in every kernel's memory, also as seen through
 * another kernel's direct address, bsp_hpget and bsp_hpput (issue 34,
 * item 4).  Every round each kernel puts (its id, the round) into its right
 * neighbour's 'left' and 'over', and syncs; then
 *   - reads the neighbour's 'left' through its direct address (taken in
 *     the first round right after the sync, kept for the later ones) and
 *     with bsp_hpget: both give (own id, round);
 *   - writes (own id, -round) into the neighbour's 'over' with bsp_hpput;
 *     after ebsp_barrier its own 'over' holds its left neighbour's hpput,
 *     not the put that the sync delivered.
 * Before the fix the neighbour applied the put after the reads and the
 * hpput in most runs. */
// NORUN: the kernel of direct_host.c, which starts it
#include <e_bsp.h>
#include <stdint.h>

#include "check.h"

#define ROUNDS 100

int main(void)
{
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs(), right = (s + 1) % p, left_of = (s + p - 1) % p;
    int32_t *left = ebsp_malloc(2 * sizeof(int32_t)), *over = ebsp_malloc(2 * sizeof(int32_t));
    CHECK(left && over, "ebsp_malloc");
    left[0] = left[1] = over[0] = over[1] = -1;
    bsp_push_reg(left, 2 * sizeof(int32_t));
    bsp_push_reg(over, 2 * sizeof(int32_t));
    bsp_sync();
    volatile int32_t *next = NULL;
    for (int32_t r = 0; r < ROUNDS; r++) {
        int32_t v[2] = { s, r }, w[2] = { s, -r }, got[2] = { -1, -1 };
        bsp_put(right, v, left, 0, sizeof v);
        bsp_put(right, v, over, 0, sizeof v);
        bsp_sync();
        if (!next)
            next = ebsp_get_direct_address(right, left);
        CHECK(next, "no direct address");
        CHECK(next[0] == s && next[1] == r, "kernel %d, round %d: processor %d's left holds (%d, %d) directly", s,
              (int)r, right, (int)next[0], (int)next[1]);
        bsp_hpget(right, left, 0, got, sizeof got);
        CHECK(got[0] == s && got[1] == r, "kernel %d, round %d: bsp_hpget of processor %d's left gave (%d, %d)", s,
              (int)r, right, (int)got[0], (int)got[1]);
        bsp_hpput(right, w, over, 0, sizeof w);
        ebsp_barrier();
        CHECK(over[0] == left_of && over[1] == -r, "kernel %d, round %d: own over holds (%d, %d)", s, (int)r,
              (int)over[0], (int)over[1]);
    }
    ebsp_message("direct ok");
    bsp_end();
    return 0;
}
