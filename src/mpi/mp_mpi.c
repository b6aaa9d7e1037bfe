/*
 * mp_mpi.c - the MPI transport of mp.h: node k is rank k-1 of the job that
 * mpirun started (every node runs the program from main; mp_start finds
 * the others instead of forking them).
 *
 * Every message, of either class, and the transport's own notices (the
 * quit, a node's end, a sync) go to their destination as one MPI message
 * with one tag on a private communicator: a header (kind, class, tag,
 * length) and, up to a slot (SLOT bytes in all), the payload.  Because one
 * tag carries every header, MPI keeps the order of all that one node sends
 * to another, notices included: when a node has seen another's end (or the
 * main node's quit), it has the header of everything that node sent
 * before.  A longer payload follows its header with a tag of its class, and
 * stays in MPI until the message is taken: then it is received straight
 * into the caller's buffer.  Sends are MPI_Isend of a private copy (the
 * caller may reuse its buffer at once), at most WINDOW of them at once and
 * the rest in a backlog, so a send never waits for the receiver; finished
 * sends are released as later calls go by, and buffers are reused.
 *
 * A receiving node pumps: NRECV receives are posted ahead, and it takes
 * every message that has come into them (in the order they were posted,
 * which is each sender's order) into a FIFO per sender and class, where
 * head/take and the rotation over senders work as on shm.  Waiting spins
 * or naps in the one wait (src/mpi/mpi_wait.c).
 *
 * Ending: a node's mp_quit(0) sends an END notice to every node; the main
 * node's first sends QUIT to every node, then waits for every END.  MPI is
 * finalized at exit.  Failures print the line once and MPI_Abort the job.
 *
 * Deadlock detection (node 1 judges from reports of waiting nodes, with
 * per-pair message counts) and SUPERSTEP_STALL_TIMEOUT in mp_sync (late
 * nodes tell the waiting ones when they block) have their sections below.
 */
#include "mp/mp_impl.h"

#include "barrier/barrier.h"
#include "mpi/lines.h"
#include "mpi/mpi_fail.h"
#include "mpi/mpi_wait.h"
#include "mpi/mpi_watch.h"
#include "launch/launch.h"
#include "settings/settings.h"

#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

#define TAG_MSG 1                /* headers, and whole messages up to SLOT bytes */
#define TAG_PIECE 2              /* the payload of a longer message, in pieces (hdr.piece): */
#define TAG_PIECE_REPORT 4       /* TAG_PIECE + class for a message, this for a report */

/* A message whose header and payload fit in SLOT bytes travels as one MPI
 * message, into one of NRECV receives posted ahead (MPI puts it straight
 * there: no unexpected-message copy, no probe); a longer one as its header
 * then its payload.  That payload stays in MPI until the message is taken,
 * and is then received straight into the caller's buffer (one copy, by
 * MPI; with one tag per class, since a class's FIFO is taken in order but
 * system messages overtake ordinary ones).  A message stays in the slot it
 * came in, except that one of at most KEEP_SMALL bytes is copied to a
 * buffer of its size while SLOTS_KEPT messages wait in the FIFOs (a long
 * queue of small messages holds no slots; a short one costs no malloc). */
#define SLOT 4096
#define NRECV 32
#define KEEP_SMALL 256

/* Buffers are reused rather than freed: up to SLOTS_KEPT slots, and
 * buffers of at least CACHE_MIN bytes up to CACHE_MAX in all (a 1 MiB
 * message in a fresh malloc costs 256 page faults on each side, measured
 * at 40% of the time of a 1 MiB stream). */
#define SLOTS_KEPT 64
#define CACHE_MIN (64u << 10)
#define CACHE_MAX (32ull << 20)

/* K_MSG, K_SYNC and K_END are counted (deadlock detection, below);
 * K_REPORT goes to the main node, K_STATE is the stall timeout's. */
enum { K_MSG, K_QUIT, K_END, K_SYNC, K_FINISH, K_REPORT, K_STATE };

static bool counted(uint32_t kind)
{
    return kind == K_MSG || kind == K_SYNC || kind == K_END;
}

/* Deadlock detection (see "deadlock detection" below): a node reports
 * after waiting this long, the main node checks this often once it has
 * waited this long itself, and declares a deadlock when two checks this
 * far apart find the same stuck state.  Only for jobs of up to DETECT_MAX
 * nodes: the main node keeps two counts per ordered pair. */
#define REPORT_AFTER_NS 50000000ll
#define CHECK_EVERY_NS 100000000ll
#define DETECT_MAX 1024

struct hdr {
    uint32_t kind, cls;
    int32_t tag;
    uint32_t piece;              /* a payload sent apart: its pieces' size (the sender's SUPERSTEP_MPI_PIECE) */
    uint64_t length;
};

/* A message as it is sent (the header and payload together, one MPI
 * buffer from &h) and received (in its FIFO). */
struct msg {
    struct msg *next;
    size_t cap;                  /* bytes of data allocated */
    uint64_t in_mpi;             /* received: its payload is still in MPI (TAG_PIECE + class);
                                  * a payload's copy being sent: its pieces not yet done */
    struct hdr h;
    char data[];
};

#define SLOT_DATA (SLOT - sizeof(struct hdr))

struct fifo {
    struct msg *first, *last;
};

/* At most WINDOW sends are in MPI at once; the rest wait, in order, in the
 * backlog (an MPI may walk all it could not start at every progress call:
 * docs/mpi.md, "Vendor notes", send-backlog).  The backlog keeps the sender from ever
 * waiting for the receiver, and its order is the order of posting, so
 * MPI's per-tag order between two nodes still holds.  A message's header
 * and its payload pieces are one unit, given to MPI together: a receiver
 * waits for the payload straight after the header, so no payload may be
 * left in the backlog behind its header. */
#define WINDOW 256

/* The pieces of payloads in flight are kept aside, outside the window:
 * each is done only when its receiver takes the message, which must not
 * hold up the sends behind it (a node may wait for one of those before it
 * takes that message).  Tested all together, now and then. */

struct pending {                 /* a send not yet given to MPI */
    struct pending *next;
    void *buf;
    int count, dst, tag;
    struct msg *owned;           /* released when this send is done */
    int unit;                    /* first of a unit: its sends; 0: a later one */
    bool aside;                  /* a piece of a payload (above) */
};

static struct {
    MPI_Comm comm;
    bool we_inited;
    int n, me;                   /* nodes, this node (1..n) */
    uint32_t piece;              /* SUPERSTEP_MPI_PIECE */
    struct fifo *in;             /* [src * MP_CLASSES + cls], src 1..n */
    bool *ended;                 /* [node]: its END has arrived */
    uint64_t *synced;            /* [node]: syncs it has arrived at */
    uint64_t syncs;              /* syncs this node has arrived at */
    bool quit;                   /* the main node's QUIT has arrived */
    bool ended_here;             /* this node's mp_quit(0) has run */
    /* The status a process forked from this node failed the job with (its
     * refused call's line printed; 0: none), in a page shared with every
     * such process (made at mp_start, before any of them): mp_sync,
     * mp_quit and the exit look at it. */
    _Atomic int *copy_code;
    bool finish;                 /* the main node's FINISH (it finalizes MPI) has arrived */
    int turn[MP_CLASSES];        /* the rotation over senders for 'any' */
    /* Sends in MPI, in the order posted: [first, nout) of req, their
     * buffers (NULL: none to release) in owned; room for cap. */
    MPI_Request *req;
    struct msg **owned;
    int *done;                   /* scratch for MPI_Testsome */
    size_t first, nout, cap;
    /* Payload pieces in flight: aside_req[0, naside), room for aside_cap. */
    MPI_Request *aside_req;
    struct msg **aside_owned;
    int *aside_done;
    size_t naside, aside_cap;
    unsigned aside_sweeps;
    unsigned sweeps;             /* window full: every SWEEP_EVERY-th look tests every send */
    unsigned posts;              /* sends posted since the last reap (REAP_EVERY) */
    bool unit_direct;            /* the unit being posted goes straight to MPI */
    struct pending *backlog, *backlog_last; /* sends waiting for room in the window */
    /* Receives posted ahead: rreq[rhead] is the oldest, into slot[rhead]. */
    MPI_Request rreq[NRECV];
    struct msg *slot[NRECV];
    int rhead;
    bool posted;
    /* Buffers kept for reuse: free slots, and larger ones (cached bytes). */
    struct msg *free_slots, *cache;
    int nfree_slots;
    size_t cached;
    size_t queued;               /* messages in the FIFOs */

    /* Deadlock detection, every node: what it waits for for ever
     * (MP_BLOCK_*) and since when; counted messages sent to and received
     * (pumped) from each node; what its last report said. */
    bool detect;                 /* 1 < n <= DETECT_MAX */
    uint32_t block;
    int64_t block_since;
    uint64_t block_recv;         /* recv_total when block_since was set */
    uint64_t *sent, *recvd;      /* [node] */
    uint64_t sent_total, recv_total;
    uint64_t look_recv;          /* recv_total at the last look at the FIFOs */
    bool reported;
    uint32_t rep_block;
    uint64_t rep_sent, rep_recv;
    /* The main node: each node's last report, [k] and [k * (n + 1) + j]. */
    uint32_t *d_state;
    uint64_t *d_sent, *d_recvd;
    uint64_t d_reports;          /* reports received */
    int64_t d_checked;           /* the last check */
    bool suspect;                /* the last check found every node stuck */
    uint64_t suspect_stamp;      /* reports and receives at that check */
    int64_t suspect_at;

    /* SUPERSTEP_STALL_TIMEOUT in mp_sync (0: off); the nodes that have it
     * (watchers[k - 1]); whether some node has it (then every node tells
     * of its waits); what each node late for this node's mp_sync last
     * told (MP_BLOCK_*). */
    struct late_watch late;
    uint8_t *watchers;
    bool telling;
    uint32_t *told;
} X = { .comm = MPI_COMM_NULL };

/* msg NULL: the line is out already (a forked copy's: stop_if_copy_failed). */
static void mpi_fail_mp(int code, const char *msg) __attribute__((noreturn));
static void mpi_fail_mp(int code, const char *msg)
{
    static bool failing;
    if (failing)
        _exit(code);
    failing = true;
    lines_failing(mpi_abort_deadline()); /* output nobody reads must not hang it */
    fflush(stdout);
    lines_flush();
    if (mpi_first_to_fail()) { /* one line for the job, as on shm */
        if (msg)
            fprintf(stderr, "superstep: %s\n", msg);
        fflush(stderr);
        lines_flush();
    } else { /* the rank that prints stops the job */
        mpi_await_abort(code);
    }
    mpi_abort_job(code);
}

/* A process forked from this node, refused, has failed the job: stop it
 * as this node's own failure, whose line the copy printed. */
static void stop_if_copy_failed(void)
{
    int code = X.copy_code ? atomic_load_explicit(X.copy_code, memory_order_relaxed) : 0;
    if (__builtin_expect(code != 0, 0))
        mpi_fail_mp(code, NULL);
}

static void mpi_copy_failed(int code)
{
    if (X.copy_code)
        atomic_store(X.copy_code, code);
}

static void oom(void)
{
    char msg[64];
    snprintf(msg, sizeof msg, "node %d: out of memory in the MPI transport", X.me);
    mpi_fail_mp(1, msg);
}

/* ---- buffers --------------------------------------------------------------- */

/* A buffer for a message of 'payload' bytes: a slot for SLOT_DATA, a
 * cached one of at most twice the size, or a new one; NULL when out of
 * memory. */
static struct msg *msg_get(size_t payload)
{
    struct msg *m = NULL;
    if (payload == SLOT_DATA && X.free_slots) {
        m = X.free_slots;
        X.free_slots = m->next;
        X.nfree_slots--;
    }
    for (struct msg **p = &X.cache; !m && payload >= CACHE_MIN && *p; p = &(*p)->next)
        if ((*p)->cap >= payload && (*p)->cap / 2 <= payload) {
            m = *p;
            *p = m->next;
            X.cached -= m->cap;
            break;
        }
    if (!m) {
        m = malloc(sizeof *m + payload);
        if (!m)
            return NULL;
        m->cap = payload;
    }
    m->next = NULL;
    return m;
}

static void msg_put(struct msg *m)
{
    if (m->cap == SLOT_DATA && X.nfree_slots < SLOTS_KEPT) {
        m->next = X.free_slots;
        X.free_slots = m;
        X.nfree_slots++;
    } else if (m->cap >= CACHE_MIN && X.cached + m->cap <= CACHE_MAX) {
        m->next = X.cache;
        X.cache = m;
        X.cached += m->cap;
    } else {
        free(m);
    }
}

/* ---- sending --------------------------------------------------------------- */

#define SWEEP_EVERY 32

/* A send is not tested when posted: an MPI_Test of a send not yet done
 * runs MPI's progress, which halved the rate of a stream of small
 * messages (4.1-4.5 against 8.0-8.3 Mmsg/s for Isend with a Waitall every
 * 64, plain MPI, this machine).  Sends are reaped every REAP_EVERY posts,
 * and in every wait. */
#define REAP_EVERY 32

static size_t in_flight(void)
{
    return X.nout - X.first;
}

/* Release the payload pieces that are done (all of them tested: few are
 * in flight unless receivers are slow to take, then every SWEEP_EVERY-th
 * time). */
static void reap_aside(void)
{
    if (!X.naside || (X.naside > 16 && X.aside_sweeps++ % SWEEP_EVERY))
        return;
    int ndone = 0;
    MPI_Testsome((int)X.naside, X.aside_req, &ndone, X.aside_done, MPI_STATUSES_IGNORE);
    if (ndone <= 0) /* MPI_UNDEFINED: none active */
        return;
    size_t k = 0;
    for (size_t i = 0; i < X.naside; i++) {
        if (X.aside_req[i] == MPI_REQUEST_NULL) {
            /* MPI completes a payload's pieces in any order (a short last
             * one at once, eagerly): the copy goes with the last done. */
            if (--X.aside_owned[i]->in_mpi == 0)
                msg_put(X.aside_owned[i]);
            continue;
        }
        X.aside_req[k] = X.aside_req[i], X.aside_owned[k] = X.aside_owned[i];
        k++;
    }
    X.naside = k;
}

/* Release the sends that are done, oldest first (sends to one node finish
 * in order: one MPI_Test per look while the oldest is not done).  With the
 * window full, now and then test them all: one slow receiver must not
 * hold up the sends to the others for ever. */
static void reap(void)
{
    reap_aside();
    if (in_flight() >= WINDOW && X.sweeps++ % SWEEP_EVERY == 0) {
        int ndone = 0;
        MPI_Testsome((int)in_flight(), X.req + X.first, &ndone, X.done, MPI_STATUSES_IGNORE);
        for (int i = 0; i < ndone; i++) {
            size_t k = X.first + (size_t)X.done[i];
            if (X.owned[k])
                msg_put(X.owned[k]);
            X.owned[k] = NULL;
        }
    }
    while (X.first < X.nout) {
        if (X.req[X.first] != MPI_REQUEST_NULL) {
            int done = 0;
            MPI_Test(&X.req[X.first], &done, MPI_STATUS_IGNORE);
            if (!done)
                break;
        }
        if (X.owned[X.first])
            msg_put(X.owned[X.first]);
        X.first++;
    }
    if (X.first == X.nout)
        X.first = X.nout = 0;
}

/* Room for one more in a list of requests and owners of capacity *cap. */
static void grow_requests(MPI_Request **req, struct msg ***owned, int **done, size_t *cap)
{
    size_t c = *cap ? 2 * *cap : 2 * WINDOW;
    MPI_Request *r = realloc(*req, c * sizeof *r);
    if (r)
        *req = r;
    struct msg **o = realloc(*owned, c * sizeof *o);
    if (o)
        *owned = o;
    int *d = realloc(*done, c * sizeof *d);
    if (d)
        *done = d;
    if (!r || !o || !d)
        oom();
    *cap = c;
}

static void isend_aside(void *buf, int count, int dst, int tag, struct msg *owned)
{
    if (X.naside == X.aside_cap)
        grow_requests(&X.aside_req, &X.aside_owned, &X.aside_done, &X.aside_cap);
    X.aside_owned[X.naside] = owned;
    MPI_Isend(buf, count, MPI_BYTE, dst - 1, tag, X.comm, &X.aside_req[X.naside]);
    X.naside++;
}

static void isend(void *buf, int count, int dst, int tag, struct msg *owned, bool aside)
{
    if (aside) {
        isend_aside(buf, count, dst, tag, owned);
        return;
    }
    if (X.nout == X.cap && X.first) { /* move the sends in flight down */
        size_t k = in_flight();
        memmove(X.req, X.req + X.first, k * sizeof *X.req);
        memmove(X.owned, X.owned + X.first, k * sizeof *X.owned);
        X.first = 0, X.nout = k;
    }
    if (X.nout == X.cap)
        grow_requests(&X.req, &X.owned, &X.done, &X.cap);
    X.owned[X.nout] = owned;
    MPI_Isend(buf, count, MPI_BYTE, dst - 1, tag, X.comm, &X.req[X.nout]);
    X.nout++;
}

/* Reap, then move the backlog into MPI, a unit at a time, as far as the
 * window allows. */
static void progress_sends(void)
{
    reap();
    while (X.backlog && in_flight() < WINDOW) {
        for (int k = X.backlog->unit; k > 0; k--) {
            struct pending *p = X.backlog;
            X.backlog = p->next;
            if (!X.backlog)
                X.backlog_last = NULL;
            isend(p->buf, p->count, p->dst, p->tag, p->owned, p->aside);
            free(p);
        }
    }
}

/* Post a send; 'unit' > 0 on the first of a unit of that many sends
 * (posted one after the other, nothing in between), 0 on the others, which
 * are payload pieces (kept aside). */
static void post(void *buf, int count, int dst, int tag, struct msg *owned, int unit)
{
    bool aside = !unit;
    if (unit) {
        if (++X.posts >= REAP_EVERY) {
            X.posts = 0;
            progress_sends();
        }
        X.unit_direct = !X.backlog && in_flight() < WINDOW;
    }
    if (X.unit_direct) {
        isend(buf, count, dst, tag, owned, aside);
        return;
    }
    struct pending *p = malloc(sizeof *p);
    if (!p)
        oom();
    *p = (struct pending){ NULL, buf, count, dst, tag, owned, unit, aside };
    if (X.backlog_last)
        X.backlog_last->next = p;
    else
        X.backlog = p;
    X.backlog_last = p;
}

/* A header alone (a notice: its length field carries no payload). */
static void post_header(int dst, struct hdr h)
{
    struct msg *m = msg_get(0);
    if (!m)
        oom();
    m->h = h;
    post(&m->h, (int)sizeof h, dst, TAG_MSG, m, 1);
}

static int piece_tag(uint32_t kind, int cls)
{
    return kind == K_MSG ? TAG_PIECE + cls : TAG_PIECE_REPORT;
}

static bool send_to(int dst, uint32_t kind, int cls, int tag, const void *data, size_t length)
{
    bool whole = length <= SLOT_DATA;
    /* staged in a buffer of its size (malloc's fastest; a send not done at
     * once holds no slot) */
    struct msg *m = msg_get(whole ? length : 0), *copy = whole || !m ? NULL : msg_get(length);
    if (!m || (!whole && !copy)) {
        if (m)
            msg_put(m);
        return false;
    }
    m->h = (struct hdr){ kind, (uint32_t)cls, tag, X.piece, length };
    if (counted(kind)) { /* counted when posted: one in the backlog is in flight */
        X.sent[dst]++;
        X.sent_total++;
    }
    if (whole) {
        if (length)
            memcpy(m->data, data, length);
        post(&m->h, (int)(sizeof m->h + length), dst, TAG_MSG, m, 1);
        return true;
    }
    memcpy(copy->data, data, length); /* the caller may reuse its buffer at once */
    copy->in_mpi = (length + X.piece - 1) / X.piece; /* every piece owns the copy */
    post(&m->h, (int)sizeof m->h, dst, TAG_MSG, m, 1 + (int)copy->in_mpi);
    for (size_t off = 0; off < length; off += X.piece) {
        size_t k = length - off < X.piece ? length - off : X.piece;
        post(copy->data + off, (int)k, dst, piece_tag(kind, cls), copy, 0);
    }
    return true;
}

static void notify_all(uint32_t kind)
{
    for (int k = 1; k <= X.n; k++)
        if (k != X.me && !send_to(k, kind, MP_CLASS_SYSTEM, 0, NULL, 0))
            oom();
}

/* ---- receiving --------------------------------------------------------------- */

static void post_receive(int i)
{
    MPI_Irecv(&X.slot[i]->h, SLOT, MPI_BYTE, MPI_ANY_SOURCE, TAG_MSG, X.comm, &X.rreq[i]);
}

static void post_receives(void)
{
    for (int i = 0; i < NRECV; i++) {
        X.slot[i] = msg_get(SLOT_DATA);
        if (!X.slot[i])
            oom();
        post_receive(i);
    }
    X.posted = true;
}

static void cancel_receives(void)
{
    if (!X.posted)
        return;
    for (int i = 0; i < NRECV; i++) {
        MPI_Cancel(&X.rreq[i]);
        MPI_Wait(&X.rreq[i], MPI_STATUS_IGNORE);
    }
    X.posted = false;
}

/* The payload of a message whose header came alone, into buf, from its
 * sender's pieces (sent with the header, in the order of the headers with
 * that tag).  buf NULL: received and dropped. */
static void receive_payload(int src, const struct hdr *h, void *buf)
{
    char *scratch = NULL;
    if (!buf) {
        scratch = malloc(h->length < h->piece ? h->length : h->piece);
        if (!scratch)
            oom();
    }
    for (uint64_t off = 0; off < h->length; off += h->piece) {
        uint64_t k = h->length - off < h->piece ? h->length - off : h->piece;
        MPI_Request r;
        MPI_Irecv(buf ? (char *)buf + off : scratch, (int)k, MPI_BYTE, src - 1, piece_tag(h->kind, (int)h->cls),
                  X.comm, &r);
        mpi_wait_all(1, &r);
    }
    free(scratch);
}

static void enqueue(int src, struct msg *m)
{
    X.queued++;
    struct fifo *f = &X.in[src * MP_CLASSES + (int)m->h.cls];
    m->next = NULL;
    if (f->last)
        f->last->next = m;
    else
        f->first = m;
    f->last = m;
}

/* A message that came into slot buffer m, 'count' bytes: the whole
 * message, its payload received (a buffer of its size when that is
 * smaller or larger than a slot). */
static struct msg *complete(int src, struct msg *m, int count)
{
    bool payload = m->h.kind == K_MSG || m->h.kind == K_REPORT; /* the others' length is no payload */
    if (payload && (size_t)count == sizeof m->h && m->h.length) {
        bool later = m->h.kind == K_MSG; /* received when taken, into the caller's buffer */
        struct msg *whole = msg_get(later ? 0 : m->h.length);
        if (!whole)
            oom();
        whole->h = m->h;
        whole->in_mpi = later;
        msg_put(m);
        if (!later)
            receive_payload(src, &whole->h, whole->data);
        return whole;
    }
    if (payload && m->h.length <= KEEP_SMALL && X.queued >= SLOTS_KEPT) {
        struct msg *small = msg_get(m->h.length);
        if (!small)
            oom();
        memcpy(&small->h, &m->h, sizeof m->h + m->h.length);
        small->in_mpi = false;
        msg_put(m);
        return small;
    }
    return m;
}

static void tell_waiters(void);
static void tell_if_waiting(int k);

/* This node no longer waits for ever (deadlock detection, below). */
static void unblock(void)
{
    if (X.block == MP_BLOCK_NONE)
        return;
    X.block = MP_BLOCK_NONE;
    tell_waiters();
}

static void take_report(int src, const struct hdr *h, const char *payload);

/* Take in everything that has arrived, in the order the receives were
 * posted (the order of each sender's messages). */
static void pump(void)
{
    while (X.posted) {
        int done = 0, count = 0;
        MPI_Status st;
        int i = X.rhead;
        MPI_Test(&X.rreq[i], &done, &st);
        if (!done)
            return;
        MPI_Get_count(&st, MPI_BYTE, &count);
        struct msg *m = X.slot[i];
        X.slot[i] = msg_get(SLOT_DATA); /* post again at once, before a report's payload is waited for */
        if (!X.slot[i])
            oom();
        post_receive(i);
        X.rhead = (i + 1) % NRECV;
        int src = st.MPI_SOURCE + 1;
        m->in_mpi = false;
        m = complete(src, m, count);
        const struct hdr h = m->h;
        if (counted(h.kind)) {
            X.recvd[src]++;
            X.recv_total++;
        }
        if (h.kind == K_MSG) {
            enqueue(src, m);
            continue;
        }
        if (h.kind == K_QUIT)
            X.quit = true;
        else if (h.kind == K_END)
            X.ended[src] = true;
        else if (h.kind == K_FINISH)
            X.finish = true;
        else if (h.kind == K_REPORT)
            take_report(src, &h, m->data);
        else if (h.kind == K_STATE)
            X.told[src] = (uint32_t)h.tag;
        else { /* K_SYNC */
            X.synced[src]++;
            tell_if_waiting(src);
        }
        msg_put(m);
    }
}

/* ---- starting and ending ------------------------------------------------------- */

/* The main node said FINISH (finalize_at_exit), and every other node's
 * END has come (the main node's messages all come before its FINISH): this
 * node has taken in all that was sent to it (a payload left unreceived
 * would hold its sender in MPI_Finalize). */
static bool finished(void *arg)
{
    (void)arg;
    pump();
    if (!X.finish)
        return false;
    for (int k = 2; k <= X.n; k++)
        if (k != X.me && !X.ended[k])
            return false;
    return true;
}

/* Receive and drop the payloads of the messages never taken: their
 * senders wait for them before they finalize. */
static void drain_payloads(void)
{
    if (!X.in)
        return;
    for (int k = 1; k <= X.n; k++)
        for (int c = 0; c < MP_CLASSES; c++)
            for (struct msg *m = X.in[k * MP_CLASSES + c].first; m; m = m->next)
                if (m->in_mpi) {
                    receive_payload(k, &m->h, NULL);
                    m->in_mpi = false;
                }
}

static void finalize_at_exit(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (done || !X.we_inited)
        return;
    stop_if_copy_failed();
    /* MPI_Finalize waits for every rank; a rank waiting there while another
     * aborts the job can leave the launcher hung or crashed (docs/mpi.md, "Vendor notes",
     * finalize-abort).  So a node that has ended enters it only
     * when the main node does, which, exiting after every node's end, says
     * so (FINISH): by then no node can fail any more. */
    if (X.ended_here && X.comm != MPI_COMM_NULL && X.n > 1) {
        if (X.me == 1) {
            notify_all(K_FINISH);
        } else {
            mpi_wait_until(finished, NULL, 0);
        }
    }
    drain_payloads();
    while (in_flight() || X.naside || X.backlog) /* what this node sent must leave before it does */
        progress_sends();
    cancel_receives();
    fflush(NULL);
    lines_flush();
    MPI_Finalize();
}

static void on_fatal_signal(int sig)
{
    char msg[128];
    const char *abbrev = sigabbrev_np(sig);
    int len = snprintf(msg, sizeof msg, "superstep: node %d killed by signal %d (SIG%s)\n", X.me, sig,
                       abbrev ? abbrev : "?");
    if (len > 0)
        (void)!write(2, msg, (size_t)len);
    mpi_die_by_signal(sig);
}

/* MPI_Init, unless the program did: first the watcher, armed only in
 * MPI_Init (mpi_init_library), which keeps the job's line claimed until
 * the launcher ends (mpi_first_to_fail). */
static void init_mpi(void)
{
    int flag = 0;
    MPI_Initialized(&flag);
    if (flag)
        return;
    mpi_watch_start();
    mpi_init_library();
    X.we_inited = true;
    atexit(finalize_at_exit);
}

static void mpi_sync_late(int64_t waited_ns);

static int mpi_start(int n, int *me)
{
    (void)n; /* the job's size: mp_start asked size() */
    *core->launch_words = *core->mp_words; /* a failed MPI_Init names a node */
    init_mpi();
    mpi_fail_arm();
    MPI_Comm_dup(MPI_COMM_WORLD, &X.comm);
    MPI_Comm_size(X.comm, &X.n);
    MPI_Comm_rank(X.comm, &X.me);
    X.me++;
    X.piece = (uint32_t)core->setting_num(SET_MPI_PIECE);
    void *page = mmap(NULL, sizeof *X.copy_code, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED)
        return -ENOMEM;
    X.copy_code = page;
    core->late_arm(&X.late, mpi_sync_late);
    X.watchers = mpi_wait_watchers(X.comm, X.late.period != 0, NULL);
    mpi_wait_decide(X.comm);
    if (!X.watchers)
        return -ENOMEM;
    X.telling = memchr(X.watchers, 1, (size_t)X.n) != NULL;
    X.in = calloc((size_t)(X.n + 1) * MP_CLASSES, sizeof *X.in);
    X.ended = calloc((size_t)X.n + 1, sizeof *X.ended);
    X.synced = calloc((size_t)X.n + 1, sizeof *X.synced);
    X.sent = calloc((size_t)X.n + 1, sizeof *X.sent);
    X.recvd = calloc((size_t)X.n + 1, sizeof *X.recvd);
    X.told = calloc((size_t)X.n + 1, sizeof *X.told);
    if (!X.in || !X.ended || !X.synced || !X.sent || !X.recvd || !X.told)
        return -ENOMEM;
    X.detect = X.n > 1 && X.n <= DETECT_MAX;
    if (X.detect && X.me == 1) {
        size_t pairs = (size_t)(X.n + 1) * (size_t)(X.n + 1);
        X.d_state = calloc((size_t)X.n + 1, sizeof *X.d_state);
        X.d_sent = calloc(pairs, sizeof *X.d_sent);
        X.d_recvd = calloc(pairs, sizeof *X.d_recvd);
        if (!X.d_state || !X.d_sent || !X.d_recvd)
            return -ENOMEM;
    }
    post_receives();
    core->launch_catch_fatal_signals(on_fatal_signal);
    /* Output: whole lines, paced, so that nodes' lines never mix (as on
     * the mpi device: lines.c). */
    lines_whole();
    *me = X.me;
    return 0;
}

static int mpi_size(void)
{
    int n = 0;
    init_mpi();
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

/* Pump before a look at the FIFOs (mp.c's find asks quitting() first, and
 * head() does not pump): what a report says was received is what that
 * look saw. */
static void look(void)
{
    pump();
    X.look_recv = X.recv_total;
}

static bool mpi_quitting(void)
{
    look();
    if (X.quit)
        unblock();
    return X.quit;
}

static bool mpi_ended(int node)
{
    pump();
    return node == X.me ? false : X.ended[node];
}

/* A message waits to be received; sends in flight progress meanwhile
 * (only while this node calls MPI). */
static bool message_waits(void *arg)
{
    (void)arg;
    int any = 0; /* the oldest receive posted ahead is done (not taken: pump takes it) */
    MPI_Request_get_status(X.rreq[X.rhead], &any, MPI_STATUS_IGNORE);
    if (!any && (in_flight() || X.naside || X.backlog))
        progress_sends();
    return any;
}

/* Wait a little while (at most ~100 ms, not past the deadline, -1: none)
 * for something to arrive, in the one wait (src/mpi/mpi_wait.c); false
 * when the deadline passed. */
static bool poll_wait(int64_t deadline)
{
    int64_t until = core->now_ns() + 100000000ll;
    if (deadline >= 0 && deadline < until)
        until = deadline > 0 ? deadline : 1; /* mpi_wait_until's 0 is no deadline */
    if (mpi_wait_until(message_waits, NULL, until))
        return true;
    return deadline < 0 || core->now_ns() < deadline;
}

/* ---- deadlock detection ------------------------------------------------------
 *
 * No memory is shared, so the main node (node 1, which runs until it quits:
 * after that no node waits for ever) judges from reports.  Every message
 * that can end a wait (K_MSG, K_SYNC, K_END) is counted per ordered pair:
 * sent[dst] when the sender posts it, recvd[src] when the receiver pumps
 * it (its header: a payload left in MPI is received when the message is
 * taken, by a node that is then no longer waiting, and MPI completes it
 * without the sender's help or with its progress in whatever wait it is).  A node that has waited for ever (a receive or probe without
 * deadline, or mp_sync) for REPORT_AFTER_NS, after find() came back empty,
 * sends the main node a report: what it waits for and its two count
 * vectors; again whenever those changed (it pumped a message that did not
 * end its wait).  A node that ends sends a last report (ended) after its
 * END notices.  Nothing is sent when a wait ends: no traffic while nodes
 * are busy, one report per node per long wait.
 *
 * The main node, itself waiting for ever, calls it a deadlock when every
 * node that has not ended has a report of waiting (no error of mp.c's
 * pending: the node waited for has not ended, ...) and for every pair
 * s -> d (d not ended) the count s reported sent equals the count d
 * reported received (node 1's own counts are current).  Why that is no
 * false positive although reports are of different times: suppose some
 * node k acted after its last report (time t_k).  A node waiting for ever
 * leaves its wait only by pumping a counted message, so take the earliest
 * such act after a report, k pumping m from s.  If s sent m before its
 * report t_s (or s is node 1), s's sent count has m while k's received
 * count, of t_k, has not (the pair's messages arrive in order): unequal.
 * If s sent m after t_s, s acted after its report before k did: not the
 * earliest.  So at the check no node has moved since its report, all wait,
 * and equal counts mean nothing is in flight: nothing can ever end a wait.
 * To be safe against a bug in that reasoning the state must hold, with no
 * report or message arriving in between, at two checks CHECK_EVERY_NS apart. */

static void block_as(uint32_t what)
{
    /* A message taken in since the last wait ends that wait: blocked
     * since now (else a node in a long ping-pong, never unblocked by a
     * deadline or mp_sync, reports at every wait after REPORT_AFTER_NS). */
    bool changed = X.block != what;
    if (changed || X.recv_total != X.block_recv)
        X.block_since = core->now_ns();
    X.block = what;
    X.block_recv = X.recv_total;
    if (changed)
        tell_waiters();
}

/* Tell the main node what this node waits for, with its counts. */
static void report(uint32_t state)
{
    size_t n = (size_t)X.n, len = 2 * n * sizeof(uint64_t);
    uint64_t *v = malloc(len);
    if (!v)
        oom();
    memcpy(v, X.sent + 1, n * sizeof *v);
    memcpy(v + n, X.recvd + 1, n * sizeof *v);
    if (!send_to(1, K_REPORT, MP_CLASS_SYSTEM, (int)state, v, len))
        oom();
    free(v);
    X.reported = true;
    X.rep_block = state;
    X.rep_sent = X.sent_total;
    X.rep_recv = X.recv_total;
}

/* A node other than the main one, waiting for ever: report once it has
 * waited REPORT_AFTER_NS, and again when its state has changed since. */
static void maybe_report(void)
{
    if (!X.detect || X.me == 1 || X.block == MP_BLOCK_NONE || core->now_ns() - X.block_since < REPORT_AFTER_NS)
        return;
    if (X.recv_total != X.look_recv) /* pumped after the look: look again first */
        return;
    if (X.reported && X.rep_block == X.block && X.rep_sent == X.sent_total && X.rep_recv == X.recv_total)
        return;
    report(X.block);
}

static void take_report(int src, const struct hdr *h, const char *payload)
{
    if (!X.d_state || h->length != 2 * (uint64_t)X.n * sizeof(uint64_t))
        return;
    size_t row = (size_t)src * (size_t)(X.n + 1) + 1;
    memcpy(&X.d_sent[row], payload, (size_t)X.n * sizeof(uint64_t));
    memcpy(&X.d_recvd[row], payload + (size_t)X.n * sizeof(uint64_t), (size_t)X.n * sizeof(uint64_t));
    X.d_state[src] = (uint32_t)h->tag;
    X.d_reports++;
}

static uint32_t state_of(int k)
{
    return k == 1 ? X.block : X.d_state[k];
}

static bool gone(int k)
{
    return k != 1 && (X.d_state[k] == MP_BLOCK_ENDED || X.ended[k]);
}

/* Could mp.c end node k's wait with an error of its own (the node it
 * waits for has ended, ...)?  Then it is not a deadlock, mp.c reports. */
static bool own_error(int k, uint32_t b)
{
    if (b >= MP_BLOCK_FROM)
        return (int)(b - MP_BLOCK_FROM) != k && gone((int)(b - MP_BLOCK_FROM));
    bool some = false, all = true; /* of the other nodes (node 1 never has ended here) */
    for (int j = 1; j <= X.n; j++)
        if (j != k) {
            some = some || gone(j);
            all = all && gone(j);
        }
    return b == MP_BLOCK_SYNC ? some : all;
}

static uint64_t sent_by(int s, int d)
{
    return s == 1 ? X.sent[d] : X.d_sent[(size_t)s * (size_t)(X.n + 1) + (size_t)d];
}

static uint64_t recvd_by(int d, int s)
{
    return d == 1 ? X.recvd[s] : X.d_recvd[(size_t)d * (size_t)(X.n + 1) + (size_t)s];
}

/* Every node that has not ended waits for ever, by its last report, and
 * nothing counted is in flight by the reported counts. */
static bool all_stuck(void)
{
    for (int d = 1; d <= X.n; d++) {
        if (gone(d))
            continue;
        uint32_t b = state_of(d);
        if (b == MP_BLOCK_NONE || b == MP_BLOCK_ENDED || own_error(d, b))
            return false;
        for (int s = 1; s <= X.n; s++)
            if (s != d && sent_by(s, d) != recvd_by(d, s))
                return false;
    }
    return true;
}

static uint32_t reported_state(int k)
{
    return gone(k) ? MP_BLOCK_ENDED : state_of(k);
}

/* The main node, waiting for ever: look for a deadlock (above). */
static void check_deadlock(void)
{
    if (!X.d_state || X.block == MP_BLOCK_NONE || X.quit || X.recv_total != X.look_recv)
        return;
    int64_t now = core->now_ns();
    if (now - X.block_since < CHECK_EVERY_NS || now - X.d_checked < CHECK_EVERY_NS)
        return;
    X.d_checked = now;
    if (!all_stuck()) {
        X.suspect = false;
        return;
    }
    uint64_t stamp = X.d_reports + X.recv_total;
    if (X.suspect && stamp == X.suspect_stamp && now - X.suspect_at >= CHECK_EVERY_NS) {
        char msg[1024];
        core->mp_deadlock_line(msg, sizeof msg, X.n, reported_state);
        mpi_fail_mp(1, msg);
    }
    if (!X.suspect || stamp != X.suspect_stamp) {
        X.suspect = true;
        X.suspect_stamp = stamp;
        X.suspect_at = now;
    }
}

/* Waiting for ever as 'what' (after a look that found nothing): report or
 * check, then poll a while. */
static void wait_blocked(uint32_t what)
{
    block_as(what);
    maybe_report();
    if (X.me == 1)
        check_deadlock();
    poll_wait(-1);
}

/* The transport's wait (mp.c, between looks for a message). */
static bool mpi_wait(int src, int64_t deadline)
{
    if (deadline >= 0) { /* a wait with a deadline ends by itself */
        unblock();
        return poll_wait(deadline);
    }
    wait_blocked(src ? MP_BLOCK_FROM + (uint32_t)src : MP_BLOCK_ANY);
    return true;
}

/* ---- SUPERSTEP_STALL_TIMEOUT in mp_sync ----------------------------------------
 *
 * A node waiting in mp_sync longer than the setting names the nodes that
 * have not come and still compute: not blocked in a call (those that wait
 * for ever are the deadlock detection's; a wait with a deadline ends by
 * itself, so it counts as computing, as on shm).  Nothing is asked: while
 * the setting is on, a node tells each node waiting in an mp_sync it has
 * not come to what it waits for, whenever that changes and when such a
 * node's SYNC arrives, so the waiting node knows at its deadline.  What a
 * node tells for one mp_sync arrives before its own SYNC (one sender's
 * messages keep their order), and the waiting node forgets it all before
 * sending the next SYNC, which alone can bring news for that one. */

/* Node k waits in an mp_sync this node has not come to. */
static bool waits_for_me(int k)
{
    return k != X.me && X.synced[k] > X.syncs;
}

static void tell(int k)
{
    post_header(k, (struct hdr){ K_STATE, MP_CLASS_SYSTEM, (int32_t)X.block, 0, 0 });
}

static void tell_waiters(void)
{
    for (int k = 1; X.telling && k <= X.n; k++)
        if (waits_for_me(k))
            tell(k);
}

/* Node k's SYNC came: tell it if this node waits for ever meanwhile. */
static void tell_if_waiting(int k)
{
    if (X.telling && X.block != MP_BLOCK_NONE && waits_for_me(k))
        tell(k);
}

static bool sync_done(void)
{
    for (int k = 1; k <= X.n; k++)
        if (k != X.me && X.synced[k] < X.syncs)
            return false;
    return true;
}

/* The lowest watching node among those waiting in this mp_sync reports:
 * nodes whose periods end together print one line, also on several
 * machines; the others wait on for the job's stop. */
static bool reports_here(void)
{
    for (int k = 1; k < X.me; k++)
        if (X.watchers[k - 1] && X.synced[k] >= X.syncs)
            return false;
    return true;
}

static bool computing(uint32_t node)
{
    int k = (int)node;
    return k != X.me && X.synced[k] < X.syncs && !X.ended[k] && X.told[k] == MP_BLOCK_NONE;
}

static void mpi_sync_late(int64_t waited_ns)
{
    if (reports_here())
        core->mp_sync_stalled(&X.late, waited_ns, X.n, computing);
}

static int mpi_sync(void)
{
    unblock();
    X.syncs++;
    memset(X.told, 0, ((size_t)X.n + 1) * sizeof *X.told); /* MP_BLOCK_NONE */
    notify_all(K_SYNC);
    struct late_timer late;
    core->late_start(&late, &X.late, core->now_ns());
    for (;;) {
        stop_if_copy_failed(); /* a copy may fail while this node waits here */
        look();
        int gone_node = 0;
        for (int k = 1; k <= X.n; k++)
            if (k != X.me && X.synced[k] < X.syncs && X.ended[k])
                gone_node = k;
        if (sync_done()) {
            unblock();
            return MP_SYNC_OK;
        }
        /* The main node's quit ends this sync only if the main node did
         * not meet it: once its SYNC came (before its QUIT: one sender's
         * messages keep their order), every node had entered the sync and
         * their SYNCs, sent before anything else, are on their way. */
        if (X.quit && X.synced[1] < X.syncs) {
            unblock();
            return MP_SYNC_QUIT;
        }
        if (gone_node)
            core->mp_error("mp_sync", "node %d has already ended (mp_quit), so not every node can meet", gone_node);
        core->late_check(&late, core->now_ns());
        wait_blocked(MP_BLOCK_SYNC);
    }
}

static void mpi_end(void)
{
    stop_if_copy_failed();
    if (!mpi_watch_intact())
        core->mp_error("mp_quit", "%s", MPI_WATCH_CLOSED);
    unblock();
    if (X.me == 1) {
        notify_all(K_QUIT);
        for (int k = 2; k <= X.n; k++)
            while (!X.ended[k]) {
                pump();
                if (!X.ended[k])
                    poll_wait(-1);
            }
    } else {
        /* The final counts, the END notices included, go before the ENDs:
         * node 1 takes in everything sent before the END it waits for, so
         * this report never stays unreceived (a long one could not leave). */
        if (X.detect) {
            for (int k = 1; k <= X.n; k++)
                X.sent[k] += k != X.me;
            report(MP_BLOCK_ENDED);
            for (int k = 1; k <= X.n; k++)
                X.sent[k] -= k != X.me;
        }
        notify_all(K_END);
    }
    X.ended_here = true;
}

/* ---- the FIFOs --------------------------------------------------------------- */

static bool mpi_send(int dst, int cls, int tag, const void *data, size_t length)
{
    unblock();
    if (dst == X.me) { /* to itself: straight into its FIFO */
        struct msg *m = msg_get(length);
        if (!m)
            return false;
        m->h = (struct hdr){ K_MSG, (uint32_t)cls, tag, 0, length };
        m->in_mpi = false;
        if (length)
            memcpy(m->data, data, length);
        enqueue(dst, m);
        return true;
    }
    return send_to(dst, K_MSG, cls, tag, data, length);
}

static bool head_of(int src, int cls, struct mp_head *h)
{
    struct msg *m = X.in[src * MP_CLASSES + cls].first;
    if (!m)
        return false;
    *h = (struct mp_head){ .src = src, .cls = cls, .tag = m->h.tag, .kind = MP_HEAD_MSG, .length = m->h.length };
    return true;
}

static bool mpi_head(int src, int cls, struct mp_head *h)
{
    bool found = false;
    if (src)
        found = head_of(src, cls, h);
    for (int i = 0; !src && !found && i < X.n; i++) { /* senders in turn, from the one after the last taken */
        int k = (X.turn[cls] + i) % X.n + 1;
        found = head_of(k, cls, h);
    }
    if (found) /* the wait (if any) is over: mp.c delivers it */
        unblock();
    return found;
}

static void mpi_take(const struct mp_head *h, void *buf)
{
    unblock();
    struct fifo *f = &X.in[h->src * MP_CLASSES + h->cls];
    struct msg *m = f->first;
    f->first = m->next;
    if (!f->first)
        f->last = NULL;
    X.queued--;
    if (m->in_mpi)
        receive_payload(h->src, &m->h, buf);
    else if (m->h.length)
        memcpy(buf, m->data, m->h.length);
    msg_put(m);
    X.turn[h->cls] = h->src % X.n;
}

const struct mp_transport mp_transport_mpi = {
    .name = "mpi",
    .start = mpi_start,
    .size = mpi_size,
    .sync = mpi_sync,
    .send = mpi_send,
    .head = mpi_head,
    .take = mpi_take,
    .quitting = mpi_quitting,
    .ended = mpi_ended,
    .wait = mpi_wait,
    .end = mpi_end,
    .fail = mpi_fail_mp,
    .copy_failed = mpi_copy_failed,
};
