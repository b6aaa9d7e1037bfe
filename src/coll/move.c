/*
 * move.c - the collectives that only move data, each in one phase (under
 * the BSP cost model a tree or a second phase moves more and synchronises
 * more): scatter (the root puts piece k into member k's registered dst),
 * gather (the root gets member k's registered src into piece k),
 * all-gather (every member gets every member's registered src) and total
 * exchange (every member puts piece k of its src into member k's
 * registered dst, where k's own list has it).
 */

#include "bsp/bsp_impl.h"
#include "coll/coll.h"

bsc_step_t scatter_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                          bsc_size_t n)
{
    const struct group *g = group_of(group);
    if ((uint32_t)root == bsp.me)
        for (bsc_size_t e = 0; e < n; e++)
            for (uint32_t k = 0; k < g->n; k++)
                coll_put(depends, g->member[k], (const char *)set[e].src + (size_t)k * set[e].size, set[e].dst, 0,
                         set[e].size, "bsc_scatter");
    return depends + 1;
}

/* This processor gets every member's src into its dst, member k's at k. */
static bsc_step_t get_from_all(bsc_step_t depends, bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n,
                               const char *call)
{
    const struct group *g = group_of(group);
    for (bsc_size_t e = 0; e < n; e++)
        for (uint32_t k = 0; k < g->n; k++)
            coll_get(depends, g->member[k], set[e].src, 0, (char *)set[e].dst + (size_t)k * set[e].size,
                     set[e].size, call);
    return depends + 1;
}

bsc_step_t gather_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                         bsc_size_t n)
{
    if ((uint32_t)root != bsp.me)
        return depends + 1;
    return get_from_all(depends, group, set, n, "bsc_gather");
}

bsc_step_t allgather_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                            bsc_size_t n)
{
    (void)root;
    return get_from_all(depends, group, set, n, "bsc_allgather");
}

bsc_step_t alltoall_1phase(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                           bsc_size_t n)
{
    (void)root;
    const struct group *g = group_of(group);
    for (bsc_size_t e = 0; e < n; e++)
        for (uint32_t k = 0; k < g->n; k++)
            coll_put(depends, g->member[k], (const char *)set[e].src + (size_t)k * set[e].size, set[e].dst,
                     (size_t)g->at[k] * set[e].size, set[e].size, "bsc_alltoall");
    return depends + 1;
}
