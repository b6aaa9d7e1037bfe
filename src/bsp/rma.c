/*
 * rma.c - bsp_put, bsp_get, bsp_hpput, bsp_hpget.
 *
 * A put is copied into the stream towards its destination at the call
 * (buffered on source) and applied by the destination at the sync.  A get is
 * a request in the stream; the owner answers it after the first barrier of
 * the sync, before any put of the superstep is applied, and the requester
 * copies the answer after the second barrier.  hp transfers are queued and
 * done between those two barriers, when the device allows it: a plain copy
 * through the segment for the pages the owner moved there (mirror.c), and
 * process_vm_writev/readv, batched per peer, for the rest (mpi: MPI moves
 * each batch in the second exchange, src/mpi/mpi_hp.c); otherwise they are
 * ordinary puts and gets.
 */
#include "bsp/bsp_impl.h"

#include "launch/launch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct target {
    uint32_t pid;
    uint32_t slot;
};

static uint32_t check_pid(const char *call, int64_t pid)
{
    if (pid < 0 || pid >= (int64_t)bsp.p)
        bsp_error(call, "pid %lld out of range (nprocs %u)", (long long)pid, bsp.p);
    return (uint32_t)pid;
}

/* Validate a transfer against the area registered on 'pid'.  A transfer
 * of 0 bytes is a no-op whatever its remote address and offset (a
 * processor with no data registers NULL): as in LPF, MulticoreBSP and
 * BSPonMPI, nothing about it is checked but that the job runs, and the
 * caller does nothing. */
static struct target check_remote(const char *call, int64_t pid, const void *area, int64_t offset,
                                  int64_t nbytes, const void *local, const char *local_name)
{
    bsp_require_begun(call);
    struct target t = { 0, 0 };
    if (nbytes == 0)
        return t;
    t.pid = check_pid(call, pid);
    if (offset < 0 && !bsp.mc)
        check_size(call, "offset", offset);
    check_size(call, "nbytes", nbytes);
    if (!local && nbytes > 0)
        bsp_error(call, "NULL %s with nbytes %s", local_name, size_str(nbytes).s);
    if (!area)
        bsp_error(call, "NULL registered address");
    t.slot = bsp.regs[reg_lookup(call, area)].slot;
    uint64_t size = reg_remote_size(t.pid, t.slot);
    /* An unsigned offset near 2^64 would wrap offset + nbytes: compare apart. */
    if ((uint64_t)offset > size || (uint64_t)nbytes > size - (uint64_t)offset)
        bsp_error(call, "offset %s + nbytes %s exceeds the %llu bytes registered on processor %u",
                  size_str(offset).s, size_str(nbytes).s, (unsigned long long)size, t.pid);
    return t;
}

/* The common case, kept short: a small put to the last address used, with
 * room in the stream.  Anything else takes the checked path below. */
static inline bool put_fast(int64_t pid, const void *src, const void *dst, int64_t offset, int64_t nbytes)
{
    if (!(dst == bsp.last_addr && bsp.last_reg >= 0 && (uint64_t)pid < bsp.p && src &&
          (uint64_t)nbytes - 1 < 64 && (uint64_t)offset < (1ull << 40)))
        return false;
    uint32_t slot = bsp.last_slot;
    uint64_t size = reg_remote_size((uint32_t)pid, slot);
    if ((uint64_t)offset + (uint64_t)nbytes > size)
        return false;
    if (slot <= SMALL_MAX_SLOT && (uint64_t)offset <= UINT32_MAX) {
        struct rec_small r = { REC_SMALL | (uint32_t)nbytes << 8 | slot << 16, (uint32_t)offset };
        char *at = window_claim((uint32_t)pid, sizeof r + (size_t)nbytes);
        if (!at)
            return false;
        memcpy(at, &r, sizeof r);
        copy_small(at + sizeof r, src, (size_t)nbytes);
        return true;
    }
    struct rec_put r = { REC_PUT, slot, (uint64_t)offset, (uint64_t)nbytes };
    char *at = window_claim((uint32_t)pid, sizeof r + (size_t)nbytes);
    if (!at)
        return false;
    memcpy(at, &r, sizeof r);
    copy_small(at + sizeof r, src, (size_t)nbytes);
    return true;
}

/* A checked put of nbytes > 0 into the stream. */
static void put_target(struct target t, const void *src, int64_t offset, int64_t nbytes)
{
    if ((uint64_t)nbytes <= SMALL_MAX_NBYTES && t.slot <= SMALL_MAX_SLOT && (uint64_t)offset <= UINT32_MAX) {
        struct rec_small r = { REC_SMALL | (uint32_t)nbytes << 8 | t.slot << 16, (uint32_t)offset };
        char *at = stream_claim(t.pid, sizeof r + (size_t)nbytes);
        if (at) {
            memcpy(at, &r, sizeof r);
            memcpy(at + sizeof r, src, (size_t)nbytes);
        } else {
            stream_write(t.pid, &r, sizeof r);
            stream_write(t.pid, src, (size_t)nbytes);
        }
        return;
    }
    struct rec_put r = { REC_PUT, t.slot, (uint64_t)offset, (uint64_t)nbytes };
    stream_write(t.pid, &r, sizeof r);
    stream_write(t.pid, src, (size_t)nbytes);
}

static __attribute__((noinline)) void put_checked(int64_t pid, const void *src, const void *dst,
                                                  int64_t offset, int64_t nbytes, const char *call)
{
    struct target t = check_remote(call, pid, dst, offset, nbytes, src, "source");
    if (nbytes)
        put_target(t, src, offset, nbytes);
}

/* A checked get of nbytes > 0: a request in the stream. */
static void get_target(struct target t, int64_t offset, void *dst, int64_t nbytes)
{
    struct rec_get r = { REC_GET, t.slot, (uint64_t)offset, (uint64_t)nbytes, (uint64_t)(uintptr_t)dst };
    stream_write(t.pid, &r, sizeof r);
    bsp.slow = true;
}

void bsp_impl_put(int64_t pid, const void *src, const void *dst, int64_t offset, int64_t nbytes,
                  const char *call)
{
    if (!put_fast(pid, src, dst, offset, nbytes))
        put_checked(pid, src, dst, offset, nbytes, call);
}

void bsp_impl_get(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes,
                  const char *call)
{
    struct target t = check_remote(call, pid, src, offset, nbytes, dst, "destination");
    if (nbytes)
        get_target(t, offset, dst, nbytes);
}

static void queue_hp(struct target t, bool write, void *local, uint64_t remote, uint64_t nbytes)
{
    uint64_t cap = bsp.caphp;
    bsp.hp = grow(bsp.hp, &cap, bsp.nhp + 1, sizeof *bsp.hp);
    bsp.caphp = (uint32_t)cap;
    bsp.hp[bsp.nhp++] = (struct hp_op){ t.pid, t.slot, write, local, remote, nbytes };
    bsp.slow = true;
}

/* The part of a transfer of n bytes at 'remote', in processor pid's area
 * 'slot', that lies in pages the owner moved into the segment: it starts
 * 'skip' bytes into the transfer, is 'len' long, and is at 'seg' here. */
struct moved {
    uint64_t skip, len;
    char *seg;
};

static struct moved moved_part(uint32_t pid, uint32_t slot, uint64_t remote, uint64_t n)
{
    const struct reg_entry *e = &bsp.tabs[pid][slot];
    struct moved m = { 0, 0, NULL };
    uint64_t off = atomic_load_explicit(&e->moff, memory_order_acquire);
    if (!off) {
        mirror_ask(pid, slot); /* moved for the next superstep's transfers */
        return m;
    }
    uint64_t lo = atomic_load_explicit(&e->mlo, memory_order_relaxed);
    uint64_t hi = lo + atomic_load_explicit(&e->mlen, memory_order_relaxed);
    uint64_t a = remote > lo ? remote : lo, b = remote + n < hi ? remote + n : hi;
    if (a < b)
        m = (struct moved){ a - remote, b - a, (char *)seg_ptr(&job.seg, off + (a - lo)) };
    return m;
}

/* Where hp transfers are direct only at the sync (mpi), one of fewer than
 * dev->direct_min bytes goes through the streams (a copy costs less
 * there), and so does one that overlaps what such a transfer of the
 * superstep moved to the same peer (for a get: from it): the streams land
 * after the direct transfers, and the later of two transfers to the same
 * bytes must win.  The bytes streamed so far, per peer and direction, are
 * one span each; 'at' is where the bytes land (the peer's address for a
 * put, this processor's for a get). */
static struct hp_span *hp_span_of(const char *call, uint32_t pid, bool write)
{
    if (!bsp.hp_span && !(bsp.hp_span = calloc(2 * (size_t)bsp.p, sizeof *bsp.hp_span)))
        bsp_error(call, "out of memory");
    return &bsp.hp_span[2 * pid + write];
}

static void hp_span_add(const char *call, uint32_t pid, bool write, uint64_t at, uint64_t n)
{
    struct hp_span *s = hp_span_of(call, pid, write);
    s->lo = s->hi && s->lo < at ? s->lo : at;
    s->hi = s->hi > at + n ? s->hi : at + n;
    bsp.hp_spans_used = true;
}

static bool hp_span_overlaps(const char *call, uint32_t pid, bool write, uint64_t at, uint64_t n)
{
    const struct hp_span *s = hp_span_of(call, pid, write);
    return at < s->hi && s->lo < at + n;
}

/* Through the streams: not direct, or below direct_min (nbytes < 0 too:
 * the put or get reports it). */
static bool hp_streams(int64_t nbytes)
{
    return !dev->direct && (!dev->direct_at_sync || (uint64_t)nbytes < dev->direct_min);
}

void rma_superstep_done(void)
{
    bsp.nhp = 0;
    if (bsp.hp_spans_used)
        memset(bsp.hp_span, 0, 2 * (size_t)bsp.p * sizeof *bsp.hp_span);
    bsp.hp_spans_used = false;
}

void rma_free(void)
{
    free(bsp.hp);
    free(bsp.hp_span);
    bsp.hp = NULL;
    bsp.hp_span = NULL;
    bsp.nhp = bsp.caphp = 0;
    bsp.hp_spans_used = false;
}

void bsp_impl_hpput(int64_t pid, const void *src, const void *dst, int64_t offset, int64_t nbytes)
{
    if (hp_streams(nbytes)) {
        bsp_impl_put(pid, src, dst, offset, nbytes, "bsp_hpput");
        if (dev->direct_at_sync && nbytes) /* checked: bsp.last_slot is dst's */
            hp_span_add("bsp_hpput", (uint32_t)pid, true,
                        reg_remote_addr((uint32_t)pid, bsp.last_slot) + (uint64_t)offset, (uint64_t)nbytes);
        return;
    }
    struct target t = check_remote("bsp_hpput", pid, dst, offset, nbytes, src, "source");
    if (!nbytes)
        return;
    uint64_t at = reg_remote_addr(t.pid, t.slot) + (uint64_t)offset;
    if (dev->direct_at_sync && hp_span_overlaps("bsp_hpput", t.pid, true, at, (uint64_t)nbytes)) {
        put_target(t, src, offset, nbytes);
        hp_span_add("bsp_hpput", t.pid, true, at, (uint64_t)nbytes);
        return;
    }
    queue_hp(t, true, (void *)src, at, (uint64_t)nbytes);
}

void bsp_impl_hpget(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes)
{
    if (hp_streams(nbytes)) {
        bsp_impl_get(pid, src, offset, dst, nbytes, "bsp_hpget");
        if (dev->direct_at_sync && nbytes)
            hp_span_add("bsp_hpget", (uint32_t)pid, false, (uint64_t)(uintptr_t)dst, (uint64_t)nbytes);
        return;
    }
    struct target t = check_remote("bsp_hpget", pid, src, offset, nbytes, dst, "destination");
    if (!nbytes)
        return;
    uint64_t at = (uint64_t)(uintptr_t)dst;
    if (dev->direct_at_sync && hp_span_overlaps("bsp_hpget", t.pid, false, at, (uint64_t)nbytes)) {
        get_target(t, offset, dst, nbytes);
        hp_span_add("bsp_hpget", t.pid, false, at, (uint64_t)nbytes);
        return;
    }
    queue_hp(t, false, dst, reg_remote_addr(t.pid, t.slot) + (uint64_t)offset, (uint64_t)nbytes);
}

/* A processor may leave bsp_sync before a peer has applied what that sync
 * delivered to the peer; a read of the peer's memory outside a sync waits
 * for it to have (its 'applied' word, set at the end of its bsp_sync), so
 * that once bsp_sync returns anywhere, everything the superstep
 * communicated is in place everywhere, as in MulticoreBSP.  The peer is in
 * this superstep or still in the last sync: its word is bsp.step or one
 * less. */
void rma_wait_applied(uint32_t pid)
{
    struct counted_word *w = rma_applied_of(pid);
    uint32_t now;
    while ((now = atomic_load_explicit(&w->value, memory_order_acquire)) != (uint32_t)bsp.step)
        if (!counted_wait(&job.ls->barrier, w, now))
            launch_stopped(); /* the job failed meanwhile */
}

/* MulticoreBSP's bsp_direct_get: read the remote memory now, during the
 * superstep (what the owner has written so far this superstep may or may not
 * be seen; the caller orders it with syncs), once the owner has applied the
 * last sync.  Only where processors can reach each other's memory (shm with
 * process_vm_readv; mpi by MPI one-sided reads, dev->remote_read). */
void bsp_impl_direct_get(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes)
{
    struct target t = check_remote("bsp_direct_get", pid, src, offset, nbytes, dst, "destination");
    if (!nbytes)
        return;
    if (!dev->direct && !dev->remote_read)
        bsp_error("bsp_direct_get", "device %s cannot read processor %u's memory directly "
                  "(needs process_vm_readv on shm; use bsp_get)", dev->name, t.pid);
    uint64_t at = reg_remote_addr(t.pid, t.slot) + (uint64_t)offset, n = (uint64_t)nbytes;
    if (t.pid == bsp.me) { /* my own memory */
        memmove(dst, (const void *)(uintptr_t)at, n);
        return;
    }
    if (dev->remote_read) {
        char why[300];
        if (!dev->remote_read(t.pid, dst, at, n, (uint32_t)bsp.step, why, sizeof why))
            bsp_error("bsp_direct_get", "device %s cannot read processor %u's memory directly: %s", dev->name,
                      t.pid, why);
        return;
    }
    rma_wait_applied(t.pid);
    struct moved m = moved_part(t.pid, t.slot, at, n);
    if (m.len)
        memcpy((char *)dst + m.skip, m.seg, m.len);
    /* The pieces before and after the moved pages (all of it when none). */
    uint64_t head = m.len ? m.skip : n, tail = m.len ? m.skip + m.len : n;
    struct iovec local[2], remote[2];
    size_t k = 0;
    if (head) {
        local[k] = (struct iovec){ dst, head };
        remote[k++] = (struct iovec){ (void *)(uintptr_t)at, head };
    }
    if (tail < n) {
        local[k] = (struct iovec){ (char *)dst + tail, n - tail };
        remote[k++] = (struct iovec){ (void *)(uintptr_t)(at + tail), n - tail };
    }
    if (k && !dev->direct_read(t.pid, local, remote, k)) {
        launch_stop_if_peer_died(t.pid, errno); /* a peer killed meanwhile is reported by its signal */
        bsp_error("bsp_direct_get", "direct read from processor %u failed", t.pid);
    }
}

/* ---- at the sync ------------------------------------------------------- */

static struct reg *slot_local(uint32_t src, uint32_t slot, const char *what)
{
    int32_t r = slot < bsp.nslots ? bsp.slot_reg[slot] : -1;
    if (r < 0)
        bsp_error("bsp_sync", "%s from processor %u names slot %u, which is not registered here", what, src, slot);
    return &bsp.regs[r];
}

void rma_apply_put(uint32_t src, const struct rec_put *r)
{
    struct reg *g = slot_local(src, r->slot, "a put");
    stream_read(src, (char *)g->addr + r->offset, r->nbytes);
}

void rma_put_here(uint32_t src, const struct rec_put *r, const void *data)
{
    struct reg *g = slot_local(src, r->slot, "a put");
    copy_small((char *)g->addr + r->offset, data, r->nbytes);
}

void rma_bad_slot(uint32_t src, uint32_t slot)
{
    slot_local(src, slot, "a put");
    __builtin_unreachable();
}

/* Per source, the bytes it sent before the replies to my gets (the first
 * exchange of a sync with gets): its replies follow them in the stream. */
static uint64_t *before_replies;
static uint64_t cap_before;

/* Copy every reply to my gets into place before any put of the superstep is
 * applied (the drain skips them), so that a put to the same bytes wins, as
 * in BSPonMPI: the replies are read ahead of the records before them. */
void rma_apply_replies(void)
{
    for (uint32_t src = 0; src < bsp.p; src++) {
        uint64_t left = dev->incoming(src);
        if (left <= before_replies[src])
            continue;
        dev->scan_begin(src);
        dev->scan_skip(src, before_replies[src]);
        left -= before_replies[src];
        while (left) {
            struct rec_reply r;
            dev->scan_read(src, &r, sizeof r);
            if (REC_KIND(r.kind) != REC_REPLY)
                bsp_error("bsp_sync", "corrupt record kind %u from processor %u where a get reply belongs",
                          REC_KIND(r.kind), src);
            dev->scan_read(src, (void *)(uintptr_t)r.dst, r.nbytes);
            left -= sizeof r + r.nbytes;
        }
    }
}

/* Answer every get addressed to me, from my memory as the superstep left it. */
void rma_serve_gets(void)
{
    before_replies = grow(before_replies, &cap_before, bsp.p, sizeof *before_replies);
    for (uint32_t src = 0; src < bsp.p; src++) {
        uint64_t left = dev->incoming(src);
        before_replies[src] = left;
        if (!left)
            continue;
        dev->scan_begin(src);
        while (left) {
            union { uint32_t word; struct rec_put put; struct rec_get get; struct rec_send send; struct rec_small small; } r;
            dev->scan_read(src, &r.word, sizeof r.word);
            size_t head = rec_head_size(r.word);
            if (!head)
                bsp_error("bsp_sync", "corrupt record kind %u from processor %u", REC_KIND(r.word), src);
            dev->scan_read(src, (char *)&r + sizeof r.word, head - sizeof r.word);
            uint64_t data = rec_data_size(&r);
            left -= head + data;
            if (REC_KIND(r.word) != REC_GET) {
                dev->scan_skip(src, data);
                continue;
            }
            struct reg *g = slot_local(src, r.get.slot, "a get");
            struct rec_reply reply = { REC_REPLY, 0, r.get.nbytes, r.get.dst };
            stream_write(src, &reply, sizeof reply);
            stream_write(src, (const char *)g->addr + r.get.offset, r.get.nbytes);
        }
    }
}

/* Group the hp transfers by (processor, direction), keeping the order in
 * which the program asked within each group: a later transfer to the same
 * place must win.  A counting sort: stable, unlike qsort. */
static bool group_hp(void)
{
    uint32_t keys = 2 * bsp.p, n = bsp.nhp;
    uint32_t *start = calloc(keys + 1, sizeof *start);
    struct hp_op *sorted = malloc(n * sizeof *sorted);
    if (!start || !sorted) {
        free(start);
        free(sorted);
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        start[2 * bsp.hp[i].pid + bsp.hp[i].write + 1]++;
    for (uint32_t k = 0; k < keys; k++)
        start[k + 1] += start[k];
    for (uint32_t i = 0; i < n; i++)
        sorted[start[2 * bsp.hp[i].pid + bsp.hp[i].write]++] = bsp.hp[i];
    memcpy(bsp.hp, sorted, n * sizeof *sorted);
    free(start);
    free(sorted);
    return true;
}

/* process_vm pieces of one peer and direction, collected in order, and the
 * span of the bytes they write (remote for puts, local for gets). */
struct batch {
    uint32_t pid;
    bool write;
    uint32_t n;
    struct iovec *local, *remote;
    uintptr_t lo, hi;
};

static void batch_add(struct batch *b, char *local, uint64_t remote, uint64_t n)
{
    if (!n)
        return;
    uintptr_t at = b->write ? (uintptr_t)remote : (uintptr_t)local;
    b->lo = !b->n || at < b->lo ? at : b->lo;
    b->hi = !b->n || at + n > b->hi ? at + n : b->hi;
    b->local[b->n] = (struct iovec){ local, (size_t)n };
    b->remote[b->n++] = (struct iovec){ (void *)(uintptr_t)remote, (size_t)n };
}

static void batch_flush(struct batch *b)
{
    if (!b->n)
        return;
    bool ok = b->write ? dev->direct_write(b->pid, b->local, b->remote, b->n)
                       : dev->direct_read(b->pid, b->local, b->remote, b->n);
    if (!ok) {
        launch_stop_if_peer_died(b->pid, errno); /* a peer killed meanwhile is reported by its signal */
        bsp_error(b->write ? "bsp_hpput" : "bsp_hpget", "direct transfer with processor %u failed", b->pid);
    }
    b->n = 0;
}

/* One transfer.  To myself: a copy.  To a peer: its moved pages by memcpy
 * through the segment, the pieces before and after them batched (one
 * process_vm call for both).  Pending pieces that write bytes the memcpy
 * writes go first, so that a later transfer to the same bytes still wins. */
static void hp_one(struct batch *b, const struct hp_op *op)
{
    char *local = op->local;
    if (op->pid == bsp.me) {
        char *at = (char *)(uintptr_t)op->remote;
        memmove(op->write ? at : local, op->write ? local : at, op->nbytes);
        return;
    }
    struct moved m = moved_part(op->pid, op->slot, op->remote, op->nbytes);
    if (!m.len) {
        batch_add(b, local, op->remote, op->nbytes);
        return;
    }
    uintptr_t lo = op->write ? (uintptr_t)op->remote + m.skip : (uintptr_t)local + m.skip;
    if (b->n && lo < b->hi && b->lo < lo + m.len)
        batch_flush(b);
    if (op->write)
        memcpy(m.seg, local + m.skip, m.len);
    else
        memcpy(local + m.skip, m.seg, m.len);
    uint64_t tail = m.skip + m.len;
    batch_add(b, local, op->remote, m.skip);
    batch_add(b, local + tail, op->remote + tail, op->nbytes - tail);
}

/* Do the queued hp transfers, one batch of iovecs per peer and direction. */
void rma_do_direct(void)
{
    if (!bsp.nhp)
        return;
    bool grouped = group_hp();
    struct batch b = { 0, false, 0, malloc(2 * bsp.nhp * sizeof *b.local), malloc(2 * bsp.nhp * sizeof *b.remote), 0, 0 };
    if (!grouped || !b.local || !b.remote)
        bsp_error("bsp_sync", "out of memory");
    for (uint32_t i = 0; i < bsp.nhp; i++) {
        if (i == 0 || bsp.hp[i].pid != b.pid || bsp.hp[i].write != b.write) {
            batch_flush(&b);
            b.pid = bsp.hp[i].pid;
            b.write = bsp.hp[i].write;
        }
        hp_one(&b, &bsp.hp[i]);
    }
    batch_flush(&b);
    free(b.local);
    free(b.remote);
}
