/*
 * reg.c - registrations: bsp_push_reg, bsp_pop_reg and their slots.
 *
 * Registrations are matched across processors by order, so the k-th live
 * registration has the same slot number everywhere.  Slots are handed out at
 * the sync where a registration takes effect: the lowest free slot first,
 * from a free list that every processor keeps identically (the sync checks
 * that all processors pushed and popped alike).  A put names its
 * destination by slot; each processor publishes, per slot, its own address
 * and size in the segment, so a sender checks bounds at the call and an hp
 * transfer can address the peer's memory directly.
 */
#include "bsp/bsp_impl.h"

#include "launch/launch.h"

#include <stdlib.h>
#include <string.h>

#define MAP_EMPTY (-1)
#define MAP_GONE (-2)

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
}

static uint32_t map_home(const void *addr)
{
    return (uint32_t)mix((uint64_t)(uintptr_t)addr) & (bsp.capmap - 1);
}

/* Index in map[] of addr's entry, or of the empty entry where it would go. */
static uint32_t map_find(const void *addr)
{
    uint32_t i = map_home(addr), gone = UINT32_MAX;
    for (;; i = (i + 1) & (bsp.capmap - 1)) {
        int32_t r = bsp.map[i];
        if (r == MAP_EMPTY)
            return gone != UINT32_MAX ? gone : i;
        if (r == MAP_GONE) {
            if (gone == UINT32_MAX)
                gone = i;
        } else if (bsp.regs[r].addr == addr) {
            return i;
        }
    }
}

static void map_rebuild(uint32_t cap)
{
    free(bsp.map);
    bsp.capmap = cap;
    bsp.map = malloc(cap * sizeof *bsp.map);
    if (!bsp.map)
        bsp_error("bsp_push_reg", "out of memory");
    for (uint32_t i = 0; i < cap; i++)
        bsp.map[i] = MAP_EMPTY;
    /* Re-insert the top registration of every address: the one no live
     * registration shadows. */
    bool *shadowed = calloc(bsp.nregs + 1, sizeof *shadowed);
    if (!shadowed)
        bsp_error("bsp_push_reg", "out of memory");
    for (uint32_t r = 0; r < bsp.nregs; r++)
        if (bsp.regs[r].live && bsp.regs[r].below >= 0)
            shadowed[bsp.regs[r].below] = true;
    for (uint32_t r = 0; r < bsp.nregs; r++)
        if (bsp.regs[r].live && !shadowed[r])
            bsp.map[map_find(bsp.regs[r].addr)] = (int32_t)r;
    free(shadowed);
}

void reg_reset(void)
{
    reg_free();
    map_rebuild(64);
    bsp.last_addr = NULL;
    bsp.last_reg = -1;
}

/* Where peers cannot read the segment (dev->share): copies of every
 * processor's registration table, made at the syncs that change them. */
static struct reg_entry *replica;

struct reg_entry *reg_nest_swap(struct reg_entry *r)
{
    struct reg_entry *old = replica;
    replica = r;
    return old;
}

void reg_free(void)
{
    free(replica);
    replica = NULL;
    free(bsp.regs);
    free(bsp.map);
    free(bsp.slot_reg);
    free(bsp.free_slots);
    free(bsp.push);
    free(bsp.pop);
    free(bsp.tabs);
    free(bsp.dead_regs);
    bsp.tabs = NULL;
    bsp.dead_regs = NULL;
    bsp.ndead = bsp.capdead = 0;
    bsp.regs = NULL, bsp.map = NULL, bsp.slot_reg = NULL, bsp.free_slots = NULL;
    bsp.push = NULL, bsp.pop = NULL;
    bsp.nregs = bsp.capregs = bsp.capmap = bsp.nslots = bsp.capslots = bsp.nfree = 0;
    bsp.npush = bsp.cappush = bsp.npop = bsp.cappop = bsp.captab = 0;
    bsp.ncancel = bsp.null_pops = 0;
    bsp.cancel_hash = 0;
    bsp.mytab = NULL;
    bsp.last_addr = NULL; /* else a put after bsp_end would pass the fast path */
    bsp.last_reg = -1;
}

int32_t reg_lookup(const char *call, const void *addr)
{
    if (addr == bsp.last_addr && bsp.last_reg >= 0)
        return bsp.last_reg;
    int32_t r = bsp.map[map_find(addr)];
    if (r < 0)
        bsp_error(call, "address %p is not registered", addr);
    bsp.last_addr = addr;
    bsp.last_reg = r;
    bsp.last_slot = bsp.regs[r].slot;
    return r;
}

/* Peers' tables move only at a sync (when they grow); the old copies stay
 * valid, so a pointer taken after each sync is good for the superstep. */
static void tables_refresh(void)
{
    if (!bsp.tabs)
        bsp.tabs = calloc(bsp.p, sizeof *bsp.tabs);
    if (!bsp.tabs)
        bsp_error("bsp_sync", "out of memory");
    if (dev->share) { /* no shared segment: copy every table (all have captab entries) */
        size_t n = (size_t)bsp.captab * sizeof(struct reg_entry);
        struct reg_entry *all = realloc(replica, n * bsp.p);
        if (!all && n)
            bsp_error("bsp_sync", "out of memory copying %u registration tables", bsp.p);
        replica = all;
        memcpy(replica + (size_t)bsp.me * bsp.captab, bsp.mytab, n);
        dev->share(replica, n);
        for (uint32_t q = 0; q < bsp.p; q++)
            bsp.tabs[q] = replica + (size_t)q * bsp.captab;
        return;
    }
    for (uint32_t q = 0; q < bsp.p; q++)
        bsp.tabs[q] = seg_ptr(&job.seg, atomic_load_explicit(&bsp.shared[q].regtab, memory_order_acquire));
}

int64_t reg_slot_of(const void *addr)
{
    int32_t r = bsp.map[map_find(addr)];
    return r < 0 ? -1 : (int64_t)bsp.regs[r].slot;
}

void bsp_impl_push_reg(const void *addr, int64_t size)
{
    bsp_require_begun("bsp_push_reg");
    check_size("bsp_push_reg", "size", size);
    if (!addr && size > 0)
        bsp_error("bsp_push_reg", "NULL address with size %s", size_str(size).s);
    uint64_t cap = bsp.cappush;
    bsp.push = grow(bsp.push, &cap, bsp.npush + 1, sizeof *bsp.push);
    bsp.cappush = (uint32_t)cap;
    bsp.push[bsp.npush].addr = addr;
    bsp.push[bsp.npush].size = (uint64_t)size;
    bsp.push[bsp.npush].cancelled = false;
    bsp.push[bsp.npush].mirror = -1;
    bsp.npush++;
}

/* Pushes and pops take effect in call order: a pop of an address pushed
 * earlier in this superstep undoes that push (the most recent one). */
static bool cancel_pending_push(const void *addr)
{
    for (uint32_t i = bsp.npush; i-- > 0;) {
        if (bsp.push[i].addr != addr || bsp.push[i].cancelled)
            continue;
        bsp.push[i].cancelled = true;
        bsp.ncancel++;
        bsp.cancel_hash += mix((i + 1ull) | 1ull << 62);
        return true;
    }
    return false;
}

void bsp_pop_reg(const void *addr)
{
    bsp_require_begun("bsp_pop_reg");
    if (bsp.npush && cancel_pending_push(addr))
        return;
    int32_t r = bsp.map[map_find(addr)];
    while (r >= 0 && bsp.regs[r].popping) /* popped already this superstep: the one below */
        r = bsp.regs[r].below;
    if (r < 0 && !addr) { /* NULL: may match what the others pop; the sync checks */
        bsp.null_pops++;
        return;
    }
    if (r < 0)
        bsp_error("bsp_pop_reg", "address %p is not registered", addr);
    uint64_t cap = bsp.cappop;
    bsp.pop = grow(bsp.pop, &cap, bsp.npop + 1, sizeof *bsp.pop);
    bsp.cappop = (uint32_t)cap;
    bsp.pop[bsp.npop++] = r;
    bsp.regs[r].popping = true;
}

/* Make sure my shared table has room for nslots entries. */
static void table_reserve(uint32_t nslots)
{
    if (nslots <= bsp.captab)
        return;
    uint32_t cap = bsp.captab ? bsp.captab : 64;
    while (cap < nslots)
        cap *= 2;
    uint64_t off = seg_alloc(&job.seg, (size_t)cap * sizeof(struct reg_entry), SEG_LINE);
    if (!off)
        bsp_error("bsp_sync", "shared segment exhausted by %u registrations", nslots);
    struct reg_entry *tab = seg_ptr(&job.seg, off);
    if (bsp.mytab)
        memcpy(tab, bsp.mytab, (size_t)bsp.captab * sizeof *tab);
    bsp.mytab = tab;
    bsp.captab = cap;
    atomic_store_explicit(&bsp.shared[bsp.me].regtab, off, memory_order_release);
}

bool reg_prepare_sync(void)
{
    if (!bsp.npush && !bsp.npop && !bsp.null_pops && !bsp.tagsize_calls && bsp.tagsize_next == bsp.tagsize)
        return false;
    /* Slots for this sync's pushes: the lowest free ones, then new ones. */
    uint32_t live_pushes = bsp.npush - bsp.ncancel;
    uint64_t slots_needed = bsp.nslots + (live_pushes > bsp.nfree ? live_pushes - bsp.nfree : 0);
    table_reserve((uint32_t)slots_needed);
    uint64_t hash = bsp.cancel_hash + bsp.null_pops * mix(0x6e756c6cull);
    for (uint32_t i = 0; i < bsp.npop; i++)
        hash += mix(bsp.regs[bsp.pop[i]].slot + 1ull);
    bsp.shared[bsp.me].change[bsp.step & 1] =
        (struct reg_change){ bsp.step, bsp.npush, bsp.npop + bsp.ncancel + bsp.null_pops, hash,
                             bsp.tagsize_next, bsp.tagsize_calls, bsp.null_pops };
    uint32_t nfree = bsp.nfree, nslots = bsp.nslots;
    for (uint32_t i = 0; i < bsp.npush; i++) {
        if (bsp.push[i].cancelled)
            continue;
        uint32_t slot = nfree ? bsp.free_slots[--nfree] : nslots++;
        atomic_store_explicit(&bsp.mytab[slot].addr, (uint64_t)(uintptr_t)bsp.push[i].addr, memory_order_relaxed);
        atomic_store_explicit(&bsp.mytab[slot].size, bsp.push[i].size, memory_order_relaxed);
        /* Not moved yet: the first peer's hp transfer into it asks for
         * that (mirror.c), so registering costs no copy. */
        mirror_reset(&bsp.mytab[slot]);
        bsp.push[i].mirror = -1;
    }
    return true;
}

/* Processor q's changes at this sync; none if it wrote no record for it. */
static struct reg_change change_of(uint32_t q)
{
    struct reg_change c = bsp.shared[q].change[bsp.step & 1];
    if (c.step != bsp.step)
        c = (struct reg_change){ bsp.step, 0, 0, 0, bsp.tagsize, 0, 0 };
    return c;
}

bool reg_match_by_order;

/* Every processor finds a mismatch; processor 0 reports it. */
void reg_check_sync(void)
{
    if (dev->share) /* no shared segment: copy every processor's records */
        dev->share(bsp.shared, sizeof *bsp.shared);
    struct reg_change a = change_of(0);
    for (uint32_t q = 1; q < bsp.p; q++) {
        struct reg_change b = change_of(q);
        if ((a.pushed == b.pushed || reg_match_by_order) && a.popped == b.popped && a.pop_hash == b.pop_hash &&
            a.tagsize_next == b.tagsize_next && a.tagsize_calls == b.tagsize_calls)
            continue;
        if (bsp.me != 0)
            launch_await_failure();
        if (a.pushed != b.pushed && !reg_match_by_order)
            bsp_error("bsp_sync", "registrations differ: processor 0 pushed %u, processor %u pushed %u",
                      a.pushed, q, b.pushed);
        if (a.popped != b.popped || a.pop_hash != b.pop_hash)
            bsp_error("bsp_sync", "registrations differ: processor 0 popped %u, processor %u popped %u%s",
                      a.popped, q, b.popped, a.popped == b.popped ? " (different registrations)" : "");
        if (a.tagsize_calls != b.tagsize_calls)
            bsp_error("bsp_sync", "bsp_set_tagsize calls differ: processor 0 called it %u times, processor %u %u times",
                      a.tagsize_calls, q, b.tagsize_calls);
        bsp_error("bsp_sync", "bsp_set_tagsize calls differ: processor 0 set %llu, processor %u set %llu",
                  (unsigned long long)a.tagsize_next, q, (unsigned long long)b.tagsize_next);
    }
    if (a.null_pops) { /* every processor popped a NULL that none registered */
        if (bsp.me != 0)
            launch_await_failure();
        bsp_error("bsp_pop_reg", "address (nil) is not registered (%u pops of NULL)", a.null_pops);
    }
}

static int cmp_desc(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return a < b ? 1 : a > b ? -1 : 0;
}

static int32_t reg_new(void)
{
    if (bsp.ndead) /* reuse a dead record first */
        return bsp.dead_regs[--bsp.ndead];
    uint64_t cap = bsp.capregs;
    bsp.regs = grow(bsp.regs, &cap, bsp.nregs + 1, sizeof *bsp.regs);
    bsp.capregs = (uint32_t)cap;
    return (int32_t)bsp.nregs++;
}

/* Room in the map for 'more' insertions, at most half full (tombstones count). */
static void map_reserve(uint32_t more)
{
    uint32_t used = 0, live = 0;
    for (uint32_t i = 0; i < bsp.capmap; i++)
        used += bsp.map[i] != MAP_EMPTY;
    for (uint32_t r = 0; r < bsp.nregs; r++)
        live += bsp.regs[r].live;
    if ((used + more) * 2 <= bsp.capmap)
        return;
    uint32_t cap = 64;
    while (cap < 4 * (live + more))
        cap *= 2;
    map_rebuild(cap);
}

void reg_commit_sync(void)
{
    /* Pops of registrations in force first: a push of the same address in the
     * same superstep (not undone by a later pop, see bsp_pop_reg) wins. */
    uint32_t *freed = malloc((bsp.npop + 1) * sizeof *freed);
    if (!freed)
        bsp_error("bsp_sync", "out of memory");
    for (uint32_t i = 0; i < bsp.npop; i++) {
        struct reg *g = &bsp.regs[bsp.pop[i]];
        uint32_t m = map_find(g->addr);
        if (bsp.map[m] == bsp.pop[i])
            bsp.map[m] = g->below >= 0 ? g->below : MAP_GONE;
        bsp.slot_reg[g->slot] = -1;
        freed[i] = g->slot;
        g->live = false;
        g->popping = false;
        g->slot = UINT32_MAX;
        /* After the drain: every transfer of this superstep has landed. */
        mirror_detach(g->mirror);
        g->mirror = -1;
        if (dev->withdraw)
            dev->withdraw(g->addr, g->size);
    }
    /* Pushes take the slots reg_prepare_sync gave them. */
    map_reserve(bsp.npush);
    uint64_t cap = bsp.capslots;
    uint32_t nslots = bsp.nslots;
    for (uint32_t i = 0; i < bsp.npush; i++) {
        if (bsp.push[i].cancelled)
            continue;
        uint32_t slot = bsp.nfree ? bsp.free_slots[--bsp.nfree] : nslots++;
        bsp.slot_reg = grow(bsp.slot_reg, &cap, nslots, sizeof *bsp.slot_reg);
        int32_t r = reg_new();
        uint32_t m = map_find(bsp.push[i].addr);
        bsp.regs[r] = (struct reg){ bsp.push[i].addr, bsp.push[i].size, slot, bsp.map[m] >= 0 ? bsp.map[m] : -1, true, false,
                                    bsp.push[i].mirror };
        bsp.map[m] = r;
        bsp.slot_reg[slot] = r;
        if (dev->expose)
            dev->expose(bsp.push[i].addr, bsp.push[i].size);
    }
    bsp.capslots = (uint32_t)cap;
    bsp.nslots = nslots;
    uint64_t dcap = bsp.capdead;
    bsp.dead_regs = grow(bsp.dead_regs, &dcap, bsp.ndead + bsp.npop, sizeof *bsp.dead_regs);
    bsp.capdead = (uint32_t)dcap;
    for (uint32_t i = 0; i < bsp.npop; i++)
        bsp.dead_regs[bsp.ndead++] = bsp.pop[i];
    /* Freed slots join the free list, sorted so every processor agrees. */
    uint64_t fcap = bsp.nfree + bsp.npop;
    uint32_t *fl = realloc(bsp.free_slots, (fcap + 1) * sizeof *fl);
    if (!fl)
        bsp_error("bsp_sync", "out of memory");
    bsp.free_slots = fl;
    memcpy(fl + bsp.nfree, freed, bsp.npop * sizeof *fl);
    bsp.nfree += bsp.npop;
    qsort(fl, bsp.nfree, sizeof *fl, cmp_desc);
    free(freed);
    bsp.npush = bsp.npop = bsp.ncancel = bsp.null_pops = 0;
    bsp.cancel_hash = 0;
    bsp.last_addr = NULL;
    bsp.last_reg = -1;
    tables_refresh();
}
