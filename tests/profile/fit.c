/* fit.c - bspbench's estimates of g and l and its judgement of them
 * (tools/bench/fit.h) on made-up timings: points on a line give back its
 * g and l and a good fit; outlier blocks and outlier points do not move
 * them; l is never below the empty superstep's time, even when the line
 * through large h meets h = 0 below it or below 0 (issue 35: l_us=0 at
 * p = 4 beside an empty superstep of 3.3 us); a noisy line measured as
 * bspbench -q and as bspbench measure it gives the same g and l within
 * the spread the estimate reports; a falling line, scattered points and
 * rounds that disagree make a poor fit and say why; and the cost model of
 * the profiler (src/profile/cost.h): a superstep's work + comm + wait is
 * its time, never negative, even when one processor's work overlaps
 * another's communication. */
// RUN: n=1
#include "../../tools/bench/fit.h"
#include "profile/cost.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

enum { MAXP = 64, MAXB = 9 };

/* blk of npts points and nblocks rounds: every round the same t(h). */
static void same_rounds(double *blk, const double *th, int npts, int nblocks)
{
    for (int k = 0; k < npts; k++)
        for (int b = 0; b < nblocks; b++)
            blk[k * nblocks + b] = th[k];
}

static void line_fits(void)
{
    int hs[6] = { 0, 1, 2, 100, 200, 300 };
    double th[6], blk[6 * 3], t[6];
    char why[256];
    for (int k = 0; k < 6; k++)
        th[k] = 5e-6 + 2e-8 * hs[k]; /* l = 5 us, g = 20 ns */
    same_rounds(blk, th, 6, 3);
    struct fit f = fit_bsp(hs, blk, 6, 3, 2, t);
    CHECK(fabs(f.g - 2e-8) < 1e-12 && fabs(f.l - 5e-6) < 1e-10 && f.l == f.floor, "g %g l %g", f.g, f.l);
    CHECK(f.noise < 1e-9 && f.g_sd < 1e-15 && f.l_sd < 1e-15, "noise %g g_sd %g", f.noise, f.g_sd);
    CHECK(!fit_poor(&f, why, sizeof why) && !*why, "a line judged poor: %s", why);
    blk[4 * 3 + 1] = 1e-3; /* one block that lost the processor */
    f = fit_bsp(hs, blk, 6, 3, 2, t);
    CHECK(fabs(f.g - 2e-8) < 1e-12 && fabs(f.l - 5e-6) < 1e-10, "an outlier moved the fit: g %g l %g", f.g, f.l);
}

static void never_below_floor(void)
{
    int hs[6] = { 0, 100, 200, 300, 400, 500 };
    double t[6], blk[6 * 3];
    char why[256];
    double down[3] = { 9e-6, 5e-6, 1e-6 };
    same_rounds(blk, down, 3, 3);
    struct fit f = fit_bsp(hs, blk, 3, 3, 0, t);
    CHECK(f.g == 0 && f.l >= 9e-6, "a falling line: g %g l %g", f.g, f.l);
    CHECK(fit_poor(&f, why, sizeof why) && strstr(why, "do not grow"), "a falling line judged good: %s", why);
    /* h 100..500 on a line of g 50 ns that meets h = 0 at -1 us; the
     * empty superstep takes 3 us: l is 3 us, not 0. */
    double below[6] = { 3e-6, 4e-6, 9e-6, 14e-6, 19e-6, 24e-6 };
    same_rounds(blk, below, 6, 3);
    f = fit_bsp(hs, blk, 6, 3, 1, t);
    CHECK(fabs(f.g - 5e-8) < 1e-12 && f.l == 3e-6 && f.floor == 3e-6 && fabs(f.intercept + 1e-6) < 1e-12,
          "a line below 0: g %g l %g intercept %g", f.g, f.l, f.intercept);
    CHECK(!fit_poor(&f, why, sizeof why), "a line below the floor judged poor: %s", why);
    double scatter[6] = { 9e-6, 1e-6, 8e-6, 2e-6, 9e-6, 3e-6 };
    same_rounds(blk, scatter, 6, 3);
    f = fit_bsp(hs, blk, 6, 3, 0, t);
    CHECK(f.g >= 0 && f.l >= f.floor && fit_poor(&f, why, sizeof why) && strstr(why, "off the line"),
          "scattered points: g %g l %g (%s)", f.g, f.l, why);
    /* Every round on a line, but their slopes 1 and 3 us per word: poor,
     * for the rounds, not the line. */
    double rounds[3 * 3] = { 1e-6, 1e-6, 1e-6, 101e-6, 201e-6, 301e-6, 201e-6, 401e-6, 601e-6 };
    f = fit_bsp(hs, rounds, 3, 3, 0, t);
    CHECK(fit_poor(&f, why, sizeof why) && strstr(why, "g differs by") && !strstr(why, "off the line"),
          "rounds 3x apart: g %g sd %g: %s", f.g, f.g_sd, why);
}

/* A noisy machine, made up: the empty superstep 1.3 us, 1.6 us with any
 * word, then l 1.5 us and g 19.4 ns per word; every block within 3%, one
 * block of each round preempted (x30), and two h whose every block lost
 * the processor (x3). */
static double uniform(unsigned *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return ((*seed >> 8) & 0xffff) / 32767.5 - 1;
}

static int bench_points(int *hs, int p, int npoints)
{
    int n = 0;
    for (int h = 0; h <= p; h++)
        hs[n++] = h;
    for (int k = 1; k < npoints; k++)
        hs[n++] = p + (2048 - p) * k / (npoints - 1);
    return n;
}

static struct fit noisy_machine(int npoints, int nblocks, unsigned seed)
{
    int hs[MAXP], p = 4, n = bench_points(hs, p, npoints);
    double blk[MAXP * MAXB], t[MAXP];
    for (int k = 0; k < n; k++)
        for (int b = 0; b < nblocks; b++) {
            double ideal = hs[k] == 0 ? 1.3e-6 : hs[k] <= p ? 1.6e-6 : 1.5e-6 + 19.4e-9 * hs[k];
            blk[k * nblocks + b] = ideal * (1 + 0.03 * uniform(&seed));
        }
    for (int b = 0; b < nblocks; b++)
        blk[(int)((uniform(&seed) + 1) / 2 * (n - 1)) * nblocks + b] *= 30;
    for (int b = 0; b < nblocks; b++)
        blk[(n - 3) * nblocks + b] *= 3, blk[(p + 5) * nblocks + b] *= 3;
    return fit_bsp(hs, blk, n, nblocks, p, t);
}

static void noisy_line(void)
{
    char why[256];
    struct fit full = noisy_machine(33, 7, 1), quick = noisy_machine(9, 5, 2);
    const struct fit *fs[2] = { &full, &quick };
    for (int i = 0; i < 2; i++) {
        const struct fit *f = fs[i];
        CHECK(fabs(f->g - 19.4e-9) < 0.03 * 19.4e-9 && fabs(f->l - 1.5e-6) < 0.1 * 1.5e-6 && f->l >= f->floor,
              "%s: g %g (19.4 ns) l %g (1.5 us) floor %g", i ? "quick" : "full", f->g, f->l, f->floor);
        CHECK(f->noise < 0.05 && f->g_sd > 0 && f->g_sd < 0.1 * f->g && !fit_poor(f, why, sizeof why),
              "%s: noise %g g_sd %g: %s", i ? "quick" : "full", f->noise, f->g_sd, why);
    }
    CHECK(fabs(full.g - quick.g) <= 2 * (full.g_sd + quick.g_sd) && fabs(full.l - quick.l) <= 2 * (full.l_sd + quick.l_sd),
          "the modes disagree: g %g +- %g and %g +- %g, l %g +- %g and %g +- %g", full.g, full.g_sd, quick.g, quick.g_sd,
          full.l, full.l_sd, quick.l, quick.l_sd);
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
    never_below_floor();
    noisy_line();
    cost_adds_up();
    printf("fit: ok\n");
    return 0;
}
