/*
 * kernel.c - an Epiphany BSP kernel's part of the run: starting and ending,
 * time, ebsp_barrier and ebsp_host_sync, messages to and from the host,
 * direct addresses and immediate hp transfers (ebsp_message: message.c).
 *
 * The kernel joins the job the host's ebsp_spmd made (the BSP layer's
 * bsp_begin attaches to it) and maps the host's session segment.
 */
#include <e_bsp.h>
/* Below, the BSPlib names mean BSPlib's functions. */
#undef bsp_begin
#undef bsp_end
#undef bsp_nprocs
#undef bsp_pid
#undef bsp_time
#undef bsp_sync
#undef bsp_send
#undef bsp_hpput
#undef bsp_hpget
#undef bsp_push_reg
#undef bsp_put
#undef bsp_get
#undef bsp_abort

#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "ebsp/ebsp.h"
#include "ebsp/ebsp_mpi.h"
#include "settings/settings.h"
#include "launch/launch.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- starting and ending ---------------------------------------------------- */

static void deliver_down(void)
{
    const char *p = ek.seg.base + ek.mine->down_off;
    const char *end = p + ek.mine->down_len;
    for (uint64_t i = 0; i < ek.mine->down_count; i++) {
        struct ebsp_rec r;
        if (p + sizeof r > end)
            bsp_error("bsp_begin", "the host's messages are corrupt");
        memcpy(&r, p, sizeof r);
        if (ebsp_rec_size(r.tagsize, r.nbytes) > (uint64_t)(end - p))
            bsp_error("bsp_begin", "the host's messages are corrupt");
        struct rec_send rs = { REC_SEND, r.tagsize, r.nbytes };
        bsmp_deliver_here(&rs, p + sizeof r); /* tag and payload follow the record */
        p += ebsp_rec_size(r.tagsize, r.nbytes);
    }
}

void ebsp_core_begin(void)
{
    bsp_require_not_forked("bsp_begin");
    if (ek.begun)
        bsp_error("bsp_begin", "called twice");
    const char *efd = getenv(EBSP_ENV_FD);
    int64_t p = 1; /* on shm the kernel joins the host's job, and the count comes from it */
    ek.mpi = !efd && kmpi_spawned();
    if (ek.mpi) {
        p = kmpi_begin(); /* the host's session segment, copied */
    } else if (!efd || !getenv(ENV_SEGMENT_FD)) {
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: this kernel was not started by a host program "
                    "(run the host program, whose ebsp_spmd starts the kernel)");
    } else {
        int rc = seg_attach(&ek.seg, atoi(efd));
        if (rc)
            launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: cannot map the host's session segment (fd %s): %s", efd,
                        strerror(-rc));
        unsetenv(EBSP_ENV_FD);
        ek.sh = ebsp_shared_of(&ek.seg);
        if (ek.sh->magic != EBSP_MAGIC)
            launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: fd %s is not a host session segment", efd);
    }
    ek.strict = setting_num(SET_STRICT) == 1;
    reg_match_by_order = !ek.strict;
    bsp_impl_begin(p);
    if (ek.sh->nprocs != bsp.p)
        bsp_error("bsp_begin", "the host's session has %u processors, the job %u", ek.sh->nprocs, bsp.p);
    ek.mine = &ek.sh->proc[bsp.me];
    /* Kernels reach each other's memory directly, also on mpi: each tells
     * the superstep it has applied beside it (a run before left a count). */
    atomic_store(&ek.mine->applied.value, 0);
    bsp.applied_at = (char *)&ek.sh->proc[0].applied;
    bsp.applied_stride = sizeof ek.sh->proc[0];
    ek.direct_taken = false;
    ebsp_map_low();
    atomic_store(&ek.mine->base, (uint64_t)(uintptr_t)ek.low);
    arena_reset(&ek.local, ek.low + ek.mine->local_off, ek.sh->local_size);
    arena_reset(&ek.ext, ek.low + ek.mine->ext_off, ek.sh->ext_size);
    bsmp_set_initial_tagsize(ek.sh->tagsize);
    deliver_down();
    ek.sent_up = false;
    ek.t0_ns = ek.raw_last_ns = now_ns();
    ek.begun = true;
    ebsp_messages_begin();
    elib_begin();
}

void ebsp_core_end(void)
{
    ebsp_require_begun("bsp_end");
    dma_drain();
    ebsp_streams_end();
    atomic_store(&ek.sh->up_tagsize, (uint32_t)bsp.tagsize);
    atomic_fetch_add(&ek.sh->ended, 1);
    ebsp_ring_doorbell(ek.sh);
    if (ek.mpi) /* what this processor owns in the session segment, to the host */
        kmpi_end();
    bsp_end(); /* in a kernel process this ends the process */
    ek.begun = false;
}

int ebsp_core_nprocs(void)
{
    return ek.begun ? (int)bsp.p : (int)bsp_impl_nprocs();
}

int ebsp_core_pid(void)
{
    return (int)bsp_impl_pid();
}

/* ---- time ----------------------------------------------------------------------- */

float ebsp_core_time(void)
{
    ebsp_require_begun("bsp_time");
    return (float)((double)(now_ns() - ek.t0_ns) * 1e-9);
}

float ebsp_host_time(void)
{
    ebsp_require_begun("ebsp_host_time");
    return (float)((double)(now_ns() - ek.t0_ns) * 1e-9);
}

unsigned int ebsp_raw_time(void)
{
    ebsp_require_begun("ebsp_raw_time");
    int64_t t = now_ns();
    uint64_t cycles = (uint64_t)(t - ek.raw_last_ns) * 3 / 5; /* a 600 MHz clock */
    ek.raw_last_ns = t;
    return (unsigned int)cycles;
}

/* ---- synchronisation --------------------------------------------------------- */

static void run_deferred(void);
static uint32_t ndeferred;

/* Before this kernel reads or writes memory of processor pid outside a
 * sync: pid has applied the last sync (rma_wait_applied), where kernels
 * share memory (kernels on several machines reach none directly). */
static void wait_applied(uint32_t pid)
{
    if (pid != bsp.me && (!ek.mpi || ek.mpi_shared))
        rma_wait_applied(pid);
}

/* After a sync: a kernel that holds direct addresses of others may read
 * them at once, so it waits until every other kernel has applied it. */
static void synced(void)
{
    if (ek.direct_taken)
        for (uint32_t q = 0; q < bsp.p; q++)
            wait_applied(q);
    ek.hp_buffered = false; /* landed */
    if (ndeferred)
        run_deferred();
}

void ebsp_core_sync(void)
{
    if (ek.sent_up)
        bsp_error("bsp_sync", "called after ebsp_send_up (ebsp_send_up belongs after the last bsp_sync)");
    bsp_sync();
    synced();
}

void ebsp_barrier(void)
{
    ebsp_require_begun("ebsp_barrier");
    if (ek.mpi) {
        /* A barrier as on shm (the superstep, its puts and messages stay)
         * where every hp transfer went straight to memory (kernels sharing
         * the session segment).  When some kernel has one buffered (a
         * variable outside local memory, kernels on several machines), it
         * lands at a superstep: every kernel then makes the barrier one
         * (docs/mpi.md). */
        uint32_t other;
        uint64_t theirs;
        bsp_set_call(CALL_BARRIER);
        uint64_t flags = EBSP_BARRIER_FLAGS | (ek.hp_buffered || ndeferred ? XFLAG(XF_SLOW) : 0);
        uint64_t sum = dev->meet(flags, &other, &theirs);
        if (XGET(sum, XF_END) != bsp.p || XGET(sum, XF_REGS) != bsp.p)
            bsp_collective_mismatch(); /* others in bsp_sync or bsp_end */
        bsp_set_call(CALL_NONE);
        if (XGET(sum, XF_SLOW)) {
            bsp_sync();
            synced();
        }
        return;
    }
    bool ok;
    bsp_set_call(CALL_BARRIER);
    uint64_t sum = barrier_wait(&job.ls->barrier, bsp.p, EBSP_BARRIER_FLAGS, &ok, dev->late);
    if (!ok)
        launch_stopped();
    if (XGET(sum, XF_END) != bsp.p || XGET(sum, XF_REGS) != bsp.p)
        bsp_collective_mismatch(); /* others in bsp_sync or bsp_end: puts would be lost */
    bsp_set_call(CALL_NONE);
}

void ebsp_host_sync(void)
{
    ebsp_require_begun("ebsp_host_sync");
    if (ek.mpi) {
        kmpi_host_sync();
        return;
    }
    uint32_t gen = atomic_load(&ek.sh->hsync_gen);
    bsp_set_call(CALL_HOST_SYNC);
    atomic_store(&ek.mine->in_hsync, 1);
    atomic_fetch_add(&ek.sh->hsync_arrived, 1);
    ebsp_ring_doorbell(ek.sh);
    if (!wait_word(&job.ls->barrier, &ek.sh->hsync_gen, gen, -1))
        launch_stopped();
    bsp_set_call(CALL_NONE);
}

/* ---- messages --------------------------------------------------------------- */

int ebsp_core_get_tagsize(void)
{
    ebsp_require_begun("ebsp_get_tagsize");
    return (int)bsp.tagsize;
}

void ebsp_core_send(int pid, const void *tag, const void *payload, int nbytes)
{
    if (ek.sent_up)
        bsp_error("bsp_send", "called after ebsp_send_up (ebsp_send_up belongs after the last bsp_sync)");
    bsp_send(pid, tag, payload, nbytes);
}

void ebsp_send_up(const void *tag, const void *payload, int nbytes)
{
    ebsp_require_begun("ebsp_send_up");
    uint64_t ts = bsp.tagsize;
    if (nbytes < 0)
        bsp_error("ebsp_send_up", "negative nbytes %d", nbytes);
    if (!payload && nbytes > 0)
        bsp_error("ebsp_send_up", "NULL payload with nbytes %d", nbytes);
    if (!tag && ts > 0)
        bsp_error("ebsp_send_up", "NULL tag with tag size %llu", (unsigned long long)ts);
    struct ebsp_proc *me = ek.mine;
    uint64_t need = ebsp_rec_size(ts, (uint64_t)nbytes);
    if (me->up_len + need > me->up_cap) {
        uint64_t cap = me->up_cap ? 2 * me->up_cap : 64 << 10;
        while (cap < me->up_len + need)
            cap *= 2;
        uint64_t off = seg_alloc(&ek.seg, cap, EBSP_ALIGN);
        if (!off)
            bsp_error("ebsp_send_up", "the session segment is exhausted (%llu bytes of messages)",
                      (unsigned long long)(me->up_len + need));
        if (me->up_len)
            memcpy(ek.seg.base + off, ek.seg.base + me->up_off, me->up_len);
        me->up_off = off;
        me->up_cap = cap;
    }
    char *p = ek.seg.base + me->up_off + me->up_len;
    struct ebsp_rec r = { (uint32_t)ts, 0, (uint64_t)nbytes };
    memcpy(p, &r, sizeof r);
    if (ts)
        memcpy(p + sizeof r, tag, ts);
    if (nbytes)
        memcpy(p + sizeof r + ts, payload, (size_t)nbytes);
    me->up_len += need;
    me->up_count++;
    ek.sent_up = true;
    atomic_store(&ek.sh->up_tagsize, (uint32_t)ts);
}

/* ---- direct access ----------------------------------------------------------- */

/* Where, in this process, the registration 'slot' of processor pid lies,
 * when it is in the session segment; NULL otherwise. */
static char *direct_of(uint32_t pid, uint32_t slot)
{
    uint64_t addr = reg_remote_addr(pid, slot), size = reg_remote_size(pid, slot);
    uint64_t base = atomic_load(&ek.sh->proc[pid].base);
    if (!base || addr < base)
        return NULL;
    uint64_t off = addr - base;
    if (off >= ek.low_size || (size != REG_UNBOUNDED && size > ek.low_size - off))
        return NULL;
    return ek.low + off;
}

static uint32_t check_pid(const char *call, int pid)
{
    if (pid < 0 || pid >= (int)bsp.p)
        bsp_error(call, "pid %d out of range (nprocs %u)", pid, bsp.p);
    return (uint32_t)pid;
}

void *ebsp_get_direct_address(int pid, const void *variable)
{
    ebsp_require_begun("ebsp_get_direct_address");
    uint32_t p = check_pid("ebsp_get_direct_address", pid);
    if (!variable)
        bsp_error("ebsp_get_direct_address", "NULL variable");
    int64_t slot = reg_slot_of(variable);
    if (slot < 0)
        return NULL;
    if (ek.mpi && !ek.mpi_shared && p != bsp.me)
        bsp_error("ebsp_get_direct_address", "the memory of processor %u is not shared with this kernel: on the mpi device kernels "
                  "share memory only when all run on one machine", p);
    char *d = direct_of(p, (uint32_t)slot);
    if (d && p != bsp.me) {
        wait_applied(p);
        ek.direct_taken = true;
    }
    return d;
}

/* ---- registrations, puts and gets as Epiphany BSP has them ------------------- */

/* An hp transfer naming a variable pushed in this superstep: on the board
 * a registration takes effect at once; here it does at the next bsp_sync,
 * so the transfer is carried out right after it (the source of an hpput is
 * copied now). */
struct deferred_hp {
    bool put;
    int pid, offset, nbytes;
    const void *area;   /* the registered variable */
    void *local;        /* hpget: where to; hpput: a copy of the source */
};
static struct deferred_hp *deferred;

static bool pushed_now(const void *addr)
{
    for (uint32_t i = 0; i < bsp.npush; i++)
        if (bsp.push[i].addr == addr)
            return true;
    return false;
}

static void defer_hp(bool put, int pid, const void *area, int offset, void *local, int nbytes)
{
    struct deferred_hp *d = realloc(deferred, (ndeferred + 1) * sizeof *deferred);
    if (!d)
        bsp_error(put ? "bsp_hpput" : "bsp_hpget", "out of memory");
    deferred = d;
    void *copy = local;
    if (put && nbytes > 0) {
        if (!(copy = malloc((size_t)nbytes)))
            bsp_error("bsp_hpput", "out of memory");
        memcpy(copy, local, (size_t)nbytes);
    }
    deferred[ndeferred++] = (struct deferred_hp){ put, pid, offset, nbytes, area, copy };
}

static void run_deferred(void)
{
    uint32_t n = ndeferred;
    struct deferred_hp *d = deferred;
    deferred = NULL;
    ndeferred = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (d[i].put) {
            ebsp_core_hpput(d[i].pid, d[i].local, (void *)d[i].area, d[i].offset, d[i].nbytes);
            free(d[i].local);
        } else {
            ebsp_core_hpget(d[i].pid, d[i].area, d[i].offset, d[i].local, d[i].nbytes);
        }
    }
    free(d);
}

/* Whether addr is registered; if not, upstream's error (no effect). */
static bool registered(const char *call, const void *addr)
{
    if (!addr || reg_slot_of(addr) >= 0)
        return true;
    char up[64];
    snprintf(up, sizeof up, "could not find bsp var %p", addr);
    ebsp_soft_error(call, up, "address %p is not registered", addr);
    return false;
}

void ebsp_core_push_reg(const void *variable, int nbytes)
{
    if (ek.strict) {
        bsp_push_reg(variable, nbytes);
        return;
    }
    bsp_impl_push_reg(variable, REG_UNBOUNDED); /* upstream ignores nbytes */
}

void ebsp_core_put(int pid, const void *src, void *dst, int offset, int nbytes)
{
    if (registered("bsp_put", dst))
        bsp_put(pid, src, dst, offset, nbytes);
}

void ebsp_core_get(int pid, const void *src, int offset, void *dst, int nbytes)
{
    if (registered("bsp_get", src))
        bsp_get(pid, src, offset, dst, nbytes);
}

/* Check an hp transfer as BSPlib does; returns the registration's slot,
 * UINT32_MAX when the variable is not registered (reported). */
static uint32_t check_hp(const char *call, int pid, const void *area, int offset, int nbytes,
                         const void *local, const char *local_name)
{
    ebsp_require_begun(call);
    uint32_t p = check_pid(call, pid);
    if (offset < 0)
        bsp_error(call, "negative offset %d", offset);
    if (nbytes < 0)
        bsp_error(call, "negative nbytes %d", nbytes);
    if (!local && nbytes > 0)
        bsp_error(call, "NULL %s with nbytes %d", local_name, nbytes);
    if (!area)
        bsp_error(call, "NULL registered address");
    if (!ek.strict && reg_slot_of(area) < 0 && pushed_now(area)) {
        defer_hp(!strcmp(call, "bsp_hpput"), pid, area, offset, (void *)local, nbytes);
        return UINT32_MAX;
    }
    if (!registered(call, area))
        return UINT32_MAX;
    uint32_t slot = bsp.regs[reg_lookup(call, area)].slot;
    uint64_t size = reg_remote_size(p, slot);
    if ((uint64_t)offset + (uint64_t)nbytes > size)
        bsp_error(call, "offset %d + nbytes %d exceeds the %llu bytes registered on processor %u", offset, nbytes,
                  (unsigned long long)size, p);
    return slot;
}

void ebsp_core_hpput(int pid, const void *src, void *dst, int offset, int nbytes)
{
    uint32_t slot = check_hp("bsp_hpput", pid, dst, offset, nbytes, src, "source");
    if (!nbytes || slot == UINT32_MAX)
        return;
    wait_applied((uint32_t)pid);
    char *d = direct_of((uint32_t)pid, slot);
    if (!d && (uint32_t)pid == bsp.me)
        d = (char *)(uintptr_t)reg_remote_addr((uint32_t)pid, slot);
    if (d) {
        memmove(d + offset, src, (size_t)nbytes);
        return;
    }
    if (!dev->direct) {
        bsp_hpput(pid, src, dst, offset, nbytes); /* buffered to the next sync */
        ek.hp_buffered = true;
        return;
    }
    struct iovec local = { (void *)src, (size_t)nbytes };
    struct iovec remote = { (char *)(uintptr_t)reg_remote_addr((uint32_t)pid, slot) + offset, (size_t)nbytes };
    if (!dev->direct_write((uint32_t)pid, &local, &remote, 1))
        bsp_error("bsp_hpput", "direct transfer to processor %d failed", pid);
}

void ebsp_core_hpget(int pid, const void *src, int offset, void *dst, int nbytes)
{
    uint32_t slot = check_hp("bsp_hpget", pid, src, offset, nbytes, dst, "destination");
    if (!nbytes || slot == UINT32_MAX)
        return;
    wait_applied((uint32_t)pid);
    char *s = direct_of((uint32_t)pid, slot);
    if (!s && (uint32_t)pid == bsp.me)
        s = (char *)(uintptr_t)reg_remote_addr((uint32_t)pid, slot);
    if (s) {
        memmove(dst, s + offset, (size_t)nbytes);
        return;
    }
    if (!dev->direct) {
        bsp_hpget(pid, src, offset, dst, nbytes);
        ek.hp_buffered = true;
        return;
    }
    struct iovec local = { dst, (size_t)nbytes };
    struct iovec remote = { (char *)(uintptr_t)reg_remote_addr((uint32_t)pid, slot) + offset, (size_t)nbytes };
    if (!dev->direct_read((uint32_t)pid, &local, &remote, 1))
        bsp_error("bsp_hpget", "direct transfer from processor %d failed", pid);
}
