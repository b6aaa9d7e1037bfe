/*
 * mirror.c - moving registered areas into the shared segment, so that
 * peers' direct transfers (bsp_hpput, bsp_hpget, bsp_direct_get) reach them
 * with memcpy through their own mapping of the segment instead of
 * process_vm_writev/readv (which pins and maps the peer's pages one by one:
 * 40-55 % of memcpy at best, bench/RESULTS.md, target 1).
 *
 * Lazily: a peer's hp transfer into an area not moved asks the owner
 * (mirror_ask), and the owner moves it at the start of its next sync
 * (mirror_serve), before the barrier.  Then (shm device, p >= 2, direct
 * access) its whole pages [lo, hi), when they are at least SUPERSTEP_HP_MOVE_MIN
 * bytes and /proc/self/maps shows them private anonymous and writable
 * (heap, mmap, .bss; not the stack, a file or a shared mapping), are copied
 * into a fresh range of the segment (pwrite into the memfd) and the range is
 * mapped over them, MAP_SHARED | MAP_FIXED: the same addresses, the same
 * contents, now segment pages.  The registration table publishes the range
 * (address, length, segment offset) per slot; a peer copies into or out of
 * it through its own segment mapping.  The partial head and tail pages and
 * everything not moved keep process_vm_*.
 *
 * When the last registration using them is popped the pages stay moved
 * (idle: no slot publishes them).  They go back (a private anonymous copy
 * put in place with one mremap, so a concurrent bsp_direct_get never sees
 * a hole) at bsp_end, or when the program has unmapped part of them (found
 * at the next move); the segment range is then emptied (its pages kept up
 * to WARM_MAX when nothing maps it any more, else FALLOC_FL_PUNCH_HOLE) and
 * reused.  Before any of that, the
 * pages must still be ours: the program may have freed the area (free
 * unmaps a large chunk, or trims the heap), and the addresses may hold
 * other memory since, so /proc/self/maps is read again and nothing is
 * mapped back unless [lo, hi) still maps the range.  A range that some
 * other mapping still shows (realloc moved the pages with mremap) is never
 * emptied or reused.
 *
 * fork() in a processor: the pages must not be shared with the child, and
 * the parent's must stay in place (its other threads may be writing them):
 * the ranges are not inherited (MADV_DONTFORK) and the child gets private
 * copies made just before the fork, and forgets the moves.  exec drops
 * every mapping.  Every copy into or out of the program's pages is a
 * system call (pwrite, pread into a fresh mapping, mremap), so ASan, which
 * poisons a freed area, sees no access to it.
 */
#include "bsp/bsp_impl.h"
#include "settings/settings.h"

#include "launch/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

struct mirror {
    uintptr_t lo;
    uint64_t len;     /* 0: a free entry */
    uint64_t off;     /* in the segment */
    uint32_t refs;    /* registrations using it */
    bool mapped;      /* still mapped at lo, as far as we know */
    bool dontfork;    /* around a fork: marked MADV_DONTFORK */
    char *copy;       /* around a fork: the child's private copy */
};

struct range {
    uint64_t off, len;
    bool warm;        /* its pages kept (not punched): a move into it copies
                       * into pages the memfd has, not fresh ones */
};

/* Bytes of emptied ranges kept with their pages, at most: a program that
 * frees a moved area and registers new memory of the same size (each
 * superstep, say) moves it into pages the memfd already has.  Fresh pages
 * cost 10-15 times more here (bench/RESULTS.md, target 1). */
#define WARM_MAX ((uint64_t)64 << 20)

static struct {
    bool on;
    uint64_t min;
    uintptr_t page;
    ino_t ino;                 /* the segment's memfd */
    int fd;                    /* its descriptor: the run's that moved the areas,
                                * also while an inner run (launch_nest_enter)
                                * has put its own segment in job.seg */
    struct mirror *m;
    uint32_t n, cap;
    struct range *free;        /* emptied segment ranges, for reuse */
    uint32_t nfree, capfree;
    uint64_t warm;             /* bytes of warm ranges in free */
    char *maps;                /* the last read of /proc/self/maps */
    size_t maplen, mapcap;
} mr;

/* ---- /proc/self/maps ---------------------------------------------------- */

static bool maps_read(void)
{
    int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    mr.maplen = 0;
    for (;;) {
        if (mr.mapcap - mr.maplen < 4096) {
            size_t cap = mr.mapcap ? 2 * mr.mapcap : 65536;
            char *p = realloc(mr.maps, cap);
            if (!p) {
                close(fd);
                return false;
            }
            mr.maps = p;
            mr.mapcap = cap;
        }
        ssize_t got = read(fd, mr.maps + mr.maplen, mr.mapcap - mr.maplen - 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            close(fd);
            return false;
        }
        if (got == 0)
            break;
        mr.maplen += (size_t)got;
    }
    close(fd);
    mr.maps[mr.maplen] = 0;
    return true;
}

struct vma {
    uintptr_t start, end;
    uint64_t off;
    unsigned long ino;
    char perm[4];
    const char *path;
    size_t pathlen;
};

/* The next line of the last read; false at the end. */
static bool vma_next(const char **at, struct vma *v)
{
    const char *p = *at;
    if (!*p)
        return false;
    char *e;
    v->start = strtoull(p, &e, 16);
    v->end = strtoull(e + 1, &e, 16);
    memcpy(v->perm, e + 1, 4);
    v->off = strtoull(e + 6, &e, 16);
    while (*e == ' ')
        e++;
    while (*e && *e != ' ') /* the device */
        e++;
    v->ino = strtoul(e, &e, 10);
    while (*e == ' ')
        e++;
    v->path = e;
    while (*e && *e != '\n')
        e++;
    v->pathlen = (size_t)(e - v->path);
    *at = *e ? e + 1 : e;
    return true;
}

static bool is_segment(const struct vma *v)
{
    return v->ino == mr.ino && v->pathlen >= 16 && !memcmp(v->path, "/memfd:superstep", 16);
}

enum { V_OTHER, V_ANON, V_OURS };

static int vma_kind(const struct vma *v)
{
    /* Unnamed, the heap, or named with prctl(PR_SET_VMA_ANON_NAME). */
    if (!memcmp(v->perm, "rw-p", 4) && v->ino == 0 &&
        (v->pathlen == 0 || (v->pathlen == 6 && !memcmp(v->path, "[heap]", 6)) ||
         (v->pathlen > 6 && !memcmp(v->path, "[anon:", 6))))
        return V_ANON;
    if (!memcmp(v->perm, "rw-s", 4) && is_segment(v))
        return V_OURS;
    return V_OTHER;
}

/* Is [lo, hi) wholly covered by mappings of 'kind' (V_OURS: mapping the
 * segment at offset 'off' for lo) in the last read? */
static bool range_is(uintptr_t lo, uintptr_t hi, int kind, uint64_t off)
{
    const char *at = mr.maps;
    struct vma v;
    uint64_t covered = 0;
    while (vma_next(&at, &v)) {
        if (v.end <= lo || v.start >= hi)
            continue;
        if (vma_kind(&v) != kind || (kind == V_OURS && v.off - v.start != off - lo))
            return false;
        covered += (v.end < hi ? v.end : hi) - (v.start > lo ? v.start : lo);
    }
    return covered == hi - lo;
}

/* Does any mapping show a byte of [off, off + len), other than the
 * segment's own and the range's own mapping at lo? */
static bool mapped_elsewhere(uint64_t off, uint64_t len, uintptr_t lo)
{
    const char *at = mr.maps;
    struct vma v;
    uintptr_t base = (uintptr_t)job.seg.base;
    while (vma_next(&at, &v)) {
        if (!is_segment(&v) || (v.start >= base && v.end <= base + job.seg.size && v.off == v.start - base) ||
            (v.start >= lo && v.end <= lo + len && v.off - v.start == off - lo))
            continue;
        if (v.off < off + len && off < v.off + (v.end - v.start))
            return true;
    }
    return false;
}

/* ---- segment ranges ----------------------------------------------------- */

/* A page-aligned range of len bytes: a freed one, else new, as long as the
 * segment keeps at least half its size for the channels (a program that
 * runs today must not run out of segment because of moves). */
static uint64_t range_alloc(uint64_t len)
{
    for (int warm = 1; warm >= 0; warm--) {
        for (uint32_t i = 0; i < mr.nfree; i++) {
            if (mr.free[i].len < len || mr.free[i].warm != warm)
                continue;
            uint64_t off = mr.free[i].off;
            mr.free[i].off += len;
            mr.free[i].len -= len;
            mr.warm -= warm ? len : 0;
            if (!mr.free[i].len)
                mr.free[i] = mr.free[--mr.nfree];
            return off;
        }
    }
    if (atomic_load_explicit(&job.seg.hdr->brk, memory_order_relaxed) + len > job.seg.size / 2)
        return 0;
    return seg_alloc(&job.seg, len, mr.page);
}

static bool punch(uint64_t off, uint64_t len)
{
    return fallocate(mr.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) == 0;
}

/* An emptied range, for reuse: its pages dropped, or kept (keep: its pages
 * hold nothing anybody maps) while the warm ones stay within WARM_MAX. */
static void range_free(uint64_t off, uint64_t len, bool keep)
{
    bool warm = keep && mr.warm + len <= WARM_MAX;
    /* Drop the pages; should that fail, never hand out the range again. */
    if (!warm && !punch(off, len))
        return;
    mr.warm += warm ? len : 0;
    for (uint32_t i = 0; i < mr.nfree; i++) { /* join a neighbour */
        if (mr.free[i].warm != warm)
            continue;
        if (mr.free[i].off + mr.free[i].len == off) {
            mr.free[i].len += len;
            return;
        }
        if (off + len == mr.free[i].off) {
            mr.free[i].off = off;
            mr.free[i].len += len;
            return;
        }
    }
    if (mr.nfree == mr.capfree) {
        uint32_t cap = mr.capfree ? 2 * mr.capfree : 16;
        struct range *f = realloc(mr.free, cap * sizeof *f);
        if (!f) { /* leaked: the segment is sparse */
            mr.warm -= warm ? len : 0;
            if (warm)
                punch(off, len);
            return;
        }
        mr.free = f;
        mr.capfree = cap;
    }
    mr.free[mr.nfree++] = (struct range){ off, len, warm };
}

/* pwrite/pread between the segment and memory, as system calls: the
 * kernel copies, so no sanitizer interceptor looks at the program's pages. */
static bool seg_io(bool write, char *buf, uint64_t len, uint64_t off)
{
    while (len) {
        size_t n = len > 0x7ffff000u ? 0x7ffff000u : (size_t)len;
        long got = syscall(write ? SYS_pwrite64 : SYS_pread64, mr.fd, buf, n, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        buf += got;
        off += (uint64_t)got;
        len -= (uint64_t)got;
    }
    return true;
}

/* ---- moving pages ------------------------------------------------------- */

/* Pages are moved in steps of this many bytes, so that a large area costs
 * at most this much memory twice at any time (the pages of one step are
 * in the program's mapping and in the segment until the step ends). */
#define STEP ((uint64_t)64 << 20)

/* Fresh private anonymous pages holding len bytes of the segment at off;
 * NULL when there is no memory for them. */
static char *snapshot(uint64_t len, uint64_t off)
{
    char *tmp = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (tmp == MAP_FAILED)
        return NULL;
    if (!seg_io(false, tmp, len, off)) {
        munmap(tmp, len);
        return NULL;
    }
    return tmp;
}

/* Put private anonymous pages holding the range's contents at lo, in one
 * step (mremap of a filled copy). */
static bool make_private(uintptr_t lo, uint64_t len, uint64_t off)
{
    char *tmp = snapshot(len, off);
    if (!tmp)
        return false;
    if (mremap(tmp, len, len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)lo) == MAP_FAILED) {
        munmap(tmp, len);
        return false;
    }
    return true;
}

static bool map_shared(uintptr_t lo, uint64_t len, uint64_t off)
{
    return mmap((void *)lo, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED | MAP_POPULATE, mr.fd,
                (off_t)off) != MAP_FAILED;
}

static int32_t mirror_new(void)
{
    for (uint32_t i = 0; i < mr.n; i++)
        if (!mr.m[i].len)
            return (int32_t)i;
    if (mr.n == mr.cap) {
        uint32_t cap = mr.cap ? 2 * mr.cap : 16;
        struct mirror *m = realloc(mr.m, cap * sizeof *m);
        if (!m)
            return -1;
        mr.m = m;
        mr.cap = cap;
    }
    mr.m[mr.n] = (struct mirror){ 0, 0, 0, 0, false, false, NULL };
    return (int32_t)mr.n++;
}

/* Undo the first 'done' bytes of a move that failed. */
static void unmove(uintptr_t lo, uint64_t done, uint64_t off)
{
    for (uint64_t at = 0; at < done; at += STEP) {
        uint64_t n = done - at < STEP ? done - at : STEP;
        if (!make_private(lo + at, n, off + at))
            bsp_error("bsp_sync", "cannot restore %llu bytes at %p after a failed move into the segment: %s",
                      (unsigned long long)n, (void *)(lo + at), strerror(errno));
    }
}

static int32_t mirror_create(uintptr_t lo, uint64_t len)
{
    int32_t i = mirror_new();
    if (i < 0)
        return -1;
    uint64_t off = range_alloc(len);
    if (!off)
        return -1;
    for (uint64_t at = 0; at < len; at += STEP) {
        uint64_t n = len - at < STEP ? len - at : STEP;
        if (!seg_io(true, (char *)(lo + at), n, off + at)) { /* no memory for the pages: keep the old path */
            unmove(lo, at, off);
            range_free(off, len, false);
            return -1;
        }
        if (!map_shared(lo + at, n, off + at)) {
            /* A failed MAP_FIXED may have dropped the old pages already:
             * put a private copy of this step back too. */
            unmove(lo, at + n, off);
            range_free(off, len, false);
            return -1;
        }
    }
    mr.m[i] = (struct mirror){ lo, len, off, 1, true, false, NULL };
    return i;
}

/* Back to private pages, step by step, each step's segment pages dropped
 * after it (so at most one step is held twice); false when a step fails. */
static bool move_back(uintptr_t lo, uint64_t len, uint64_t off)
{
    for (uint64_t at = 0; at < len; at += STEP) {
        uint64_t n = len - at < STEP ? len - at : STEP;
        if (!make_private(lo + at, n, off + at))
            return false;
        punch(off + at, n);
    }
    return true;
}

/* The last registration using m is gone: its pages go back where they are
 * still ours (all of them, unless the program freed some: free unmaps, the
 * heap is trimmed), and the range is reused unless a mapping we did not
 * make still shows part of it (realloc moved the pages with mremap).  A
 * step that fails (no memory) leaves its pages in the segment: the right
 * contents, shared with nothing else; the range is then never reused. */
static void mirror_restore(struct mirror *m)
{
    bool ok = maps_read(), none_back = true;
    const char *at = mr.maps;
    struct vma v;
    while (ok && vma_next(&at, &v)) {
        if (v.end <= m->lo || v.start >= m->lo + m->len || vma_kind(&v) != V_OURS || v.off - v.start != m->off - m->lo)
            continue;
        uintptr_t x = v.start > m->lo ? v.start : m->lo, y = v.end < m->lo + m->len ? v.end : m->lo + m->len;
        ok = move_back(x, y - x, m->off + (x - m->lo));
        none_back = false;
    }
    /* Nothing mapped any more (the program unmapped the area): its pages
     * may stay for the next move. */
    if (ok && !mapped_elsewhere(m->off, m->len, m->lo))
        range_free(m->off, m->len, none_back);
    m->len = 0;
}

/* moff last, with release: a peer that loads it (acquire) and finds it
 * set sees mlo and mlen too, even while the owner publishes a lazy move
 * during a peer's bsp_direct_get. */
static void mirror_publish(struct reg_entry *e, int32_t i, uintptr_t lo, uintptr_t hi)
{
    const struct mirror *m = i >= 0 ? &mr.m[i] : NULL;
    atomic_store_explicit(&e->mlo, m ? lo : 0, memory_order_relaxed);
    atomic_store_explicit(&e->mlen, m ? hi - lo : 0, memory_order_relaxed);
    atomic_store_explicit(&e->moff, m ? m->off + (lo - m->lo) : 0, memory_order_release);
}

/* Idle moves (no registration uses them) whose pages the program unmapped
 * since, wholly or in part: what is still ours goes back, the range is
 * reused (mirror_restore).  Against the last read of /proc/self/maps. */
static void forget_unmapped(void)
{
    for (uint32_t i = 0; i < mr.n; i++) {
        struct mirror *m = &mr.m[i];
        if (m->len && !m->refs && !(m->mapped && range_is(m->lo, m->lo + m->len, V_OURS, m->off)))
            mirror_restore(m); /* reads /proc/self/maps again */
    }
}

int32_t mirror_attach(const void *addr, uint64_t size, struct reg_entry *e)
{
    uintptr_t a = (uintptr_t)addr, lo = (a + mr.page - 1) & ~(mr.page - 1), hi = (a + size) & ~(mr.page - 1);
    /* an inner run moves nothing: the outer run's moves stay as they are */
    if (!mr.on || launch_nest_depth() || a + size < a || hi <= lo || hi - lo < mr.min || !maps_read())
        return -1;
    forget_unmapped();
    /* Pages moved already for another registration, or left moved by a
     * popped one: share them (the part of this area they cover). */
    int32_t best = -1;
    uint64_t bestlen = 0;
    for (uint32_t i = 0; i < mr.n; i++) {
        struct mirror *m = &mr.m[i];
        uintptr_t x = lo > m->lo ? lo : m->lo, y = hi < m->lo + m->len ? hi : m->lo + m->len;
        if (!m->len || !m->mapped || x >= y)
            continue;
        if (!range_is(m->lo, m->lo + m->len, V_OURS, m->off)) {
            m->mapped = false; /* the program freed them */
            continue;
        }
        if (y - x > bestlen)
            best = (int32_t)i, bestlen = y - x;
    }
    if (best >= 0) {
        struct mirror *m = &mr.m[best];
        m->refs++;
        mirror_publish(e, best, lo > m->lo ? lo : m->lo, hi < m->lo + m->len ? hi : m->lo + m->len);
        return best;
    }
    if (!range_is(lo, hi, V_ANON, 0))
        return -1;
    int32_t i = mirror_create(lo, hi - lo);
    if (i >= 0)
        mirror_publish(e, i, lo, hi);
    return i;
}

/* The pages stay moved (idle) when the last registration using them is
 * popped: moving them back would cost a copy into fresh private pages, and
 * a program that registers the same memory again (every superstep, say)
 * would pay a move each time.  They go back at bsp_end, or when the
 * program has unmapped them (forget_unmapped, at the next move).  Peers
 * cannot reach them meanwhile: the slot is unpublished. */
void mirror_detach(int32_t i)
{
    if (i >= 0 && (uint32_t)i < mr.n && mr.m[i].len && mr.m[i].refs)
        mr.m[i].refs--;
}

/* ---- lazy moves ----------------------------------------------------------- */

/* A slot being registered: not moved, nobody asked. */
void mirror_reset(struct reg_entry *e)
{
    mirror_publish(e, -1, 0, 0);
    atomic_store_explicit(&e->move, MOVE_NONE, memory_order_relaxed);
}

/* A peer's hp transfer touches processor pid's area 'slot', not moved:
 * ask the owner to move it (once per registration), for the transfers of
 * the following supersteps.  Moving at registration instead cost 70 times
 * one transfer of a 1 MiB area (bench/RESULTS.md), paid also by areas that
 * never see an hp transfer. */
void mirror_ask(uint32_t pid, uint32_t slot)
{
    struct reg_entry *e = &bsp.tabs[pid][slot];
    if (!mr.on || atomic_load_explicit(&e->move, memory_order_relaxed) != MOVE_NONE ||
        atomic_load_explicit(&e->size, memory_order_relaxed) < mr.min)
        return;
    atomic_store_explicit(&e->move, MOVE_ASKED, memory_order_relaxed);
    atomic_store_explicit(&bsp.shared[pid].moves_asked, 1, memory_order_release);
}

/* At the start of my sync, before its barrier, when a peer asked: no hp
 * transfer of a peer is in flight (they run between a sync's barriers), and
 * a concurrent bsp_direct_get reads the same bytes before and after each
 * step of a move.  The exchange orders a late ask after this scan: it is
 * then served at the next sync. */
void mirror_serve(void)
{
    if (!atomic_exchange_explicit(&bsp.shared[bsp.me].moves_asked, 0, memory_order_acq_rel))
        return;
    for (uint32_t slot = 0; mr.on && slot < bsp.nslots; slot++) {
        struct reg_entry *e = &bsp.mytab[slot];
        if (atomic_load_explicit(&e->move, memory_order_relaxed) != MOVE_ASKED)
            continue;
        atomic_store_explicit(&e->move, MOVE_ANSWERED, memory_order_relaxed);
        int32_t r = bsp.slot_reg[slot];
        if (r >= 0 && !bsp.regs[r].popping && bsp.regs[r].mirror < 0)
            bsp.regs[r].mirror = mirror_attach(bsp.regs[r].addr, bsp.regs[r].size, e);
    }
}

/* ---- fork ---------------------------------------------------------------- */

/* The child of a fork gets a private snapshot of the moved pages, and the
 * parent's mapping is never touched: another thread of the processor may
 * write its registered area while one thread forks, and any swap of the
 * parent's pages around the fork would lose those writes (issue 18, defect
 * 5).  So the prepare handler copies each moved range into a fresh private
 * mapping and marks the range MADV_DONTFORK; the child moves each copy to
 * its place (one mremap), the parent drops the copies and marks the ranges
 * inherited again.  A write made while fork runs may reach the child or
 * not, as for any memory.  Should a copy fail (no memory), the child gets
 * no pages there rather than pages shared with the parent. */
static pthread_mutex_t fork_lock = PTHREAD_MUTEX_INITIALIZER;

/* Only pages wholly still ours (a registered area the program freed
 * before popping it is left alone). */
static void fork_prepare(void)
{
    pthread_mutex_lock(&fork_lock); /* two threads forking at once */
    if (!mr.on || !mr.n || !maps_read())
        return;
    for (uint32_t i = 0; i < mr.n; i++) {
        struct mirror *m = &mr.m[i];
        m->copy = NULL;
        m->dontfork = m->len && m->mapped && range_is(m->lo, m->lo + m->len, V_OURS, m->off) &&
                      madvise((void *)m->lo, m->len, MADV_DONTFORK) == 0;
        if (m->dontfork)
            m->copy = snapshot(m->len, m->off);
    }
}

static void fork_parent(void)
{
    for (uint32_t i = 0; mr.on && i < mr.n; i++) {
        struct mirror *m = &mr.m[i];
        if (m->copy)
            munmap(m->copy, m->len);
        if (m->dontfork)
            madvise((void *)m->lo, m->len, MADV_DOFORK);
        m->copy = NULL;
        m->dontfork = false;
    }
    pthread_mutex_unlock(&fork_lock);
}

/* The child is no processor: it keeps its private copies, and no moves. */
static void fork_child(void)
{
    for (uint32_t i = 0; mr.on && i < mr.n; i++)
        if (mr.m[i].copy)
            mremap(mr.m[i].copy, mr.m[i].len, mr.m[i].len, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)mr.m[i].lo);
    mr.on = false;
    mr.n = 0;
    mr.nfree = 0;
    mr.warm = 0;
    pthread_mutex_unlock(&fork_lock);
}

/* ---- the job ------------------------------------------------------------- */

void mirror_begin(void)
{
    static bool atfork;
    if (!atfork && pthread_atfork(fork_prepare, fork_parent, fork_child) == 0)
        atfork = true;
    struct stat st;
    mr.page = (uintptr_t)sysconf(_SC_PAGESIZE);
    mr.min = setting_num(SET_HP_MOVE_MIN);
    mr.n = mr.nfree = 0;
    mr.warm = 0;
    mr.on = atfork && mr.min && bsp.p >= 2 && dev->segment_shared && dev->direct &&
            job.seg.fd >= 0 && fstat(job.seg.fd, &st) == 0;
    if (mr.on) {
        mr.ino = st.st_ino;
        mr.fd = job.seg.fd;
    }
}

void mirror_end(void)
{
    /* Only the starter lives on after bsp_end (the others _exit in
     * launch_finish): its program may use the memory again. */
    for (uint32_t i = 0; job.starter && i < mr.n; i++)
        if (mr.m[i].len)
            mirror_restore(&mr.m[i]);
    mr.on = false;
    for (uint32_t i = 0; i < mr.nfree; i++)
        if (mr.free[i].warm)
            punch(mr.free[i].off, mr.free[i].len);
    free(mr.m);
    free(mr.free);
    free(mr.maps);
    mr.m = NULL;
    mr.free = NULL;
    mr.maps = NULL;
    mr.n = mr.cap = mr.nfree = mr.capfree = 0;
    mr.maplen = mr.mapcap = 0;
    mr.warm = 0;
}
