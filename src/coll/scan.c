/*
 * scan.c - prefix reduction over the group: member j's dst[i] is every
 * element of the members before j, then its own elements 0..i, combined
 * in order (reducer computes prefixes, bsc_scan's contract).
 *
 * Each member reduces its own elements to a total T; the exclusive prefix
 * X of the totals comes from q-ary doubling: in round t (d = q^t) member i
 * puts S = X (+) T to members i + k d (0 < k < q), and each member puts
 * what it received, in order, before its X.  After ceil(log_q n) rounds X
 * is complete and the member's own prefix is computed from it.  q = n is
 * one phase (every member puts its total to every later one), q =
 * ceil(sqrt n) two phases, q = 2 the tree (log2 n rounds).  tmp_space (2p
 * values) holds round t's values from k at slot t (q - 1) + k - 1.
 */

#include "bsp/bsp_impl.h"
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

struct sctx {
    bsc_coll_params_t q;
    const struct group *g;
    uint32_t i, fan;
    unsigned levels, round;
    bool have_x;         /* X is not empty (i > 0 after the first round) */
    char *t, *x, *s;     /* the total T, the exclusive prefix X, S = X (+) T */
    char *ws;            /* fan + 2 values in, fan + 2 out */
};

static void combine_into_s(struct sctx *c)
{
    size_t size = c->q.size;
    if (!c->have_x) {
        memcpy(c->s, c->t, size);
        return;
    }
    memcpy(c->ws, c->x, size);
    memcpy(c->ws + size, c->t, size);
    c->q.reducer(c->ws + 2 * size, c->q.zero, c->ws, 2 * size);
    memcpy(c->s, c->ws + 3 * size, size);
}

/* After round t: X = (what came, in member order) (+) X, then S anew. */
static void scan_round(void *ctx)
{
    struct sctx *c = ctx;
    unsigned t = c->round++;
    size_t size = c->q.size, m = 0;
    uint64_t d = 1;
    for (unsigned k = 0; k < t; k++)
        d *= c->fan;
    for (uint64_t k = c->fan - 1; k >= 1; k--) /* from the farthest, the first in order */
        if (k * d <= c->i)
            memcpy(c->ws + m++ * size, (char *)c->q.tmp + ((size_t)t * (c->fan - 1) + k - 1) * size, size);
    if (!m)
        return;
    if (c->have_x)
        memcpy(c->ws + m++ * size, c->x, size);
    c->q.reducer(c->ws + m * size, c->q.zero, c->ws, m * size);
    memcpy(c->x, c->ws + (2 * m - 1) * size, size);
    c->have_x = true;
    combine_into_s(c);
}

/* T, at the collective's first step: the last of this member's own
 * prefixes (the zero when it has none); S = T. */
static void scan_total(void *ctx)
{
    struct sctx *c = ctx;
    size_t size = c->q.size, nmemb = c->q.nmemb;
    if (nmemb) {
        char *pre = c->t + 3 * size;
        c->q.reducer(pre, c->q.zero, c->q.src, nmemb * size);
        memcpy(c->t, pre + (nmemb - 1) * size, size);
    } else {
        memcpy(c->t, c->q.zero, size);
    }
    if (c->s != c->x)
        memcpy(c->s, c->t, size);
}

static void scan_done(void *ctx)
{
    struct sctx *c = ctx;
    c->q.reducer(c->q.dst, c->have_x ? c->x : c->q.zero, c->q.src, c->q.nmemb * c->q.size);
    free(c->ws);
    free(c);
}

static bsc_step_t scan_qdoubling(bsc_step_t depends, const struct group *g, bsc_coll_params_t *q, uint32_t fan)
{
    size_t size = q->size, nmemb = q->nmemb;
    struct sctx *c = calloc(1, sizeof *c);
    if (c)
        c->ws = malloc((2 * (size_t)fan + 7) * (size ? size : 1) + nmemb * size);
    if (!c || !c->ws)
        bsp_error("bsc_sync", "out of memory for a scan of %zu-byte values", size);
    c->q = *q;
    c->g = g;
    c->i = (uint32_t)g->index[bsp.me];
    c->fan = fan;
    c->levels = tree_levels(g->n, fan);
    c->t = c->ws + (2 * (size_t)fan + 4) * size;
    c->x = c->t + size;
    c->s = c->x + size;
    coll_pre(depends, scan_total, c);
    uint64_t d = 1;
    for (unsigned t = 0; t < c->levels; t++, d *= fan) {
        for (uint64_t k = 1; k < fan && c->i + k * d < g->n; k++)
            coll_put(depends + t, g->member[c->i + k * d], c->s, q->tmp, ((size_t)t * (fan - 1) + k - 1) * size, size,
                     "bsc_scan");
        coll_call(depends + t, scan_round, c);
    }
    bsc_step_t end = depends + (c->levels ? c->levels : 1);
    coll_call(end - 1, scan_done, c);
    return end;
}

/* A neighbourhood: X from the totals of the members before this one in
 * its own list (they put them at their places in it). */
static void scan_list(void *ctx)
{
    struct sctx *c = ctx;
    size_t size = c->q.size;
    if (c->i == 0)
        return;
    char *out = malloc((size_t)c->i * (size ? size : 1));
    if (!out)
        bsp_error("bsc_sync", "out of memory for a scan of %zu-byte values", size);
    c->q.reducer(out, c->q.zero, c->q.tmp, (size_t)c->i * size);
    memcpy(c->x, out + (size_t)(c->i - 1) * size, size);
    c->have_x = true;
    free(out);
}

static bsc_step_t scan_neighbourhood(bsc_step_t depends, const struct group *g, bsc_coll_params_t *q)
{
    struct sctx *c = calloc(1, sizeof *c);
    size_t size = q->size;
    if (c)
        c->ws = malloc((4 + q->nmemb) * (size ? size : 1));
    if (!c || !c->ws)
        bsp_error("bsc_sync", "out of memory for a scan of %zu-byte values", size);
    c->q = *q, c->g = g, c->i = (uint32_t)g->index[bsp.me];
    c->x = c->ws;
    c->t = c->ws + size;
    c->s = c->x; /* unused here */
    coll_pre(depends, scan_total, c);
    for (uint32_t k = 0; k < g->n; k++)
        if (k != c->i)
            coll_put(depends, g->member[k], c->t, q->tmp, (size_t)g->at[k] * size, size, "bsc_scan");
    coll_call(depends, scan_list, c);
    coll_call(depends, scan_done, c);
    return depends + 1;
}

static bsc_step_t scan_with(bsc_step_t depends, bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n,
                            uint32_t fan)
{
    const struct group *g = group_of(group);
    bsc_step_t end = depends + 1;
    for (bsc_size_t e = 0; e < n; e++) {
        if (!g->symmetric) {
            end = scan_neighbourhood(depends, g, &set[e]);
            continue;
        }
        uint32_t f = fan < 2 ? 2 : fan < g->n ? fan : (g->n < 2 ? 2 : g->n);
        end = scan_qdoubling(depends, g, &set[e], f);
    }
    return end;
}

bsc_step_t scan_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                       bsc_size_t n)
{
    (void)root;
    return scan_with(depends, group, set, n, group_of(group)->n);
}

bsc_step_t scan_2level(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                       bsc_size_t n)
{
    (void)root;
    return scan_with(depends, group, set, n, two_level_q(group_of(group)->n));
}

bsc_step_t scan_tree(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n)
{
    (void)root;
    return scan_with(depends, group, set, n, 2);
}

bsc_step_t bsc_scan_qtree_single(bsc_step_t depends, bsc_group_t group, const void *src, void *dst,
                                 void *tmp_space, bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb,
                                 bsc_size_t size, bsc_pid_t q)
{
    coll_check_reduce("bsc_scan_qtree_single", -1, group, src, dst, tmp_space, reducer, zero, nmemb, size);
    if ((long long)q < 2)
        bsp_error("bsc_scan_qtree_single", "q %lld: a tree needs q >= 2", (long long)q);
    bsc_coll_params_t one = { src, dst, tmp_space, reducer, zero, nmemb, size };
    return scan_with(depends, group, &one, 1, (uint32_t)q);
}
