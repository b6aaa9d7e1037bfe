/*
 * group.c - bsc.h's process groups: every processor (bsc_all), partitions
 * by a symbol, and neighbourhoods.  Creating one is collective: it takes
 * one superstep (after the library's start, coll_begin), in which every
 * processor puts into every other's word of the library's area.
 */

#include "bsp/bsp_impl.h"
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

const bsc_group_t bsc_all = NULL;

static struct group *group_new(uint32_t n, bool symmetric)
{
    uint32_t p = bsp.p;
    struct group *g = calloc(1, sizeof *g);
    if (g) {
        g->member = malloc((n ? n : 1) * sizeof *g->member);
        g->at = malloc((n ? n : 1) * sizeof *g->at);
        g->index = malloc(p * sizeof *g->index);
    }
    if (!g || !g->member || !g->at || !g->index)
        bsp_error("bsc_group_create", "out of memory for a group of %u processors", n);
    g->n = n;
    g->symmetric = symmetric;
    for (uint32_t q = 0; q < p; q++)
        g->index[q] = -1;
    return g;
}

static void group_free(struct group *g)
{
    if (!g)
        return;
    free(g->member);
    free(g->at);
    free(g->index);
    free(g);
}

/* bsc_all as this processor of this run sees it: 0 .. p-1 (a processor
 * forked for a later run starts with processor 0's copy). */
const struct group *group_of(const void *handle)
{
    static struct group *all;
    if (handle)
        return handle;
    if (!all || all->n != bsp.p || all->at[0] != bsp.me) {
        group_free(all);
        all = group_new(bsp.p, true);
        for (uint32_t q = 0; q < bsp.p; q++)
            all->member[q] = q, all->at[q] = bsp.me, all->index[q] = (int32_t)q;
    }
    return all;
}

bsc_group_t bsc_group_create_partition(unsigned symbol)
{
    coll_begin("bsc_group_create_partition");
    uint64_t *word = coll_words(), mine = symbol;
    for (uint32_t q = 0; q < bsp.p; q++)
        coll_word_put(q, mine, "bsc_group_create_partition");
    bsp_sync();
    uint32_t n = 0;
    for (uint32_t q = 0; q < bsp.p; q++)
        n += word[q] == mine;
    struct group *g = group_new(n, true);
    uint32_t k = 0, me = 0;
    for (uint32_t q = 0; q < bsp.p; q++)
        if (word[q] == mine) {
            me = q == bsp.me ? k : me;
            g->index[q] = (int32_t)k;
            g->member[k++] = q;
        }
    for (k = 0; k < n; k++)
        g->at[k] = me;
    return g;
}

bsc_group_t bsc_group_create_neighbourhood(bsc_pid_t *neighbours, bsc_size_t size)
{
    static const char call[] = "bsc_group_create_neighbourhood";
    coll_begin(call);
    uint32_t p = bsp.p;
    if (size > p)
        bsp_error(call, "%zu neighbours, more than the %u processors", (size_t)size, p);
    coll_check_ptr(call, "neighbours", neighbours, size);
    bool *listed = calloc(p, sizeof *listed);
    if (!listed)
        bsp_error(call, "out of memory");
    for (bsc_size_t k = 0; k < size; k++) {
        long long q = (long long)neighbours[k];
        if (q < 0 || q >= (long long)p)
            bsp_error(call, "neighbour %zu is pid %lld, out of range (nprocs %u)", (size_t)k, q, p);
        if (listed[q])
            bsp_error(call, "pid %lld is listed twice", q);
        listed[q] = true;
    }
    if (!listed[bsp.me])
        bsp_error(call, "the neighbours must include the calling processor %u", bsp.me);
    free(listed);
    /* Tell each neighbour where it is in this list (1-based; 0: not listed). */
    uint64_t *word = coll_words();
    memset(word, 0, p * sizeof *word);
    for (bsc_size_t k = 0; k < size; k++)
        coll_word_put((uint32_t)neighbours[k], k + 1, call);
    bsp_sync();
    uint32_t n = 0;
    for (bsc_size_t k = 0; k < size; k++)
        n += word[neighbours[k]] != 0;
    struct group *g = group_new(n, false);
    n = 0;
    for (bsc_size_t k = 0; k < size; k++) {
        uint32_t q = (uint32_t)neighbours[k];
        if (!word[q])
            continue;
        g->index[q] = (int32_t)n;
        g->at[n] = (uint32_t)(word[q] - 1);
        g->member[n++] = q;
    }
    return g;
}

void bsc_group_destroy(bsc_group_t group)
{
    group_free(group);
}
