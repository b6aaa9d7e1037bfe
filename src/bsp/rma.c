/*
 * rma.c - bsp_put, bsp_get, bsp_hpput, bsp_hpget.
 *
 * A put is copied into the stream towards its destination at the call
 * (buffered on source) and applied by the destination at the sync.  A get is
 * a request in the stream; the owner answers it after the first barrier of
 * the sync, before any put of the superstep is applied, and the requester
 * copies the answer after the second barrier.  hp transfers are queued and
 * done between those two barriers with process_vm_writev/readv, batched per
 * peer, when the device allows it; otherwise they are ordinary puts and gets.
 */
#include "bsp/bsp_impl.h"

#include "launch/launch.h"

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

/* Validate a transfer against the area registered on 'pid'. */
static struct target check_remote(const char *call, int64_t pid, const void *area, int64_t offset,
                                  int64_t nbytes, const void *local, const char *local_name)
{
    bsp_require_begun(call);
    struct target t;
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

static __attribute__((noinline)) void put_checked(int64_t pid, const void *src, const void *dst,
                                                  int64_t offset, int64_t nbytes, const char *call)
{
    struct target t = check_remote(call, pid, dst, offset, nbytes, src, "source");
    if (nbytes == 0)
        return;
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
    if (nbytes == 0)
        return;
    struct rec_get r = { REC_GET, t.slot, (uint64_t)offset, (uint64_t)nbytes, (uint64_t)(uintptr_t)dst };
    stream_write(t.pid, &r, sizeof r);
    bsp.slow = true;
}

static void queue_hp(uint32_t pid, bool write, void *local, uint64_t remote, uint64_t nbytes)
{
    uint64_t cap = bsp.caphp;
    bsp.hp = grow(bsp.hp, &cap, bsp.nhp + 1, sizeof *bsp.hp);
    bsp.caphp = (uint32_t)cap;
    bsp.hp[bsp.nhp++] = (struct hp_op){ pid, write, local, remote, nbytes };
    bsp.slow = true;
}

void bsp_impl_hpput(int64_t pid, const void *src, const void *dst, int64_t offset, int64_t nbytes)
{
    if (!dev->direct) {
        bsp_impl_put(pid, src, dst, offset, nbytes, "bsp_hpput");
        return;
    }
    struct target t = check_remote("bsp_hpput", pid, dst, offset, nbytes, src, "source");
    if (nbytes)
        queue_hp(t.pid, true, (void *)src, reg_remote_addr(t.pid, t.slot) + (uint64_t)offset, (uint64_t)nbytes);
}

void bsp_impl_hpget(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes)
{
    if (!dev->direct) {
        bsp_impl_get(pid, src, offset, dst, nbytes, "bsp_hpget");
        return;
    }
    struct target t = check_remote("bsp_hpget", pid, src, offset, nbytes, dst, "destination");
    if (nbytes)
        queue_hp(t.pid, false, dst, reg_remote_addr(t.pid, t.slot) + (uint64_t)offset, (uint64_t)nbytes);
}

/* MulticoreBSP's bsp_direct_get: read the remote memory now, during the
 * superstep (what the owner has written so far this superstep may or may not
 * be seen; the caller orders it with syncs).  Only where processors can
 * reach each other's memory (shm with process_vm_readv). */
void bsp_impl_direct_get(int64_t pid, const void *src, int64_t offset, void *dst, int64_t nbytes)
{
    struct target t = check_remote("bsp_direct_get", pid, src, offset, nbytes, dst, "destination");
    if (!dev->direct)
        bsp_error("bsp_direct_get", "device %s cannot read processor %u's memory directly "
                  "(shm device with process_vm_readv only; use bsp_get)", dev->name, t.pid);
    if (!nbytes)
        return;
    struct iovec local = { dst, (size_t)nbytes };
    struct iovec remote = { (void *)(uintptr_t)(reg_remote_addr(t.pid, t.slot) + (uint64_t)offset), (size_t)nbytes };
    if (!dev->direct_read(t.pid, &local, &remote, 1))
        bsp_error("bsp_direct_get", "direct read from processor %u failed", t.pid);
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

/* Do the queued hp transfers, one batch of iovecs per peer and direction. */
void rma_do_direct(void)
{
    if (!bsp.nhp)
        return;
    bool grouped = group_hp();
    struct iovec *local = malloc(bsp.nhp * sizeof *local), *remote = malloc(bsp.nhp * sizeof *remote);
    if (!grouped || !local || !remote)
        bsp_error("bsp_sync", "out of memory");
    for (uint32_t i = 0; i < bsp.nhp;) {
        uint32_t j = i;
        for (; j < bsp.nhp && bsp.hp[j].pid == bsp.hp[i].pid && bsp.hp[j].write == bsp.hp[i].write; j++) {
            local[j - i] = (struct iovec){ bsp.hp[j].local, bsp.hp[j].nbytes };
            remote[j - i] = (struct iovec){ (void *)(uintptr_t)bsp.hp[j].remote, bsp.hp[j].nbytes };
        }
        bool ok = bsp.hp[i].write ? dev->direct_write(bsp.hp[i].pid, local, remote, j - i)
                                  : dev->direct_read(bsp.hp[i].pid, local, remote, j - i);
        if (!ok)
            launch_stop_if_failing(1000000000); /* a peer killed meanwhile is reported by its signal */
        if (!ok)
            bsp_error(bsp.hp[i].write ? "bsp_hpput" : "bsp_hpget",
                      "direct transfer with processor %u failed", bsp.hp[i].pid);
        i = j;
    }
    free(local);
    free(remote);
}
