/* tagsize_twice.c - bsp_set_tagsize called twice in one superstep follows
 * the dialect of the call: with an int (the 1998 rule, BSPonMPI and the
 * Oxford toolset) the second call returns the size the first asked for;
 * with a bsp_size_t (MulticoreBSP 2.x, LPF) the size in force.  Either
 * way the last request takes effect at the sync.  Built three ways: plain
 * bsp.h (both kinds of argument), -DSUPERSTEP_MCBSP and
 * -DMCBSP_COMPATIBILITY_MODE (tagsize_dialects.sh). */
// RUN: n=1
// RUN: n=3
#include <bsp.h>
#include <stddef.h>

#include "check.h"

static void twice_1998(void)
{
#if !defined(SUPERSTEP_MCBSP)
    int t = 4;
    bsp_set_tagsize(&t);
    CHECK(t == 0, "1998: first call returned %d, expected 0", t);
    t = 8;
    bsp_set_tagsize(&t);
    CHECK(t == 4, "1998: second call returned %d, expected the 4 asked for", t);
    bsp_sync();
    t = 0;
    bsp_set_tagsize(&t);
    CHECK(t == 8, "1998: size in force %d, expected 8", t);
    bsp_sync();
#endif
}

static void twice_mcbsp(void)
{
#if !defined(SUPERSTEP_BSPLIB1998)
    bsp_size_t t = 4;
    bsp_set_tagsize(&t);
    CHECK(t == 0, "MulticoreBSP: first call returned %zu, expected 0", (size_t)t);
    t = 8;
    bsp_set_tagsize(&t);
    CHECK(t == 0, "MulticoreBSP: second call returned %zu, expected 0 (in force)", (size_t)t);
    t = 16;
    bsp_set_tagsize(&t);
    CHECK(t == 0, "MulticoreBSP: third call returned %zu, expected 0 (in force)", (size_t)t);
    bsp_sync();
    t = 2;
    bsp_set_tagsize(&t);
    CHECK(t == 16, "MulticoreBSP: size in force %zu, expected the last request, 16", (size_t)t);
    t = 0;
    bsp_set_tagsize(&t);
    CHECK(t == 16, "MulticoreBSP: second call returned %zu, expected 16 (in force)", (size_t)t);
    bsp_sync();
#endif
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    twice_1998();
    twice_mcbsp();
    bsp_end();
    return 0;
}
