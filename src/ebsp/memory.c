/*
 * memory.c - ebsp_malloc, ebsp_ext_malloc, and ebsp_free.
 *
 * Each region is managed by an arena whose bookkeeping lives in the
 * process's private memory: a sorted array of the allocated blocks.  So the
 * region holds only what the program puts there, the host may write into
 * unallocated parts freely, and ebsp_free can tell a block from any other
 * pointer.  Blocks are placed first-fit from the top of the region down,
 * keeping low offsets (where host programs put their data) free longest.
 */
#include <e_bsp.h>

#include "bsp/bsp_impl.h"
#include "ebsp/ebsp.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct ebsp_kernel ek = { .seg = { .fd = -1 } };
struct ebsp_stats ebsp_stats;

/* A process the program forks from a kernel is none: its calls stop
 * with one line (bsp_require_not_forked: launch_forked_copy). */
void ebsp_require_begun(const char *call)
{
    bsp_require_not_forked(call);
    if (!ek.begun) {
        bsp_error(call, "called outside bsp_begin ... bsp_end");
    }
}

/* ---- the memories below 4 GiB ------------------------------------------------ */

/* On the board every address fits in 32 bits, and kernels keep pointers in
 * ints.  So the part of the session segment holding the processors' local
 * and external memories (its first mem_end bytes) is mapped a second time,
 * at the first free place from 256 MiB up that ends below 4 GiB; the
 * allocators hand out addresses from that mapping.  (Under AddressSanitizer
 * only the first 2 GiB are ordinary memory; the search finds room there for
 * the default sizes.)  Where no such place exists, the memories stay in the
 * ordinary mapping: everything works except keeping a pointer in an int. */
void ebsp_map_low(void)
{
    uint64_t size = (ek.sh->mem_end + 4095) & ~4095ull;
    ek.low = ek.seg.base;
    ek.low_size = ek.seg.size;
    if (!size || size > ek.seg.size)
        return;
    for (uint64_t at = 256ull << 20; at + size <= 4ull << 30; at += 256ull << 20) {
        void *p = mmap((void *)(uintptr_t)at, size, PROT_READ | PROT_WRITE,
                       MAP_SHARED | MAP_NORESERVE | MAP_FIXED_NOREPLACE, ek.seg.fd, 0);
        if (p == MAP_FAILED)
            continue;
        if (p != (void *)(uintptr_t)at) { /* a kernel without MAP_FIXED_NOREPLACE took it as a hint */
            munmap(p, size);
            continue;
        }
        ek.low = p;
        ek.low_size = size;
        return;
    }
}

/* ---- arenas ---------------------------------------------------------------- */

void arena_reset(struct arena *a, char *base, uint64_t size)
{
    free(a->blk);
    a->blk = NULL;
    a->n = a->cap = 0;
    a->base = base;
    a->size = size & ~(uint64_t)(EBSP_ALIGN - 1);
}

void *arena_alloc(struct arena *a, uint64_t nbytes)
{
    uint64_t need = (nbytes + EBSP_ALIGN - 1) & ~(uint64_t)(EBSP_ALIGN - 1);
    if (!need)
        need = EBSP_ALIGN;
    if (need > a->size || need < nbytes)
        return NULL;
    /* Gap i lies between block i-1 and block i; try the highest first. */
    for (uint64_t i = a->n + 1; i-- > 0;) {
        uint64_t lo = i ? a->blk[i - 1].off + a->blk[i - 1].len : 0;
        uint64_t hi = i < a->n ? a->blk[i].off : a->size;
        if (hi - lo < need)
            continue;
        uint64_t off = hi - need;
        a->blk = grow(a->blk, &a->cap, a->n + 1, sizeof *a->blk);
        memmove(a->blk + i + 1, a->blk + i, (a->n - i) * sizeof *a->blk);
        a->blk[i] = (struct ablock){ off, need };
        a->n++;
        return a->base + off;
    }
    return NULL;
}

bool arena_owns(const struct arena *a, const void *p)
{
    const char *c = p;
    return a->base && c >= a->base && c < a->base + a->size;
}

bool arena_free(struct arena *a, void *p)
{
    if (!arena_owns(a, p))
        return false;
    uint64_t off = (uint64_t)((char *)p - a->base), lo = 0, hi = a->n;
    while (lo < hi) {
        uint64_t mid = (lo + hi) / 2;
        if (a->blk[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == a->n || a->blk[lo].off != off)
        return false;
    memmove(a->blk + lo, a->blk + lo + 1, (a->n - lo - 1) * sizeof *a->blk);
    a->n--;
    return true;
}

/* ---- the public calls -------------------------------------------------------- */

void *ebsp_malloc(unsigned int nbytes)
{
    ebsp_require_begun("ebsp_malloc");
    return arena_alloc(&ek.local, nbytes);
}

void *ebsp_ext_malloc(unsigned int nbytes)
{
    ebsp_require_begun("ebsp_ext_malloc");
    return arena_alloc(&ek.ext, nbytes);
}

void ebsp_free(void *ptr)
{
    ebsp_require_begun("ebsp_free");
    if (!ptr)
        bsp_error("ebsp_free", "NULL pointer");
    if (arena_free(&ek.local, ptr) || arena_free(&ek.ext, ptr))
        return;
    bsp_error("ebsp_free", "pointer %p was not returned by ebsp_malloc or ebsp_ext_malloc, or was freed already",
              ptr);
}

void *ebsp_local_address(size_t offset)
{
    ebsp_require_begun("ebsp_local_address");
    return offset < ek.local.size ? ek.local.base + offset : NULL;
}

size_t ebsp_local_size(void)
{
    ebsp_require_begun("ebsp_local_size");
    return (size_t)ek.local.size;
}

void ebsp_memcpy(void *dst, const void *src, size_t nbytes)
{
    if (nbytes)
        memmove(dst, src, nbytes);
}
