/*
 * bcast.c - broadcast: one phase (the root puts to every member), two
 * phases (the root scatters p pieces, then every member puts its piece to
 * every other: Bisseling's two-phase broadcast), and a q-ary tree (round
 * t: the q^t members that have it put it to q-1 others each).  The data
 * lands in every member's registered dst, the root's included.
 */

#include "bsp/bsp_impl.h"
#include "coll/coll.h"

static const char call[] = "bsc_bcast";

static uint32_t index_of(const struct group *g, uint32_t pid)
{
    return (uint32_t)g->index[pid];
}

bsc_step_t bcast_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                        bsc_size_t n)
{
    const struct group *g = group_of(group);
    if ((uint32_t)root == bsp.me)
        for (bsc_size_t e = 0; e < n; e++)
            for (uint32_t k = 0; k < g->n; k++)
                coll_put(depends, g->member[k], set[e].src, set[e].dst, 0, set[e].size, call);
    return depends + 1;
}

bsc_step_t bsc_bcast_2phase(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                            bsc_size_t n)
{
    const struct group *g = group_of(group);
    if (!g->symmetric)
        return bcast_1phase(depends, root, group, set, n);
    uint32_t me = index_of(g, bsp.me);
    for (bsc_size_t e = 0; e < n; e++) {
        size_t size = set[e].size, piece = (size + g->n - 1) / g->n;
        for (uint32_t k = 0; k < g->n; k++) {
            size_t at = (size_t)k * piece, len = at < size ? (size - at < piece ? size - at : piece) : 0;
            if (!len)
                break;
            if ((uint32_t)root == bsp.me)
                coll_put(depends, g->member[k], (const char *)set[e].src + at, set[e].dst, at, len, call);
            if (k == me) /* then to every other member */
                for (uint32_t j = 0; j < g->n; j++)
                    if (j != me)
                        coll_put(depends + 1, g->member[j], (char *)set[e].dst + at, set[e].dst, at, len, call);
        }
    }
    return depends + 2;
}

unsigned tree_levels(uint32_t n, uint32_t q)
{
    unsigned levels = 0;
    for (uint64_t reach = 1; reach < n; reach *= q)
        levels++;
    return levels;
}

static bsc_step_t bcast_qtree(bsc_step_t depends, bsc_pid_t root, const struct group *g, bsc_coll_params_t *set,
                              bsc_size_t n, uint32_t q)
{
    uint32_t r = index_of(g, (uint32_t)root), j = (index_of(g, bsp.me) + g->n - r) % g->n;
    unsigned levels = tree_levels(g->n, q);
    for (bsc_size_t e = 0; e < n; e++) {
        const void *from = (uint32_t)root == bsp.me ? set[e].src : set[e].dst;
        if ((uint32_t)root == bsp.me)
            coll_put(depends, bsp.me, set[e].src, set[e].dst, 0, set[e].size, call);
        uint64_t reach = 1;
        for (unsigned t = 0; t < levels; t++, reach *= q) {
            if (j >= reach)
                continue; /* not yet holding it in round t */
            for (uint64_t k = 1; k < q && j + k * reach < g->n; k++)
                coll_put(depends + t, g->member[(j + k * reach + r) % g->n], from, set[e].dst, 0, set[e].size, call);
        }
    }
    return depends + (levels ? levels : 1);
}

bsc_step_t bcast_tree(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n)
{
    const struct group *g = group_of(group);
    if (!g->symmetric)
        return bcast_1phase(depends, root, group, set, n);
    return bcast_qtree(depends, root, g, set, n, 2);
}

bsc_step_t bsc_bcast_qtree_single(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src,
                                  void *dst, bsc_size_t size, bsc_pid_t q)
{
    coll_check_bcast("bsc_bcast_qtree_single", (long long)root, group, src, dst, size);
    if ((long long)q < 2)
        bsp_error("bsc_bcast_qtree_single", "q %lld: a tree needs q >= 2", (long long)q);
    bsc_coll_params_t one = { .src = src, .dst = dst, .size = size };
    const struct group *g = group_of(group);
    if (!g->symmetric)
        return bcast_1phase(depends, root, group, &one, 1);
    return bcast_qtree(depends, root, g, &one, 1, (uint32_t)q < g->n ? (uint32_t)q : g->n);
}
