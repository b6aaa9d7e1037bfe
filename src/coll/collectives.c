/*
 * collectives.c - bsc.h's collectives: their argument checks, their
 * algorithms with the BSP cost and the supersteps of each (the tables
 * bsc_coll_*), and the choice among them.
 *
 * Costs (seconds; man page bsc(3) has the formulas): a superstep costs
 * l plus, for the processor that sends or receives most, o + m G per
 * message of m bytes (machine.c); a collective's cost is the sum over its
 * supersteps.  The local reductions are not counted.
 */

#include "bsp/bsp_impl.h"
#include "coll/coll.h"
#include "settings/settings.h"

#include <math.h>
#include <string.h>

const char *const variant_name[V_COUNT] = { "1phase", "2phase", "tree" };

int variant_forced(void)
{
    const char *v = setting_str(SET_COLL_ALG);
    for (int i = 0; v && i < V_COUNT; i++)
        if (!strcmp(v, variant_name[i]))
            return i;
    return -1;
}

/* ---- costs ---------------------------------------------------------------------- */

/* count messages of m bytes each, for the busiest processor. */
static double xfer(const struct machine *mc, double count, double m)
{
    return count > 0 && m > 0 ? count * (m * mc->G + mc->o) : 0;
}

static struct cost tree_cost(const struct machine *mc, uint32_t n, uint32_t q, double bytes, unsigned extra)
{
    unsigned levels = tree_levels(n, q);
    return (struct cost){ levels * xfer(mc, q - 1, bytes) + extra * xfer(mc, 1, bytes), levels + extra };
}

struct cost coll_cost(enum collective c, enum variant v, uint32_t n, double bytes)
{
    const struct machine *mc = machine_get();
    uint32_t q = two_level_q(n);
    if (n <= 1)
        return (struct cost){ 0, 1 };
    switch (c) {
    case C_BCAST:
        if (v == V_2PHASE)
            return (struct cost){ 2 * xfer(mc, n - 1, ceil(bytes / n)), 2 };
        if (v == V_TREE)
            return tree_cost(mc, n, 2, bytes, 0);
        break;
    case C_REDUCE:
        if (v == V_2PHASE && q < n)
            return tree_cost(mc, n, q, bytes, 1);
        if (v == V_TREE && n > 2)
            return tree_cost(mc, n, 2, bytes, 1);
        break;
    case C_ALLREDUCE:
        if (v == V_2PHASE && n >= 3)
            return (struct cost){ xfer(mc, q - 1, bytes) + xfer(mc, (n + q - 1) / q - 1, bytes), 2 };
        if (v == V_TREE && n > 2) {
            struct cost up = tree_cost(mc, n, 2, bytes, 0);
            return (struct cost){ 2 * up.comm, 2 * up.steps };
        }
        break;
    case C_SCAN:
        if (v == V_2PHASE && q < n)
            return tree_cost(mc, n, q < 2 ? 2 : q, bytes, 0);
        if (v == V_TREE)
            return tree_cost(mc, n, 2, bytes, 0);
        break;
    case C_MOVE:
        break;
    }
    return (struct cost){ xfer(mc, n - 1, bytes), 1 }; /* one phase */
}

double cost_seconds(struct cost c)
{
    return c.comm + c.steps * machine_get()->l;
}

enum variant variant_pick(enum collective c, uint32_t n, double bytes, bool symmetric)
{
    int forced = variant_forced();
    if (!symmetric || c == C_MOVE)
        return V_1PHASE;
    if (forced >= 0)
        return (enum variant)forced;
    enum variant best = V_1PHASE;
    for (int v = 1; v < V_COUNT; v++)
        if (cost_seconds(coll_cost(c, (enum variant)v, n, bytes)) < cost_seconds(coll_cost(c, best, n, bytes)))
            best = (enum variant)v;
    return best;
}

static double set_cost(enum collective c, enum variant v, bsc_group_t group, const bsc_coll_params_t *set,
                       bsc_size_t n)
{
    uint32_t members = group_of(group)->n;
    struct cost sum = { 0, 0 };
    for (bsc_size_t e = 0; e < n; e++) {
        struct cost k = coll_cost(c, v, members, (double)set[e].size);
        sum.comm += k.comm;
        sum.steps = k.steps > sum.steps ? k.steps : sum.steps;
    }
    return cost_seconds(sum);
}

static bsc_step_t set_steps(enum collective c, enum variant v, bsc_group_t group)
{
    return coll_cost(c, v, group_of(group)->n, 1).steps;
}

/* One cost and one step count per algorithm of each table. */
#define COST_AND_STEPS(name, c, v)                                                                             \
    static double name##_cost(bsc_group_t g, bsc_coll_params_t *s, bsc_size_t n) { return set_cost(c, v, g, s, n); } \
    static bsc_step_t name##_steps(bsc_group_t g) { return set_steps(c, v, g); }
COST_AND_STEPS(move, C_MOVE, V_1PHASE)
COST_AND_STEPS(bcast1, C_BCAST, V_1PHASE)
COST_AND_STEPS(bcast2, C_BCAST, V_2PHASE)
COST_AND_STEPS(bcastt, C_BCAST, V_TREE)
COST_AND_STEPS(reduce1, C_REDUCE, V_1PHASE)
COST_AND_STEPS(reduce2, C_REDUCE, V_2PHASE)
COST_AND_STEPS(reducet, C_REDUCE, V_TREE)
COST_AND_STEPS(allreduce1, C_ALLREDUCE, V_1PHASE)
COST_AND_STEPS(allreduce2, C_ALLREDUCE, V_2PHASE)
COST_AND_STEPS(allreducet, C_ALLREDUCE, V_TREE)
COST_AND_STEPS(scan1, C_SCAN, V_1PHASE)
COST_AND_STEPS(scan2, C_SCAN, V_2PHASE)
COST_AND_STEPS(scant, C_SCAN, V_TREE)

#define ONE(alg) { { alg }, { move_cost }, { move_steps }, 1 }
#define THREE(a1, a2, at, k)                                                                                    \
    { { a1, a2, at }, { k##1_cost, k##2_cost, k##t_cost }, { k##1_steps, k##2_steps, k##t_steps }, 3 }

static const bsc_collective_t tables[] = {
    ONE(scatter_1phase),
    ONE(gather_1phase),
    ONE(allgather_1phase),
    ONE(alltoall_1phase),
    THREE(bcast_1phase, bsc_bcast_2phase, bcast_tree, bcast),
    THREE(reduce_1phase, reduce_2level, reduce_tree, reduce),
    THREE(allreduce_1phase, allreduce_2level, allreduce_tree, allreduce),
    THREE(scan_1phase, scan_2level, scan_tree, scan),
};
const bsc_collective_t *const bsc_coll_scatter = &tables[0];
const bsc_collective_t *const bsc_coll_gather = &tables[1];
const bsc_collective_t *const bsc_coll_allgather = &tables[2];
const bsc_collective_t *const bsc_coll_alltoall = &tables[3];
const bsc_collective_t *const bsc_coll_bcast = &tables[4];
const bsc_collective_t *const bsc_coll_reduce = &tables[5];
const bsc_collective_t *const bsc_coll_allreduce = &tables[6];
const bsc_collective_t *const bsc_coll_scan = &tables[7];

bool coll_builtin(const bsc_collective_t *c)
{
    return c >= tables && c < tables + sizeof tables / sizeof *tables;
}

/* ---- argument checks ------------------------------------------------------------------ */

/* The group, with this processor a member and the root (root >= 0) in
 * range and, for a symmetric group, a member too. */
static const struct group *check_group(const char *call, bsc_group_t group, long long root)
{
    bsp_require_begun(call);
    const struct group *g = group_of(group);
    if (g->index[bsp.me] < 0)
        bsp_error(call, "processor %u is not a member of the group", bsp.me);
    if (root >= 0 || root < -1) {
        if (root < 0 || root >= (long long)bsp.p)
            bsp_error(call, "root %lld out of range (nprocs %u)", root, bsp.p);
        if (g->symmetric && g->index[root] < 0)
            bsp_error(call, "root %lld is not a member of the group", root);
    }
    return g;
}

void coll_check_bcast(const char *call, long long root, bsc_group_t group, const void *src, const void *dst,
                      size_t size)
{
    check_group(call, group, root);
    coll_check_size(call, "size", size);
    if (root == bsp.me)
        coll_check_ptr(call, "src", src, size);
    coll_check_ptr(call, "dst", dst, size);
}

void coll_check_reduce(const char *call, long long root, bsc_group_t group, const void *src, const void *dst,
                       const void *tmp, bsc_reduce_t reducer, const void *zero, size_t nmemb, size_t size)
{
    check_group(call, group, root);
    coll_check_size(call, "size", size);
    coll_check_size(call, "nmemb", nmemb);
    if (!reducer)
        bsp_error(call, "NULL reducer");
    coll_check_ptr(call, "zero", zero, size);
    coll_check_ptr(call, "tmp_space", tmp, size);
    coll_check_ptr(call, "src", src, nmemb * size);
    if (root < 0 || root == bsp.me)
        coll_check_ptr(call, "dst", dst, size);
}

/* ---- the collectives ----------------------------------------------------------------- */

bsc_step_t bsc_scatter(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, const void *src, void *dst,
                       bsc_size_t size)
{
    const struct group *g = check_group("bsc_scatter", group, (long long)root);
    coll_check_size("bsc_scatter", "size", size);
    if ((uint32_t)root == bsp.me)
        coll_check_ptr("bsc_scatter", "src", src, size * g->n);
    coll_check_ptr("bsc_scatter", "dst", dst, size);
    return bsc_collective(depends, bsc_coll_scatter, root, group, (bsc_coll_params_t){ .src = src, .dst = dst, .size = size });
}

bsc_step_t bsc_gather(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src, void *dst,
                      bsc_size_t size)
{
    check_group("bsc_gather", group, (long long)root);
    coll_check_size("bsc_gather", "size", size);
    coll_check_ptr("bsc_gather", "src", src, size);
    if ((uint32_t)root == bsp.me)
        coll_check_ptr("bsc_gather", "dst", dst, size);
    return bsc_collective(depends, bsc_coll_gather, root, group, (bsc_coll_params_t){ .src = src, .dst = dst, .size = size });
}

bsc_step_t bsc_allgather(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, bsc_size_t size)
{
    check_group("bsc_allgather", group, -1);
    coll_check_size("bsc_allgather", "size", size);
    coll_check_ptr("bsc_allgather", "src", src, size);
    coll_check_ptr("bsc_allgather", "dst", dst, size);
    return bsc_collective(depends, bsc_coll_allgather, 0, group, (bsc_coll_params_t){ .src = src, .dst = dst, .size = size });
}

bsc_step_t bsc_alltoall(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, bsc_size_t size)
{
    check_group("bsc_alltoall", group, -1);
    coll_check_size("bsc_alltoall", "size", size);
    coll_check_ptr("bsc_alltoall", "src", src, size);
    coll_check_ptr("bsc_alltoall", "dst", dst, size);
    return bsc_collective(depends, bsc_coll_alltoall, 0, group, (bsc_coll_params_t){ .src = src, .dst = dst, .size = size });
}

bsc_step_t bsc_bcast(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src, void *dst,
                     bsc_size_t size)
{
    coll_check_bcast("bsc_bcast", (long long)root, group, src, dst, size);
    return bsc_collective(depends, bsc_coll_bcast, root, group, (bsc_coll_params_t){ .src = src, .dst = dst, .size = size });
}

bsc_step_t bsc_reduce(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, const void *src, void *dst,
                      void *tmp_space, bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb, bsc_size_t size)
{
    coll_check_reduce("bsc_reduce", (long long)root, group, src, dst, tmp_space, reducer, zero, nmemb, size);
    return bsc_collective(depends, bsc_coll_reduce, root, group,
                          (bsc_coll_params_t){ src, dst, tmp_space, reducer, zero, nmemb, size });
}

bsc_step_t bsc_allreduce(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, void *tmp_space,
                         bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb, bsc_size_t size)
{
    coll_check_reduce("bsc_allreduce", -1, group, src, dst, tmp_space, reducer, zero, nmemb, size);
    return bsc_collective(depends, bsc_coll_allreduce, 0, group,
                          (bsc_coll_params_t){ src, dst, tmp_space, reducer, zero, nmemb, size });
}

bsc_step_t bsc_scan(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, void *tmp_space,
                    bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb, bsc_size_t size)
{
    coll_check_reduce("bsc_scan", -1, group, src, dst, tmp_space, reducer, zero, nmemb, size);
    return bsc_collective(depends, bsc_coll_scan, 0, group,
                          (bsc_coll_params_t){ src, dst, tmp_space, reducer, zero, nmemb, size });
}

/* ---- the machine, as BSPonMPI's bsc.h asks for it ---------------------------------------- */

double bsc_g(bsc_request_t type, int word_size)
{
    (void)type; /* one measurement serves every kind of request */
    return machine_g(machine_get(), word_size);
}

double bsc_L(bsc_request_t type)
{
    (void)type;
    return machine_get()->l;
}
