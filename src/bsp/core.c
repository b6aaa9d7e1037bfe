/*
 * core.c - starting and ending the BSP program, errors, the superstep.
 */
#include "bsp/bsp_impl.h"
#include "settings/settings.h"

#include "launch/launch.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct bsp_state bsp;
#define MAX_PROCS 65535 /* the barrier counts arrivals in 16 bits */
const struct bsp_observer *bsp_observer;
bool bsp_observing;


static double now(void)
{
    return 1e-9 * (double)now_ns();
}

void bsp_error(const char *call, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (!bsp.begun)
        launch_fail(LAUNCH_EXIT_ERROR, "%s: %s", call, what);
    launch_fail(LAUNCH_EXIT_ERROR, "%s: processor %u, superstep %llu: %s", call, bsp.me,
                (unsigned long long)bsp.step, what);
}

sizestr size_str(int64_t v)
{
    sizestr r;
    if (bsp.mc)
        snprintf(r.s, sizeof r.s, "%llu", (unsigned long long)v);
    else
        snprintf(r.s, sizeof r.s, "%lld", (long long)v);
    return r;
}


/* check_size's error (the check is inline in bsp_impl.h: v < 0 or above 2^40). */
void bad_size(const char *call, const char *what, int64_t v)
{
    if (v < 0 && !bsp.mc)
        bsp_error(call, "negative %s %lld", what, (long long)v);
    bsp_error(call, "absurd %s %s (more than 2^40)", what, size_str(v).s);
}

/* A process the program forked from a processor is none (issue 18, defect
 * 2; issue 36): launch_forked_copy tells it, so every call there stops with
 * one line, which fails the job as every error line does.  The fast paths
 * pay a load and a compare (bsp_require_begun). */
void bsp_require_not_forked(const char *call)
{
    if (bsp.begun && launch_forked_copy())
        bsp_not_begun(call);
}

void bsp_not_begun(const char *call)
{
    if (bsp.begun && launch_forked_copy())
        bsp_error(call, "called in a child process (pid %d) of processor %u, not the processor", (int)getpid(),
                  bsp.me);
    bsp_error(call, "called outside bsp_begin ... bsp_end");
}

void *grow(void *p, uint64_t *cap, uint64_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    uint64_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (!q)
        bsp_error("malloc", "out of memory growing a table to %llu bytes", (unsigned long long)(c * elem));
    *cap = c;
    return q;
}

static int64_t env_nprocs(void)
{
    settings_check();
    uint32_t world, me;
    if (affinity_max_threads())
        return affinity_max_threads();
    if (device_choose()->world && dev->world(&world, &me)) /* mpirun -n P */
        return world;
    const struct machine_info *mi = machine_info(); /* MulticoreBSP's file, below bsprun -n */
    if (!setting_given(SET_NPROCS) && mi->threads_set && mi->threads > 0 && mi->threads <= MAX_PROCS)
        return (int64_t)mi->threads;
    return (int64_t)setting_num(SET_NPROCS);
}

void bsp_init(void (*spmd)(void), int argc, char **argv)
{
    (void)argc;
    (void)argv;
    bsp_require_not_forked("bsp_init");
    settings_check();
    bsp.spmd = spmd;
    if (bsp.begun) { /* in an SPMD section: announces a nested run (MulticoreBSP), only recorded */
        bsp.init_inside = true;
        return;
    }
    /* Where every processor runs the program from main (mpi), processors
     * other than 0 go straight into spmd, which bsp_end leaves, as the
     * BSPlib standard describes bsp_init. */
    uint32_t world, me;
    if (spmd && device_choose()->world && dev->world(&world, &me) && me != 0) {
        spmd();
        exit(0); /* spmd returned without bsp_end: reported at exit */
    }
}

/* The BSP layer's table in a fresh segment: one bsp_proc per processor. */
void bsp_segment_setup(struct segment *seg)
{
    size_t size = (size_t)seg->hdr->nprocs * sizeof(struct bsp_proc);
    uint64_t off = seg_alloc(seg, size, SEG_LINE);
    if (off)
        memset(seg_ptr(seg, off), 0, size);
    seg->hdr->root[ROOT_BSP] = off;
}


/* ---- nested runs (MulticoreBSP's hierarchical BSP) ------------------------
 * bsp_begin in an SPMD section starts an inner run: the caller becomes its
 * processor 0 and forks the others (always on the shm device: on mpi the
 * inner run stays on the rank's machine and its children never call MPI).
 * Everything of the outer run this process holds is set aside first and
 * given back after the inner bsp_end, untouched: the BSP state (its
 * registrations, queue, superstep), the device's state, the registration
 * replica, the launch layer's job (launch_nest_enter).  The registered areas
 * the outer run moved into its segment (mirror.c) stay as they are: the
 * inner run moves none, and its children get private copies at the fork. */
struct nest_saved {
    struct bsp_state bsp;
    struct device *dev;
    void *dev_state;
    struct reg_entry *replica;
    bool observing;
};
static struct nest_saved *nest_stack[8];

static void nest_set_aside(void)
{
    uint32_t d = launch_nest_depth();
    if (d + 1 >= sizeof nest_stack / sizeof *nest_stack) /* the launch layer's limit too */
        bsp_error("bsp_begin", "cannot start an inner run: nested too deep (%u runs inside one another)", d + 1);
    struct nest_saved *n = malloc(sizeof *n);
    if (!n)
        bsp_error("bsp_begin", "cannot start an inner run: out of memory");
    n->bsp = bsp;
    n->dev = dev;
    n->dev_state = dev->nest_save ? dev->nest_save() : NULL;
    if (dev->nest_save && !n->dev_state)
        bsp_error("bsp_begin", "cannot start an inner run: out of memory");
    n->replica = reg_nest_swap(NULL);
    n->observing = bsp_observing;
    int rc = launch_nest_enter();
    if (rc)
        bsp_error("bsp_begin", "cannot start an inner run: %s", rc == -EMLINK ? "nested too deep" : strerror(-rc));
    nest_stack[d] = n;
    bsp_observing = false; /* the profiler follows the outermost run */
    memset(&bsp, 0, sizeof bsp);
    bsp.mc = n->bsp.mc;
    dev = &device_shm;
}

static void nest_give_back(void)
{
    launch_nest_leave();
    struct nest_saved *n = nest_stack[launch_nest_depth()];
    nest_stack[launch_nest_depth()] = NULL;
    dev = n->dev;
    if (dev->nest_restore)
        dev->nest_restore(n->dev_state);
    reg_nest_swap(n->replica);
    bsp_observing = n->observing;
    bsp = n->bsp;
    free(n);
    if (!strcmp(dev->name, "shm")) /* as the outer bsp_begin pinned it */
        affinity_pin(bsp.me, bsp.p);
}

/* What every run, outer or inner, starts with once its device has begun:
 * the clock, the BSP root of the segment, empty registrations and queues. */
static void run_state_begin(void)
{
    bsp.t0 = now();
    if (!job.seg.hdr->root[ROOT_BSP])
        bsp_error("bsp_begin", "shared segment too small for %u processors (set SUPERSTEP_SEGMENT_SIZE larger)", bsp.p);
    bsp.shared = seg_ptr(&job.seg, job.seg.hdr->root[ROOT_BSP]);
    bsp.applied_at = (char *)&bsp.shared[0].applied;
    bsp.applied_stride = sizeof *bsp.shared;
    if (dev->applied) { /* peers read it through the device: only mine is used */
        bsp.applied_at = (char *)dev->applied;
        bsp.applied_stride = 0;
    }
    reg_reset();
    bsmp_reset();
    checkpoint_arm();
}

/* MulticoreBSP's rule for a run that bsp_init(spmd) announced: processor
 * 0 goes on after its own bsp_begin, the others run spmd from its first
 * line and end with it.  A processor forked here is a copy of processor 0
 * inside bsp_begin, so it calls spmd afresh; spmd's bsp_begin joins the
 * run it is already in. */
static void start_spmd(void (*spmd)(void))
{
    if (!spmd || bsp.me == 0)
        return;
    bsp.joining = true;
    spmd();
    exit(0); /* spmd returned without bsp_end: reported as a processor's exit */
}

static void nested_begin(int64_t p, void (*spmd)(void))
{
    if (p <= 0 || p > MAX_PROCS)
        bsp_error("bsp_begin", "%lld processors requested for an inner run (must be 1..%d)", (long long)p, MAX_PROCS);
    uint32_t outer_me = bsp.me;
    uint64_t outer_step = bsp.step;
    nest_set_aside();
    /* Before the device begins: it counts the CPUs the inner run may use
     * (its wait policy), and the inner processors it forks inherit them. */
    affinity_unpin();
    bsp_stall_arm();
    uint32_t me;
    int rc = dev->begin((uint32_t)p, &me, bsp_segment_setup);
    if (rc) {
        char why[512];
        settings_limit_text(-rc, (uint32_t)p, seg_size_from_env(), why, sizeof why);
        if (job.seg.base)
            seg_detach(&job.seg);
        nest_give_back();
        bsp_error("bsp_begin", "cannot start an inner run of %lld processors (processor %u, superstep %llu): %s",
                  (long long)p, outer_me, (unsigned long long)outer_step, why);
    }
    bsp.p = job.nprocs;
    bsp.me = me;
    bsp.begun = true;
    launch_mark_self();
    run_state_begin();
    start_spmd(spmd);
}

void bsp_impl_begin(int64_t p)
{
    bsp_require_not_forked("bsp_begin");
    /* Each bsp_init announces one run (as MulticoreBSP's): the next.  The
     * mpi device's agree sends it to the other ranks: forgotten after. */
    void (*spmd)(void) = bsp.spmd;
    if (bsp.begun && bsp.joining) { /* spmd's own bsp_begin (start_spmd): p is processor 0's */
        bsp.joining = false;
        bsp.spmd = NULL;
        return;
    }
    if (bsp.begun) {
        bsp.spmd = NULL;
        /* The 1998 standard allows one bsp_begin (BSPonMPI's begin_1);
         * MulticoreBSP's hierarchical runs call bsp_init first. */
        if (!bsp.init_inside)
            bsp_error("bsp_begin", "called twice (an inner run, MulticoreBSP's nested BSP, calls bsp_init first in "
                                   "the SPMD section)");
        bsp.init_inside = false;
        nested_begin(p, spmd);
        return;
    }
    if (device_choose()->agree) /* mpi: processor 0 decides p, as on shm */
        p = dev->agree(p);
    bsp.spmd = NULL;
    if (p <= 0 || p > MAX_PROCS)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: %lld processors requested (must be 1..%d)",
                    (long long)p, MAX_PROCS);
    uint32_t me;
    settings_check();
    device_choose();
    if (bsp_observer)
        bsp_observer->init(p);
    bsp_stall_arm(); /* before begin: the mpi device tells the ranks whether it watches */
    int rc = dev->begin((uint32_t)p, &me, bsp_segment_setup);
    if (rc) {
        char why[512];
        settings_limit_text(-rc, (uint32_t)p, seg_size_from_env(), why, sizeof why);
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: cannot start %lld processors on device %s: %s",
                    (long long)p, dev->name, why);
    }
    launch_buffer_lines();
    bsp.p = job.nprocs;
    bsp.me = me;
    bsp.step = 0;
    bsp.slow = false; /* nothing queued by an earlier run may leak into this one */
    bsp.nhp = 0;
    bsp.begun = true;
    launch_mark_self();
    if (!strcmp(dev->name, "shm")) /* under mpi, mpirun places the processes */
        affinity_pin(me, bsp.p);
    run_state_begin();
    mirror_begin(); /* not for inner runs: they keep the outer run's moves */
    OBSERVE(start(bsp.me, bsp.p));
    if (!dev->world) /* mpi: the ranks entered spmd from bsp_init */
        start_spmd(spmd);
}

int64_t bsp_impl_nprocs(void)
{
    bsp_require_not_forked("bsp_nprocs");
    return bsp.begun ? (int64_t)bsp.p : env_nprocs();
}

int64_t bsp_impl_pid(void)
{
    bsp_require_begun("bsp_pid");
    return bsp.me;
}

double bsp_time(void)
{
    bsp_require_begun("bsp_time");
    return now() - bsp.t0;
}

void bsp_set_call(uint32_t call)
{
    atomic_store_explicit(&job.ls->proc[bsp.me].call, call, memory_order_relaxed);
    if (job.node_mirror)
        atomic_store_explicit(&job.node_mirror->call, call, memory_order_relaxed);
}

const char *const bsp_call_names[CALL_COUNT] = { "no collective call", "bsp_sync", "bsp_end", "ebsp_barrier",
                                                 "ebsp_host_sync" };

const char *bsp_call_name(uint32_t call)
{
    return call < CALL_COUNT ? bsp_call_names[call] : "an unknown call";
}

static uint32_t lowest_in(uint32_t call)
{
    uint32_t q = 0;
    while (q < bsp.p && atomic_load(&job.ls->proc[q].call) != call)
        q++;
    return q;
}

/* Processors met at the barrier from different collective calls (bsp_sync,
 * bsp_end, ebsp_barrier).  The lowest processor in bsp_end reports it, or
 * when none is, the lowest in ebsp_barrier; it names the lowest processor
 * in another call.  The others wait for that report. */
void bsp_collective_mismatch(void)
{
    if (dev->share) /* no shared segment: learn who is where */
        dev->share(job.ls->proc, sizeof *job.ls->proc);
    uint32_t kind = CALL_END, reporter = lowest_in(CALL_END);
    if (reporter == bsp.p) {
        kind = CALL_BARRIER;
        reporter = lowest_in(CALL_BARRIER);
    }
    if (reporter == bsp.p) /* cannot happen: every barrier caller set its call */
        bsp_error("bsp_sync", "processors met at the barrier from different calls");
    uint32_t other = 0;
    while (other < bsp.p && atomic_load(&job.ls->proc[other].call) == kind)
        other++;
    if (bsp.me != reporter)
        launch_await_failure();
    bsp_error(bsp_call_name(kind), "called %s while processor %u called %s", bsp_call_name(kind), other,
              bsp_call_name(other < bsp.p ? atomic_load(&job.ls->proc[other].call) : CALL_NONE));
}

/* Apply the whole small puts at the start of p[0..len) (most puts come in
 * runs of them): the slot's address is looked up again only when the slot
 * changes.  Returns the bytes used. */
static size_t apply_smalls(uint32_t src, const char *p, size_t len)
{
    size_t used = 0;
    uint32_t slot = UINT32_MAX;
    char *base = NULL;
    while (len - used >= sizeof(struct rec_small)) {
        const char *at = p + used;
        struct rec_small r;
        memcpy(&r, at, sizeof r);
        size_t n = (r.word >> 8) & 0xff;
        if (REC_KIND(r.word) != REC_SMALL || len - used < sizeof r + n)
            break;
        if (r.word >> 16 != slot) {
            slot = r.word >> 16;
            base = rma_slot_addr(src, slot);
        }
        copy_small(base + r.offset, at + sizeof r, n);
        used += sizeof r + n;
    }
    return used;
}

/* Apply the records of one contiguous span; returns the bytes used, which
 * stop short of a record that continues beyond the span. */
static size_t apply_span(uint32_t src, const char *p, size_t len)
{
    size_t used = 0;
    while (len - used >= sizeof(uint32_t)) {
        const char *at = p + used;
        uint32_t word;
        memcpy(&word, at, sizeof word);
        uint32_t kind = REC_KIND(word);
        if (kind == REC_SMALL) {
            size_t n = apply_smalls(src, at, len - used);
            if (!n)
                break;
            used += n;
        } else if (kind == REC_PUT) {
            struct rec_put r;
            if (len - used < sizeof r)
                break;
            memcpy(&r, at, sizeof r);
            if (len - used - sizeof r < r.nbytes)
                break;
            rma_put_here(src, &r, at + sizeof r);
            used += sizeof r + r.nbytes;
        } else if (kind == REC_MSG) {
            size_t n = bsmp_take_run(at, len - used);
            if (!n)
                break;
            used += n;
        } else if (kind == REC_SEND) {
            struct rec_send r;
            if (len - used < sizeof r)
                break;
            memcpy(&r, at, sizeof r);
            if (len - used - sizeof r < r.tagsize + r.nbytes)
                break;
            bsmp_deliver_here(&r, at + sizeof r);
            used += sizeof r + r.tagsize + r.nbytes;
        } else if (kind == REC_GET) {
            if (len - used < sizeof(struct rec_get))
                break;
            used += sizeof(struct rec_get); /* answered before the puts */
        } else {
            break; /* a reply, or a record across the span: the general path */
        }
    }
    return used;
}

/* The general path: one record, read piece by piece across ring ends. */
static void apply_one(uint32_t src)
{
    union { uint32_t kind; struct rec_put put; struct rec_get get; struct rec_reply reply; struct rec_send send; struct rec_small small; } r;
    stream_read(src, &r.kind, sizeof r.kind);
    char *rest = (char *)&r + sizeof r.kind;
    switch (REC_KIND(r.kind)) {
    case REC_SMALL: {
        stream_read(src, rest, sizeof r.small - sizeof r.kind);
        struct rec_put full = { REC_PUT, r.small.word >> 16, r.small.offset, (r.small.word >> 8) & 0xff };
        rma_apply_put(src, &full);
        break;
    }
    case REC_PUT:
        stream_read(src, rest, sizeof r.put - sizeof r.kind);
        rma_apply_put(src, &r.put);
        break;
    case REC_GET:
        stream_skip(src, sizeof r.get - sizeof r.kind);
        break;
    case REC_REPLY: /* applied already, before the puts (rma_apply_replies) */
        stream_read(src, rest, sizeof r.reply - sizeof r.kind);
        stream_skip(src, r.reply.nbytes);
        break;
    case REC_SEND:
        stream_read(src, rest, sizeof r.send - sizeof r.kind);
        bsmp_deliver(src, &r.send);
        break;
    case REC_MSG:
        bsmp_deliver_msg(src, r.kind);
        break;
    default:
        bsp_error("bsp_sync", "corrupt record kind %u from processor %u", r.kind, src);
    }
}

/* Apply everything processor 'src' sent up to the last exchange. */
static void drain(uint32_t src)
{
    uint64_t left;
    while ((left = dev->incoming(src)) != 0) {
        size_t len;
        const char *p = dev->peek(src, left, &len);
        size_t used = apply_span(src, p, len);
        if (used)
            dev->consume(src, used);
        else
            apply_one(src);
    }
}

void bsp_sync(void)
{
    bsp_require_begun("bsp_sync");
    OBSERVE(sync_begin());
    bsp_set_call(CALL_SYNC);
    if (atomic_load_explicit(&bsp.shared[bsp.me].moves_asked, memory_order_relaxed))
        mirror_serve(); /* before the barrier: no hp transfer of a peer in flight */
    uint64_t flags = 0;
    if (reg_prepare_sync())
        flags |= XFLAG(XF_REGS);
    if (bsp.slow)
        flags |= XFLAG(XF_SLOW);
    uint64_t sum = dev->exchange(flags);
    OBSERVE(sync_waited());
    if (XGET(sum, XF_END))
        bsp_collective_mismatch();
    if (XGET(sum, XF_REGS))
        reg_check_sync();
    bsmp_reset();
    if (XGET(sum, XF_SLOW)) {
        rma_serve_gets();
        rma_do_direct();
        OBSERVE(sync_served());
        dev->exchange(0);
        OBSERVE(sync_waited());
        rma_apply_replies();
    }
    for (uint32_t src = 0; src < bsp.p; src++)
        drain(src);
    if (XGET(sum, XF_REGS))
        reg_commit_sync();
    bsp.tagsize = bsp.tagsize_next;
    bsp.tagsize_calls = 0;
    bsp.slow = false;
    rma_superstep_done();
    bsp.step++;
    /* Applied: peers' direct reads of my memory may go on (decision 4 of
     * the design: no second barrier; rma_wait_applied). */
    counted_set(rma_applied_of(bsp.me), (uint32_t)bsp.step);
    launch_set_step(bsp.step);
    launch_stop_if_failed(); /* a copy of this processor failed the job (mpi: told only here) */
    if (__builtin_expect(bsp.checkpoint_every != 0, 0) && bsp.step % bsp.checkpoint_every == 0)
        checkpoint_due();
    bsp_set_call(CALL_NONE);
    OBSERVE(sync_end());
}

void bsp_end(void)
{
    bsp_require_begun("bsp_end");
    launch_stop_if_failed();
    OBSERVE(end_begin());
    bsp_set_call(CALL_END);
    /* XF_SLOW counts the processors that profile (the profiler gathers
     * only when all do: on mpi each rank reads its own environment). */
    uint64_t sum = dev->exchange(XFLAG(XF_END) | (bsp_observing ? XFLAG(XF_SLOW) : 0));
    if (XGET(sum, XF_END) != bsp.p || XGET(sum, XF_REGS)) /* XF_REGS: an ebsp_barrier */
        bsp_collective_mismatch();
    OBSERVE(finish((uint32_t)XGET(sum, XF_SLOW)));
    bool nested = launch_nest_depth() != 0;
    if (!nested) /* an inner run moved nothing: the outer run's moves stay */
        mirror_end(); /* after the barrier: no peer reaches these pages any more */
    reg_free();
    bsmp_free();
    rma_free();
    bsp.begun = false;
    dev->end(); /* processors other than 0 end here */
    if (nested)
        nest_give_back();
}

void bsp_vabort(const char *format, va_list args)
{
    bsp_require_not_forked("bsp_abort");
    char msg[768];
    vsnprintf(msg, sizeof msg, format ? format : "(no message)", args);
    launch_one_line(msg, sizeof msg); /* the rendering of every path: launch/text.c */
    bsp_error("bsp_abort", "%s", msg);
}

void bsp_abort(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    bsp_vabort(format, ap);
}

/* ---- reading the incoming streams -------------------------------------- */

void stream_read(uint32_t src, void *buf, size_t n)
{
    char *d = buf;
    while (n) {
        size_t len;
        const void *p = dev->peek(src, n, &len);
        if (!len)
            bsp_error("bsp_sync", "stream from processor %u ended inside a record", src);
        memcpy(d, p, len);
        dev->consume(src, len);
        d += len;
        n -= len;
    }
}

void stream_skip(uint32_t src, uint64_t n)
{
    while (n) {
        size_t len;
        dev->peek(src, n, &len);
        if (!len)
            bsp_error("bsp_sync", "stream from processor %u ended inside a record", src);
        dev->consume(src, len);
        n -= len;
    }
}

bool stream_write(uint32_t dst, const void *buf, size_t n)
{
    if (!dev->write(dst, buf, n))
        bsp_error("bsp_sync", "shared segment exhausted (set SUPERSTEP_SEGMENT_SIZE larger)");
    return true;
}
