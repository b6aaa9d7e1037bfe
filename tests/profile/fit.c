/* fit.c - bspbench's line fit and noise judgement (tools/bench/fit.h) on
 * made-up timings: points on a line give back its g and l and are not
 * noisy; scattered points, a negative l, or blocks of one h that differ
 * widely are noisy; and the cost model of the profiler (src/profile/cost.h):
 * a superstep's work + comm + wait is its time, never negative, even when
 * one processor's work overlaps another's communication. */
// RUN: n=1
#include "../../tools/bench/fit.h"
#include "profile/cost.h"

#include <math.h>
#include <stdio.h>

#include "check.h"

static void line_fits(void)
{
    int hs[6] = { 0, 1, 2, 100, 200, 300 };
    double th[6];
    for (int k = 0; k < 6; k++)
        th[k] = 5e-6 + 2e-8 * hs[k]; /* l = 5 us, g = 20 ns */
    struct fit f = fit_line(hs, th, 2, 6);
    CHECK(fabs(f.g - 2e-8) < 1e-12 && fabs(f.l - 5e-6) < 1e-10, "g %g l %g", f.g, f.l);
    CHECK(f.r2 > 0.999, "r2 %g", f.r2);
    CHECK(!fit_noisy(&f, 0.1), "a line judged noisy");
}

static void scatter_is_noisy(void)
{
    int hs[6] = { 0, 100, 200, 300, 400, 500 };
    double th[6] = { 9e-6, 1e-6, 8e-6, 2e-6, 9e-6, 3e-6 };
    struct fit f = fit_line(hs, th, 0, 6);
    CHECK(fit_noisy(&f, 0.1), "scattered points judged fit (r2 %g)", f.r2);
    double down[3] = { 9e-6, 5e-6, 1e-6 };
    f = fit_line(hs, down, 0, 3);
    CHECK(f.g < 0 && fit_noisy(&f, 0), "a falling line judged fit (g %g)", f.g);
    double negl[4] = { 0, 4e-6, 9e-6, 14e-6 }; /* h 100..300: g 50 ns, l -1 us */
    f = fit_line(hs, negl, 1, 4);
    CHECK(f.l < 0 && fit_noisy(&f, 0), "negative l judged fit (l %g)", f.l);
    struct fit good = { 1e-8, 1e-6, 0.99 };
    CHECK(fit_noisy(&good, 0.8), "blocks 80%% apart judged fit");
}

static void spread_of_blocks(void)
{
    double blk[2 * 5] = { 1e-5, 1e-5, 1e-5, 1e-5, 1e-5, /* h 0: all alike */
                          1e-5, 1e-5, 2e-5, 3e-5, 3e-5 };
    CHECK(block_spread(blk, 1, 5) == 0, "equal blocks spread %g", block_spread(blk, 1, 5));
    double s = block_spread(blk, 2, 5); /* quartiles 1e-5 and 3e-5 around 2e-5 */
    CHECK(fabs(s - 1.0) < 1e-9, "spread %g, want 1", s);
}

static void cost_adds_up(void)
{
    /* Processor 1 leaves the previous sync late (it applied a lot) and works
     * little; processor 0 left early and works long: its work is longer
     * than the span between the last ends, but T covers it. */
    struct cost_cell c[2] = {
        { .seen = true, .start = 0, .end = 100, .work = 90, .wait = 5, .comm = 5, .prof = 0 },
        { .seen = true, .start = 60, .end = 101, .work = 10, .wait = 30, .comm = 1, .prof = 0 },
    };
    struct cost_row r = cost_row(c, 2);
    CHECK(r.crit == 0 && r.t == 100, "critical %d, T %g", r.crit, r.t);
    CHECK(r.work + r.comm + r.wait == r.t, "work %g + comm %g + wait %g != T %g", r.work, r.comm, r.wait, r.t);
    CHECK(r.wmax <= r.t && r.t - r.wmax >= 0, "w %g above T %g", r.wmax, r.t);
    CHECK(fabs(cost_predict(&r, 0.5, 3, 8) - (90 + 3)) < 1e-9, "prediction with h = 0");
    r.h_bytes = 80;
    CHECK(fabs(cost_predict(&r, 0.5, 3, 8) - (90 + 5 + 3)) < 1e-9, "prediction w + g h + l");
}

int main(void)
{
    line_fits();
    scatter_is_noisy();
    spread_of_blocks();
    cost_adds_up();
    printf("fit: ok\n");
    return 0;
}
