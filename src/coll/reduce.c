/*
 * reduce.c - reduction to the root and to every member.  Each member first
 * reduces its own nmemb elements to one (into its slot of the registered
 * tmp_space); the members' values are then combined in group order, so
 * the operator need only be associative:
 *   one phase:  every member puts its value into the root's (every
 *               member's) tmp_space, which then reduces the n values;
 *   q-ary tree: round t, member i with i mod q^(t+1) = 0 combines the
 *               values of i + k q^t (k < q) into its own, so member 0 ends
 *               with the total, which it puts to the root (reduce) or
 *               broadcasts down the same tree (all-reduce);
 *   two levels (all-reduce): the members are cut into groups of
 *               q = ceil(sqrt n); every member puts its value to its
 *               group, then every group's total to one member of every
 *               other group, two supersteps in all.
 * tmp_space holds (p + 1) values: slot k for member k, slot n for the
 * result on its way to the root or down the tree.
 */

#include "bsp/bsp_impl.h"
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

struct rctx {
    bsc_coll_params_t q;
    const struct group *g;
    uint32_t i;          /* this member's index */
    uint32_t fan;        /* q of the tree; the group size of two levels */
    unsigned levels, round;
    uint32_t root;       /* the root's index (reduce) */
    bool to_all;         /* all-reduce */
    char *ws;            /* fan + 2 values, or one per group + 1 */
};

static char *slot(const struct rctx *c, size_t k)
{
    return (char *)c->q.tmp + k * c->q.size;
}

static struct rctx *ctx_new(const bsc_coll_params_t *q, const struct group *g, uint32_t fan, size_t nws)
{
    struct rctx *c = calloc(1, sizeof *c);
    if (c)
        c->ws = malloc((nws + 1) * (q->size ? q->size : 1));
    if (!c || !c->ws)
        bsp_error("bsc_sync", "out of memory for a reduction of %zu-byte values", (size_t)q->size);
    c->q = *q;
    c->g = g;
    c->i = (uint32_t)g->index[bsp.me];
    c->fan = fan;
    return c;
}

static void ctx_free(struct rctx *c)
{
    free(c->ws);
    free(c);
}

/* This member's own value: its nmemb elements reduced, into its slot
 * (at the start of the collective's first step). */
static void own_value(void *ctx)
{
    struct rctx *c = ctx;
    c->q.reducer(slot(c, c->i), c->q.zero, c->q.src, c->q.nmemb * c->q.size);
}

static void free_ctx(void *ctx)
{
    ctx_free(ctx);
}

/* ---- one phase ------------------------------------------------------------------ */

static void reduce_all_slots(void *ctx)
{
    struct rctx *c = ctx;
    c->q.reducer(c->q.dst, c->q.zero, c->q.tmp, (size_t)c->g->n * c->q.size);
    ctx_free(c);
}

bsc_step_t reduce_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                         bsc_size_t n)
{
    const struct group *g = group_of(group);
    int32_t r = g->index[root];
    for (bsc_size_t e = 0; e < n; e++) {
        struct rctx *c = ctx_new(&set[e], g, 0, 0);
        coll_pre(depends, own_value, c);
        if ((uint32_t)root == bsp.me) {
            coll_call(depends, reduce_all_slots, c);
            continue;
        }
        if (r >= 0)
            coll_put(depends, (uint32_t)root, slot(c, c->i), set[e].tmp, (size_t)g->at[r] * set[e].size, set[e].size,
                     "bsc_reduce");
        coll_call(depends, free_ctx, c);
    }
    return depends + 1;
}

bsc_step_t allreduce_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                            bsc_size_t n)
{
    (void)root;
    const struct group *g = group_of(group);
    for (bsc_size_t e = 0; e < n; e++) {
        struct rctx *c = ctx_new(&set[e], g, 0, 0);
        coll_pre(depends, own_value, c);
        for (uint32_t k = 0; k < g->n; k++)
            if (k != c->i)
                coll_put(depends, g->member[k], slot(c, c->i), set[e].tmp, (size_t)g->at[k] * set[e].size,
                         set[e].size, "bsc_allreduce");
        coll_call(depends, reduce_all_slots, c);
    }
    return depends + 1;
}

/* ---- the q-ary tree ------------------------------------------------------------- */

/* Round t of the tree: a parent combines its children's values with its own. */
static void tree_round(void *ctx)
{
    struct rctx *c = ctx;
    unsigned t = c->round++;
    uint64_t step = 1;
    for (unsigned k = 0; k < t; k++)
        step *= c->fan;
    if (c->i % (step * c->fan))
        return; /* a child, or done */
    size_t size = c->q.size, m = 0;
    for (uint64_t j = c->i; j < c->g->n && m < c->fan; j += step)
        memcpy(c->ws + m++ * size, slot(c, j), size);
    if (m > 1) {
        c->q.reducer(c->ws + m * size, c->q.zero, c->ws, m * size);
        memcpy(slot(c, c->i), c->ws + m * size, size);
    }
}

/* Queue the rounds that leave member 0 with the total in slot 0; returns
 * the step after the last. */
static bsc_step_t tree_up(bsc_step_t depends, struct rctx *c, const char *call)
{
    coll_pre(depends, own_value, c);
    uint64_t step = 1;
    for (unsigned t = 0; t < c->levels; t++, step *= c->fan) {
        if (c->i % step == 0 && c->i % (step * c->fan))
            coll_put(depends + t, c->g->member[c->i - c->i % (step * c->fan)], slot(c, c->i), c->q.tmp,
                     (size_t)c->i * c->q.size, c->q.size, call);
        coll_call(depends + t, tree_round, c);
    }
    return depends + c->levels;
}

static void reduce_done(void *ctx)
{
    struct rctx *c = ctx;
    if (c->i == c->root)
        memcpy(c->q.dst, slot(c, c->root == 0 ? 0 : c->g->n), c->q.size);
    ctx_free(c);
}

static bsc_step_t reduce_qtree(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                               bsc_size_t n, uint32_t q)
{
    const struct group *g = group_of(group);
    if (!g->symmetric || q >= g->n)
        return reduce_1phase(depends, root, group, set, n);
    bsc_step_t end = depends;
    for (bsc_size_t e = 0; e < n; e++) {
        struct rctx *c = ctx_new(&set[e], g, q, q + 1);
        c->levels = tree_levels(g->n, q);
        c->root = (uint32_t)g->index[root];
        bsc_step_t up = tree_up(depends, c, "bsc_reduce");
        if (c->root != 0 && c->i == 0) /* the total's last hop */
            coll_put(up, (uint32_t)root, slot(c, 0), c->q.tmp, (size_t)g->n * c->q.size, c->q.size, "bsc_reduce");
        end = c->root == 0 ? up : up + 1;
        coll_call(end - 1, reduce_done, c);
    }
    return end;
}

bsc_step_t reduce_tree(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n)
{
    return reduce_qtree(depends, root, group, set, n, 2);
}

bsc_step_t reduce_2level(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                         bsc_size_t n)
{
    return reduce_qtree(depends, root, group, set, n, two_level_q(group_of(group)->n));
}

bsc_step_t bsc_reduce_qtree_single(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src,
                                   void *dst, void *tmp_space, bsc_reduce_t reducer, const void *zero,
                                   bsc_size_t nmemb, bsc_size_t size, bsc_pid_t q)
{
    coll_check_reduce("bsc_reduce_qtree_single", (long long)root, group, src, dst, tmp_space, reducer, zero, nmemb,
                      size);
    if ((long long)q < 2)
        bsp_error("bsc_reduce_qtree_single", "q %lld: a tree needs q >= 2", (long long)q);
    bsc_coll_params_t one = { src, dst, tmp_space, reducer, zero, nmemb, size };
    return reduce_qtree(depends, root, group, &one, 1, (uint32_t)q);
}

/* ---- all-reduce: the tree, up and down ------------------------------------------ */

static void allreduce_done(void *ctx)
{
    struct rctx *c = ctx;
    memcpy(c->q.dst, slot(c, c->i == 0 ? 0 : c->g->n), c->q.size);
    ctx_free(c);
}

static bsc_step_t allreduce_qtree(bsc_step_t depends, bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n,
                                  uint32_t q)
{
    const struct group *g = group_of(group);
    if (!g->symmetric || q >= g->n)
        return allreduce_1phase(depends, 0, group, set, n);
    bsc_step_t end = depends;
    for (bsc_size_t e = 0; e < n; e++) {
        struct rctx *c = ctx_new(&set[e], g, q, q + 1);
        c->levels = tree_levels(g->n, q);
        bsc_step_t down = tree_up(depends, c, "bsc_allreduce");
        uint64_t reach = 1;
        for (unsigned t = 0; t < c->levels; t++, reach *= q) {
            if (c->i >= reach)
                continue;
            for (uint64_t k = 1; k < q && c->i + k * reach < g->n; k++)
                coll_put(down + t, g->member[c->i + k * reach], slot(c, c->i == 0 ? 0 : g->n), c->q.tmp,
                         (size_t)g->n * c->q.size, c->q.size, "bsc_allreduce");
        }
        end = down + c->levels;
        coll_call(end - 1, allreduce_done, c);
    }
    return end;
}

bsc_step_t allreduce_tree(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                          bsc_size_t n)
{
    (void)root;
    return allreduce_qtree(depends, group, set, n, 2);
}

bsc_step_t bsc_allreduce_qtree_single(bsc_step_t depends, bsc_group_t group, const void *src, void *dst,
                                      void *tmp_space, bsc_reduce_t reducer, const void *zero,
                                      bsc_size_t nmemb, bsc_size_t size, bsc_pid_t q)
{
    coll_check_reduce("bsc_allreduce_qtree_single", -1, group, src, dst, tmp_space, reducer, zero, nmemb, size);
    if ((long long)q < 2)
        bsp_error("bsc_allreduce_qtree_single", "q %lld: a tree needs q >= 2", (long long)q);
    bsc_coll_params_t one = { src, dst, tmp_space, reducer, zero, nmemb, size };
    return allreduce_qtree(depends, group, &one, 1, (uint32_t)q);
}

/* ---- all-reduce on two levels -------------------------------------------------------- */

/* After phase 1: this member's group total, from the group's slots. */
static void group_total(void *ctx)
{
    struct rctx *c = ctx;
    uint32_t base = c->i - c->i % c->fan, n = c->g->n - base < c->fan ? c->g->n - base : c->fan;
    c->q.reducer(c->ws, c->q.zero, slot(c, base), (size_t)n * c->q.size);
}

/* After phase 2: the groups' totals in order, this group's from ws. */
static void groups_total(void *ctx)
{
    struct rctx *c = ctx;
    uint32_t ngroups = (c->g->n + c->fan - 1) / c->fan, mine = c->i / c->fan;
    size_t size = c->q.size;
    char *list = c->ws + size;
    for (uint32_t a = 0; a < ngroups; a++)
        memcpy(list + a * size, a == mine ? c->ws : slot(c, a), size);
    c->q.reducer(c->q.dst, c->q.zero, list, ngroups * size);
    ctx_free(c);
}

bsc_step_t allreduce_2level(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                            bsc_size_t n)
{
    const struct group *g = group_of(group);
    if (!g->symmetric || g->n < 3)
        return allreduce_1phase(depends, root, group, set, n);
    uint32_t q = two_level_q(g->n), ngroups = (g->n + q - 1) / q;
    for (bsc_size_t e = 0; e < n; e++) {
        struct rctx *c = ctx_new(&set[e], g, q, ngroups + 1);
        uint32_t i = c->i, a = i / q, b = i % q, base = a * q, gsize = g->n - base < q ? g->n - base : q;
        coll_pre(depends, own_value, c);
        for (uint32_t k = base; k < base + gsize; k++)
            if (k != i)
                coll_put(depends, g->member[k], slot(c, i), c->q.tmp, (size_t)i * c->q.size, c->q.size,
                         "bsc_allreduce");
        coll_call(depends, group_total, c);
        for (uint32_t a2 = 0; a2 < ngroups; a2++) {
            uint32_t base2 = a2 * q, gsize2 = g->n - base2 < q ? g->n - base2 : q;
            if (a2 == a)
                continue;
            for (uint32_t b2 = b; b2 < gsize2; b2 += gsize)
                coll_put(depends + 1, g->member[base2 + b2], c->ws, c->q.tmp, (size_t)a * c->q.size, c->q.size,
                         "bsc_allreduce");
        }
        coll_call(depends + 1, groups_total, c);
    }
    return depends + 2;
}

uint32_t two_level_q(uint32_t n)
{
    uint32_t q = 1;
    while ((uint64_t)q * q < n)
        q++;
    return q;
}
