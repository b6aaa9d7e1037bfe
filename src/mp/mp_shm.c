/*
 * mp_shm.c - the shared-memory transport of mp.h.
 *
 * mp_start creates a segment, lays out the tables below, and forks the
 * other nodes with launch_fork (node k is launch processor k-1; the caller
 * is node 1).  Every ordered pair of nodes has two channels, one per class
 * (ordinary, system): two plain FIFOs keep the order within a class for
 * free, and let a receiver look at the head of each class on its own, so a
 * system message overtakes any number of ordinary ones without a scan
 * through them.  (One channel with a scan ahead would need the receiver to
 * buffer or skip the ordinary messages it passes; two channels cost 128
 * bytes of table per pair and nothing per message.)
 *
 * A message is a record in its channel: a header (tag, kind, length), then
 * the payload.  The sender publishes after each message, and every 64 KiB
 * of a long one, so the receiver copies a long message out while the sender
 * is still copying it in.  A receiver commits to a record once its header is
 * visible, and then waits (spinning, yielding) for the rest, which the
 * sender is busy writing.
 *
 * Waking: each node has a wake word and a 'sleeping' count in the segment.
 * A receiver with nothing to read waits with barrier.h's wait_for: it
 * spins briefly on its channels (not at all when there are more nodes than
 * CPUs), then counts itself in 'sleeping', reads the wake word, looks once
 * more, and sleeps on the wake word's futex, in slices, checking the job's
 * failure word after each.  A sender publishes, then (wake_sleepers: after
 * a full fence) bumps the wake word and wakes the futex only if it sees
 * 'sleeping': the fences on both sides ensure that either the receiver
 * sees the message or the sender sees the count.  (Unlike the
 * barrier's wait, there is no phase of sched_yield between spinning and
 * sleeping: a receive may wait for long, and on a crowded machine a
 * yielding receiver runs far later than one the kernel wakes.)
 *
 * Quit: the main node sets the shared quit word and wakes every node; a
 * node sees it in its next receive, probe or sync.
 *
 * Deadlock: a node blocked for ever (a receive or probe without deadline,
 * or mp_sync) says so in its 'blocked' word (what it waits for) and bumps
 * its 'moves' counter whenever it stops waiting.  The lowest-numbered node
 * still running checks, after each sleeping slice, whether every node that
 * has not ended is blocked and no message is in flight (published, not yet
 * released) on a channel that could end a receive; it reads every 'moves'
 * before and after the look at the channels, and calls it a deadlock only
 * if none moved and the same holds at two checks in a row.  A receiver
 * bumps 'moves' before it releases what it read, so a message taken during
 * the look is seen as a move.  The report names every blocked node.
 */
#include "mp/mp_impl.h"

#include "barrier/barrier.h"
#include "channel/channel.h"
#include "launch/launch.h"
#include "segment/segment.h"
#include "settings/settings.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Per node: what its senders touch to wake it. */
struct mp_node {
    _Atomic uint32_t wake;       /* futex word, bumped to wake a sleeper */
    _Atomic uint32_t sleeping;   /* non-zero: the node may be asleep on 'wake' */
    _Atomic uint32_t blocked;    /* MP_BLOCK_*: waiting for ever, and for what */
    _Atomic uint32_t moves;      /* bumped each time the node stops waiting */
    char pad[SEG_LINE - 4 * sizeof(uint32_t)];
};

/* 'blocked': MP_BLOCK_* (mp_impl.h): not waiting for ever, in mp_sync, or in
 * a receive from any node or from node k (MP_BLOCK_FROM + k). */

/* The transport's root table in the segment (ROOT_MP). */
struct mp_shared {
    _Atomic uint32_t quit;       /* the main node called mp_quit(0) */
    uint32_t n;
    uint64_t nodes, chans;       /* offsets of the node and channel tables */
    char pad0[SEG_LINE - 2 * sizeof(uint32_t) - 2 * sizeof(uint64_t)];
    _Atomic uint32_t sync_count; /* arrivals at the current mp_sync */
    char pad1[SEG_LINE - sizeof(uint32_t)];
    _Atomic uint32_t sync_gen;   /* futex word: completed mp_syncs */
    char pad2[SEG_LINE - sizeof(uint32_t)];
};

/* The record header before each payload. */
struct mp_rec {
    int32_t tag;
    uint32_t kind;
    uint64_t length;
};

/* One incoming FIFO: the channel's reader and the header taken from it. */
struct inq {
    struct chan_reader r;
    bool have;                   /* 'rec' is the head message's header */
    struct mp_rec rec;
};

/* The sync generation counts completed syncs in its low bits; the main
 * node's quit sets the top bit, which wakes the waiters without making a
 * sync look complete. */
#define SYNC_QUIT 0x80000000u

#define CHUNK (64u << 10)        /* publish / release a long message this often */
#define SPIN_NS 20000            /* spin this long on the channels before sleeping */
#define SLICE_NS 100000000       /* sleep at most this long at a time */

static struct {
    int n, me;                   /* me: 1..n */
    struct mp_shared *sh;
    struct mp_node *node;        /* [node-1] */
    struct channel *chan;
    struct chan_writer *out;     /* [(dst-1)*2 + cls] */
    struct inq *in;              /* [(src-1)*2 + cls] */
    int rr[MP_CLASSES];          /* 0-based sender to look at first, per class */
    bool over;                   /* more nodes than CPUs: do not spin */
    int64_t spin_ns;             /* how long a receiver spins before sleeping */
    uint32_t suspect_sum;        /* moves seen at the last check that found a deadlock */
    bool suspect;
    struct late_watch late;      /* SUPERSTEP_STALL_TIMEOUT in mp_sync */
} S;

static struct channel *chan_of(int src, int dst, int cls)
{
    return &S.chan[((size_t)(dst - 1) * (size_t)S.n + (size_t)(src - 1)) * MP_CLASSES + (size_t)cls];
}

static struct barrier *job_barrier(void)
{
    return &job.ls->barrier;
}

static void check_failed(void)
{
    if (barrier_failed(job_barrier()))
        launch_stopped();
}

/* ---- start and end ----------------------------------------------------- */

static const struct launch_words bsp_words = { "processor", 0, "bsp_end", true, NULL, 0 };

static void free_local(void)
{
    free(S.out);
    free(S.in);
    memset(&S, 0, sizeof S);
}

static void drop_segment(void)
{
    seg_detach(&job.seg);
    job.ls = NULL;
    launch_words = bsp_words;
}

static void shm_sync_late(int64_t waited_ns);

static int shm_start(int n, int *me)
{
    if (job.ls)
        return -EBUSY; /* a job (BSP, or mp) is already running in this process */
    int rc = seg_create(&job.seg, seg_size_from_env(), (uint32_t)n);
    if (rc)
        return rc;
    job.nprocs = (uint32_t)n;
    job.ls = launch_setup(&job.seg, (uint32_t)n);
    uint64_t sh = seg_alloc(&job.seg, sizeof(struct mp_shared), SEG_LINE);
    uint64_t nodes = seg_alloc(&job.seg, (size_t)n * sizeof(struct mp_node), SEG_LINE);
    uint64_t chans = seg_alloc(&job.seg, (size_t)n * (size_t)n * MP_CLASSES * sizeof(struct channel), SEG_LINE);
    S.out = calloc((size_t)n * MP_CLASSES, sizeof *S.out);
    S.in = calloc((size_t)n * MP_CLASSES, sizeof *S.in);
    if (!job.ls || !sh || !nodes || !chans || !S.out || !S.in) {
        rc = S.out && S.in ? -ENOSPC : -ENOMEM; /* ENOSPC: the segment is too small */
        free_local();
        drop_segment();
        return rc;
    }
    /* A fresh memfd reads as zeros: every channel starts empty. */
    job.seg.hdr->root[ROOT_MP] = sh;
    S.n = n;
    S.sh = seg_ptr(&job.seg, sh);
    S.sh->n = (uint32_t)n;
    S.sh->nodes = nodes;
    S.sh->chans = chans;
    S.node = seg_ptr(&job.seg, nodes);
    S.chan = seg_ptr(&job.seg, chans);

    launch_words = mp_words;
    rc = launch_fork((uint32_t)n);
    if (rc) { /* launch_fork has stopped the children it forked */
        free_local();
        drop_segment();
        return rc;
    }
    S.me = (int)job.me + 1;
    for (int k = 1; k <= n; k++)
        for (int c = 0; c < MP_CLASSES; c++) {
            chan_writer_init(&S.out[(k - 1) * MP_CLASSES + c], &job.seg, chan_of(S.me, k, c));
            chan_reader_init(&S.in[(k - 1) * MP_CLASSES + c].r, &job.seg, chan_of(k, S.me, c));
        }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    S.over = cpus > 0 && n > cpus;
    barrier_set_oversubscribed(S.over);
    S.spin_ns = SPIN_NS;
    late_arm(&S.late, shm_sync_late);
    *me = S.me;
    return 0;
}

static void notify(int dst)
{
    wake_sleepers(&S.node[dst - 1].wake, &S.node[dst - 1].sleeping);
}

static void shm_end(void)
{
    if (S.me == 1) {
        atomic_store(&S.sh->quit, 1);
        for (int k = 2; k <= S.n; k++)
            notify(k);
        atomic_fetch_or(&S.sh->sync_gen, SYNC_QUIT);
        wake_word(&S.sh->sync_gen);
        free_local();
        launch_finish(); /* waits until every other node has ended */
    } else {
        /* Everything this node sent is published; the monitor in the main
         * node counts a clean exit once 'ended' is set. */
        atomic_store(&job.ls->proc[job.me].ended, 1);
        free_local();
    }
    drop_segment();
}

static void shm_fail(int code, const char *msg) __attribute__((noreturn));
static void shm_fail(int code, const char *msg)
{
    launch_fail((uint32_t)code, "%s", msg);
}

static bool shm_ended(int node)
{
    return atomic_load(&job.ls->proc[node - 1].ended) != 0;
}

static bool shm_quitting(void)
{
    return atomic_load_explicit(&S.sh->quit, memory_order_acquire) != 0;
}

/* ---- deadlock detection --------------------------------------------------- */

static void block_as(uint32_t what)
{
    atomic_store(&S.node[S.me - 1].blocked, what);
}

/* Stop counting as blocked; before anything that a blocked peer's look at
 * the channels could see (a release, a send, a sync arrival). */
static void unblock(void)
{
    struct mp_node *me = &S.node[S.me - 1];
    if (atomic_load_explicit(&me->blocked, memory_order_relaxed) != MP_BLOCK_NONE) {
        atomic_fetch_add(&me->moves, 1);
        atomic_store(&me->blocked, MP_BLOCK_NONE);
    }
}

static uint32_t moves_sum(void)
{
    uint32_t sum = 0;
    for (int k = 0; k < S.n; k++)
        sum += atomic_load(&S.node[k].moves);
    return sum;
}

/* A message published on src -> dst and not yet released by dst. */
static bool in_flight(int src, int dst)
{
    for (int c = 0; c < MP_CLASSES; c++) {
        struct channel *ch = chan_of(src, dst, c);
        if (atomic_load(&ch->published) != atomic_load(&ch->consumed))
            return true;
    }
    return false;
}

/* Could something in flight end the wait of node k, blocked as 'b'? */
static bool could_end(int k, uint32_t b)
{
    if (b == MP_BLOCK_SYNC)
        return false;
    if (b >= MP_BLOCK_FROM)
        return in_flight((int)(b - MP_BLOCK_FROM), k);
    for (int s = 1; s <= S.n; s++)
        if (in_flight(s, k))
            return true;
    return false;
}

static uint32_t shm_state(int k)
{
    return atomic_load(&job.ls->proc[k - 1].ended) ? MP_BLOCK_ENDED : atomic_load(&S.node[k - 1].blocked);
}

static void report_deadlock(void) __attribute__((noreturn));
static void report_deadlock(void)
{
    char msg[1024];
    mp_deadlock_line(msg, sizeof msg, S.n, shm_state);
    launch_fail(LAUNCH_EXIT_ERROR, "%s", msg);
}

/* After a sleeping slice: the lowest-numbered running node looks for a
 * deadlock (see the top of this file). */
static void check_deadlock(void)
{
    if (atomic_load(&S.sh->quit))
        return;
    for (int k = 1; k < S.me; k++)
        if (!atomic_load(&job.ls->proc[k - 1].ended))
            return; /* a lower node checks */
    uint32_t before = moves_sum();
    bool stuck = true;
    for (int k = 1; k <= S.n && stuck; k++) {
        if (atomic_load(&job.ls->proc[k - 1].ended))
            continue;
        uint32_t b = atomic_load(&S.node[k - 1].blocked);
        stuck = b != MP_BLOCK_NONE && !could_end(k, b);
    }
    uint32_t after = moves_sum();
    if (!stuck || before != after || atomic_load(&S.sh->quit)) {
        S.suspect = false;
        return;
    }
    if (S.suspect && S.suspect_sum == after)
        report_deadlock();
    S.suspect = true;
    S.suspect_sum = after;
}

/* ---- sync ----------------------------------------------------------------- */

/* SUPERSTEP_STALL_TIMEOUT: a node that has waited a period in mp_sync
 * names the nodes still computing (running, not blocked in a call: those
 * blocked for ever are the deadlock check's) and stops the job. */
static bool shm_computing(uint32_t k)
{
    return (int)k != S.me && !shm_ended((int)k) && atomic_load(&S.node[k - 1].blocked) == MP_BLOCK_NONE;
}

static void shm_sync_late(int64_t waited_ns)
{
    mp_sync_stalled(&S.late, waited_ns, S.n, shm_computing);
}

static int shm_sync(void)
{
    unblock();
    struct mp_shared *sh = S.sh;
    uint32_t gen = atomic_load(&sh->sync_gen) & ~SYNC_QUIT;
    if (shm_quitting())
        return MP_SYNC_QUIT;
    if (atomic_fetch_add(&sh->sync_count, 1) + 1 == (uint32_t)S.n) {
        atomic_store(&sh->sync_count, 0);
        uint32_t old = atomic_load(&sh->sync_gen);
        while (!atomic_compare_exchange_weak(&sh->sync_gen, &old, (old & SYNC_QUIT) | ((old + 1) & ~SYNC_QUIT)))
            ;
        wake_word(&sh->sync_gen);
        return MP_SYNC_OK;
    }
    struct wait w = { .word = &sh->sync_gen, .b = job_barrier(), .late = &S.late };
    for (;;) {
        /* 'ended' first: a node that ended after this sync completed, or
         * after quitting, is no error. */
        int gone = 0;
        for (int k = 1; k <= S.n && !gone; k++)
            if (shm_ended(k))
                gone = k;
        uint32_t now = atomic_load(&sh->sync_gen);
        if ((now & ~SYNC_QUIT) != gen)
            return MP_SYNC_OK;
        if (now & SYNC_QUIT)
            return MP_SYNC_QUIT;
        if (gone)
            mp_error("mp_sync", "node %d has already ended (mp_quit), so not every node can meet", gone);
        block_as(MP_BLOCK_SYNC);
        /* In slices: the deadlock check looks after each. */
        w.value = now;
        w.deadline = now_ns() + SLICE_NS;
        if (wait_for(&w)) {
            unblock();
            continue;
        }
        check_failed();
        check_deadlock();
    }
}

/* ---- sending -------------------------------------------------------------- */

static bool shm_send(int dst, int cls, int tag, const void *data, size_t length)
{
    unblock();
    struct chan_writer *w = &S.out[(dst - 1) * MP_CLASSES + cls];
    struct mp_rec rec = { tag, MP_HEAD_MSG, length };
    const char *p = data;
    size_t first = length < CHUNK ? length : CHUNK;
    if (!chan_write(w, &rec, sizeof rec) || (first && !chan_write(w, p, first)))
        return false;
    chan_publish(w);
    notify(dst);
    p += first;
    length -= first;
    while (length) {
        size_t chunk = length < CHUNK ? length : CHUNK;
        if (!chan_write(w, p, chunk))
            return false;
        chan_publish(w);
        p += chunk;
        length -= chunk;
    }
    return true;
}

/* ---- receiving ------------------------------------------------------------ */

static struct inq *inq_of(int src, int cls)
{
    return &S.in[(src - 1) * MP_CLASSES + cls];
}

/* Whether a whole header is published.  (A reader may briefly be ahead of
 * 'published', which the writer stores after the ring's head: then the
 * difference is negative, and there is no new header yet.) */
static bool header_published(struct inq *q)
{
    uint64_t avail = chan_available(&q->r);
    return avail >= sizeof(struct mp_rec) && !(avail >> 63);
}

static bool inq_head(struct inq *q)
{
    if (q->have)
        return true;
    if (!header_published(q))
        return false;
    chan_read(&q->r, &q->rec, sizeof q->rec);
    q->have = true;
    return true;
}

static void fill(struct mp_head *h, int src, int cls, const struct inq *q)
{
    h->src = src;
    h->cls = cls;
    h->tag = q->rec.tag;
    h->kind = q->rec.kind;
    h->length = q->rec.length;
}

static bool shm_head(int src, int cls, struct mp_head *h)
{
    if (src) {
        struct inq *q = inq_of(src, cls);
        if (!inq_head(q))
            return false;
        fill(h, src, cls, q);
        return true;
    }
    for (int i = 0, s = S.rr[cls]; i < S.n; i++, s = s + 1 == S.n ? 0 : s + 1) {
        struct inq *q = inq_of(s + 1, cls);
        if (inq_head(q)) {
            fill(h, s + 1, cls, q);
            return true;
        }
    }
    return false;
}

/* The rest of a message the sender is still writing: it is inside mp_send
 * and publishes each piece without waking anyone, so the wait has no word
 * to sleep on (wait_for spins and yields; a dead sender fails the job,
 * which ends it); it is as long as a memcpy. */
static bool more_ready(void *q)
{
    size_t len;
    chan_peek(&((struct inq *)q)->r, 1, &len);
    return len != 0;
}

static void wait_more(struct inq *q)
{
    struct wait w = { .ready = more_ready, .arg = q, .b = job_barrier() };
    if (!wait_for(&w))
        launch_stopped();
}

static void shm_take(const struct mp_head *h, void *buf)
{
    unblock(); /* before the release that a deadlock check could see */
    struct inq *q = inq_of(h->src, h->cls);
    char *d = buf;
    uint64_t left = q->rec.length, unreleased = 0;
    while (left) {
        size_t len;
        const void *p = chan_peek(&q->r, left, &len);
        if (!len) {
            wait_more(q);
            continue;
        }
        memcpy(d, p, len);
        chan_consume(&q->r, len);
        d += len;
        left -= len;
        if ((unreleased += len) >= CHUNK) {
            chan_release(&q->r);
            unreleased = 0;
        }
    }
    chan_release(&q->r);
    q->have = false;
    S.rr[h->cls] = h->src == S.n ? 0 : h->src; /* the next sender goes first */
}

static bool inq_ready(struct inq *q)
{
    return q->have || header_published(q);
}

static bool ready(int src)
{
    if (atomic_load_explicit(&S.sh->quit, memory_order_relaxed))
        return true;
    if (src)
        return inq_ready(inq_of(src, 0)) || inq_ready(inq_of(src, 1));
    for (int k = 1; k <= S.n; k++)
        if (inq_ready(inq_of(k, 0)) || inq_ready(inq_of(k, 1)))
            return true;
    return false;
}

/* The spin adapts: it doubles (up to SPIN_NS) when a spin finds the
 * message, and halves (down to SPIN_MIN_NS) when the receiver has to sleep
 * anyway; so on a crowded machine, where a spinner only delays the sender
 * it waits for, receivers go to sleep almost at once, as a pipe's reader
 * does, and on a quiet one they catch a prompt answer spinning. */
#define SPIN_MIN_NS 1000

static bool ready_from(void *src)
{
    return ready(*(int *)src);
}

/* One slice of a receive's wait (mp.c loops): wait_for on any of the
 * channels from 'src' (or every node), woken through this node's wake
 * counter, with no yield phase (see the top of this file); then the
 * deadlock check. */
static bool shm_wait(int src, int64_t deadline)
{
    if (deadline < 0)
        block_as(src ? MP_BLOCK_FROM + (uint32_t)src : MP_BLOCK_ANY);
    else
        unblock(); /* a wait with a deadline ends by itself */
    struct mp_node *me = &S.node[S.me - 1];
    int64_t end = now_ns() + SLICE_NS;
    struct wait w = { .word = &me->wake, .ready = ready_from, .arg = &src, .sleepers = &me->sleeping, .b = job_barrier(),
                      .deadline = deadline >= 0 && deadline < end ? deadline : end,
                      .spin_ns = S.over ? WAIT_NO_SPIN : S.spin_ns, .no_yield = true };
    bool got = wait_for(&w);
    if (w.slept)
        S.spin_ns = S.spin_ns / 2 < SPIN_MIN_NS ? SPIN_MIN_NS : S.spin_ns / 2;
    else if (got)
        S.spin_ns = S.spin_ns * 2 > SPIN_NS ? SPIN_NS : S.spin_ns * 2;
    check_failed();
    if (!got && deadline < 0)
        check_deadlock();
    return got || deadline < 0 || now_ns() < deadline;
}

const struct mp_transport mp_transport_shm = {
    .name = "shm",
    .start = shm_start,
    .sync = shm_sync,
    .send = shm_send,
    .head = shm_head,
    .take = shm_take,
    .quitting = shm_quitting,
    .ended = shm_ended,
    .wait = shm_wait,
    .end = shm_end,
    .fail = shm_fail,
};
