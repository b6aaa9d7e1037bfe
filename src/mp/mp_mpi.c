/*
 * mp_mpi.c - the MPI transport of mp.h: node k is rank k-1 of the job that
 * mpirun started (every node runs the program from main; mp_start finds
 * the others instead of forking them).
 *
 * Every message, of either class, and the transport's own notices (the
 * quit, a node's end, a sync) go to their destination as one MPI message
 * with one tag on a private communicator: a header (kind, class, tag,
 * length), then the payload (a payload over 1 GiB follows in pieces, with
 * a second tag).  Because one tag carries everything, MPI keeps the order
 * of all that one node sends to another, notices included: when a node
 * has seen another's end (or the main node's quit), it has everything that
 * node sent before.  Sends are MPI_Isend of a private copy, at most WINDOW
 * of them at once and the rest in a backlog, so a send never waits for the
 * receiver; finished sends are freed as later calls go by.
 *
 * A receiving node pumps: it takes every message that has arrived (MPI
 * probe, receive) into a FIFO per sender and class, where head/take and
 * the rotation over senders work as on shm.  Waiting polls, sleeping a
 * little longer each round up to 1 ms (MPI has no probe with a time limit).
 *
 * Ending: a node's mp_quit(0) sends an END notice to every node; the main
 * node's first sends QUIT to every node, then waits for every END.  MPI is
 * finalized at exit.  Failures print the line once and MPI_Abort the job.
 */
#include "mp/mp_impl.h"

#include "barrier/barrier.h"
#include "device/lines.h"
#include "device/mpi_fail.h"
#include "launch/launch.h"

#include <errno.h>
#include <mpi.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TAG_MSG 1                /* headers (and payloads up to PIECE) */
#define TAG_PIECE 2              /* the pieces of a payload over PIECE */
#define PIECE (1ull << 30)

enum { K_MSG, K_QUIT, K_END, K_SYNC, K_FINISH };

struct hdr {
    uint32_t kind, cls;
    int32_t tag;
    uint32_t pad;
    uint64_t length;
};

struct msg {                     /* a received message, in its FIFO */
    struct msg *next;
    int tag;
    uint64_t length;
    char data[];
};

struct fifo {
    struct msg *first, *last;
};

/* At most WINDOW sends are in MPI at once; the rest wait, in order, in the
 * backlog.  Open MPI's ob1 walks its whole list of sends it could not start
 * on every progress call: 200 000 posted at once made that quadratic (a
 * send storm took minutes).  The backlog keeps the sender from ever
 * waiting for the receiver, and its order is the order of posting, so
 * MPI's per-tag order between two nodes still holds. */
#define WINDOW 256

struct pending {                 /* a send not yet given to MPI */
    struct pending *next;
    void *buf;
    int count, dst, tag;
    bool owned;
};

static struct {
    MPI_Comm comm;
    bool we_inited;
    int n, me;                   /* nodes, this node (1..n) */
    struct fifo *in;             /* [src * MP_CLASSES + cls], src 1..n */
    bool *ended;                 /* [node]: its END has arrived */
    uint64_t *synced;            /* [node]: syncs it has arrived at */
    uint64_t syncs;              /* syncs this node has arrived at */
    bool quit;                   /* the main node's QUIT has arrived */
    bool ended_here;             /* this node's mp_quit(0) has run */
    bool finish;                 /* the main node's FINISH (it finalizes MPI) has arrived */
    int turn[MP_CLASSES];        /* the rotation over senders for 'any' */
    MPI_Request req[WINDOW];     /* sends in flight, and their buffers */
    void *buf[WINDOW];
    int done[WINDOW];            /* scratch for MPI_Testsome */
    size_t nout;
    struct pending *backlog, *backlog_last; /* sends waiting for room in the window */
} X = { .comm = MPI_COMM_NULL };

static void mpi_fail_mp(int code, const char *msg) __attribute__((noreturn));
static void mpi_fail_mp(int code, const char *msg)
{
    static bool failing;
    if (failing)
        _exit(code);
    failing = true;
    fflush(stdout);
    lines_flush();
    if (mpi_first_to_fail()) { /* one line for the job, as on shm */
        fprintf(stderr, "superstep: %s\n", msg);
        fflush(stderr);
        lines_flush();
    } else { /* the rank that prints aborts the job; one abort is enough
              * (2 s: time enough for it on a loaded machine) */
        struct timespec ts = { 2, 0 };
        nanosleep(&ts, NULL);
    }
    mpi_abort_job(code);
}

static void oom(void)
{
    char msg[64];
    snprintf(msg, sizeof msg, "node %d: out of memory in the MPI transport", X.me);
    mpi_fail_mp(1, msg);
}

/* ---- sending --------------------------------------------------------------- */

/* Free the buffers of sends that have finished. */
static void reap(void)
{
    if (!X.nout)
        return;
    int ndone = 0;
    MPI_Testsome((int)X.nout, X.req, &ndone, X.done, MPI_STATUSES_IGNORE);
    size_t k = 0;
    for (size_t i = 0; i < X.nout; i++) {
        if (X.req[i] == MPI_REQUEST_NULL) {
            free(X.buf[i]);
            continue;
        }
        X.req[k] = X.req[i], X.buf[k] = X.buf[i];
        k++;
    }
    X.nout = k;
}

static void isend(void *buf, int count, int dst, int tag, bool owned)
{
    X.buf[X.nout] = owned ? buf : NULL;
    MPI_Isend(buf, count, MPI_BYTE, dst - 1, tag, X.comm, &X.req[X.nout]);
    X.nout++;
}

/* Reap, then move the backlog into MPI as far as the window allows. */
static void progress_sends(void)
{
    reap();
    while (X.backlog && X.nout < WINDOW) {
        struct pending *p = X.backlog;
        X.backlog = p->next;
        if (!X.backlog)
            X.backlog_last = NULL;
        isend(p->buf, p->count, p->dst, p->tag, p->owned);
        free(p);
    }
}

static void post(void *buf, int count, int dst, int tag, bool owned)
{
    if (!X.backlog && X.nout == WINDOW)
        reap();
    if (!X.backlog && X.nout < WINDOW) {
        isend(buf, count, dst, tag, owned);
        return;
    }
    struct pending *p = malloc(sizeof *p);
    if (!p)
        oom();
    *p = (struct pending){ NULL, buf, count, dst, tag, owned };
    if (X.backlog_last)
        X.backlog_last->next = p;
    else
        X.backlog = p;
    X.backlog_last = p;
    if (X.nout == WINDOW)
        progress_sends();
}

static bool send_to(int dst, uint32_t kind, int cls, int tag, const void *data, size_t length)
{
    bool pieces = length > PIECE - sizeof(struct hdr);
    size_t first = pieces ? 0 : length;
    char *buf = malloc(sizeof(struct hdr) + first);
    if (!buf)
        return false;
    struct hdr h = { kind, (uint32_t)cls, tag, 0, length };
    memcpy(buf, &h, sizeof h);
    if (first)
        memcpy(buf + sizeof h, data, first);
    post(buf, (int)(sizeof h + first), dst, TAG_MSG, true);
    if (pieces) { /* one copy of the whole payload, sent in pieces */
        char *copy = malloc(length);
        if (!copy)
            return false;
        memcpy(copy, data, length);
        for (size_t off = 0; off < length; off += PIECE) {
            size_t k = length - off < PIECE ? length - off : PIECE;
            post(copy + off, (int)k, dst, TAG_PIECE, off + k == length);
        }
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

static void enqueue(int src, const struct hdr *h, MPI_Status *st, const char *first)
{
    struct msg *m = malloc(sizeof *m + h->length);
    if (!m)
        oom();
    m->next = NULL;
    m->tag = h->tag;
    m->length = h->length;
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    if ((size_t)count > sizeof *h) {
        memcpy(m->data, first, (size_t)count - sizeof *h);
    } else {
        for (uint64_t off = 0; off < h->length; off += PIECE) {
            uint64_t k = h->length - off < PIECE ? h->length - off : PIECE;
            MPI_Recv(m->data + off, (int)k, MPI_BYTE, src - 1, TAG_PIECE, X.comm, MPI_STATUS_IGNORE);
        }
    }
    struct fifo *f = &X.in[src * MP_CLASSES + (int)h->cls];
    if (f->last)
        f->last->next = m;
    else
        f->first = m;
    f->last = m;
}

/* Take in everything that has arrived. */
static void pump(void)
{
    for (;;) {
        int any = 0, count = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_MSG, X.comm, &any, &st);
        if (!any)
            return;
        MPI_Get_count(&st, MPI_BYTE, &count);
        char small[256], *buf = (size_t)count <= sizeof small ? small : malloc((size_t)count);
        if (!buf)
            oom();
        MPI_Recv(buf, count, MPI_BYTE, st.MPI_SOURCE, TAG_MSG, X.comm, &st);
        struct hdr h;
        memcpy(&h, buf, sizeof h);
        int src = st.MPI_SOURCE + 1;
        if (h.kind == K_MSG)
            enqueue(src, &h, &st, buf + sizeof h);
        else if (h.kind == K_QUIT)
            X.quit = true;
        else if (h.kind == K_END)
            X.ended[src] = true;
        else if (h.kind == K_FINISH)
            X.finish = true;
        else
            X.synced[src]++;
        if (buf != small)
            free(buf);
    }
}

/* ---- starting and ending ------------------------------------------------------- */

static void finalize_at_exit(void)
{
    int done = 0;
    MPI_Finalized(&done);
    if (done || !X.we_inited)
        return;
    /* MPI_Finalize waits for every rank; a rank waiting there while another
     * aborts the job can leave Open MPI's mpirun hung or crashed (seen with
     * tests/mp/errors sync_ended).  So a node that has ended enters it only
     * when the main node does, which, exiting after every node's end, says
     * so (FINISH): by then no node can fail any more. */
    if (X.ended_here && X.comm != MPI_COMM_NULL && X.n > 1) {
        if (X.me == 1) {
            notify_all(K_FINISH);
        } else {
            for (useconds_t nap = 10; !X.finish; nap = nap < 1000 ? 2 * nap : 1000) {
                pump();
                if (!X.finish)
                    usleep(nap);
            }
        }
    }
    while (X.nout || X.backlog) /* what this node sent must leave before it does */
        progress_sends();
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

static int mpi_start(int n, int *me)
{
    (void)n; /* the job's size: mp_start asked size() */
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag) {
        mpi_init_library();
        X.we_inited = true;
        atexit(finalize_at_exit);
    }
    MPI_Comm_dup(MPI_COMM_WORLD, &X.comm);
    MPI_Comm_size(X.comm, &X.n);
    MPI_Comm_rank(X.comm, &X.me);
    X.me++;
    X.in = calloc((size_t)(X.n + 1) * MP_CLASSES, sizeof *X.in);
    X.ended = calloc((size_t)X.n + 1, sizeof *X.ended);
    X.synced = calloc((size_t)X.n + 1, sizeof *X.synced);
    if (!X.in || !X.ended || !X.synced)
        return -ENOMEM;
    static struct launch_words words = { "node", 1, "mp_quit", false };
    launch_words = words;
    launch_catch_fatal_signals(on_fatal_signal);
    /* Output: whole lines, paced, so that nodes' lines never mix (as on
     * the mpi device: lines.c). */
    lines_whole();
    *me = X.me;
    return 0;
}

static int mpi_size(void)
{
    int flag = 0, n = 0;
    MPI_Initialized(&flag);
    if (!flag) {
        mpi_init_library();
        X.we_inited = true;
        atexit(finalize_at_exit);
    }
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    return n;
}

static bool mpi_quitting(void)
{
    pump();
    return X.quit;
}

static bool mpi_ended(int node)
{
    pump();
    return node == X.me ? false : X.ended[node];
}

/* Wait for a little while for something to arrive: poll with a growing
 * sleep (to 1 ms), at most ~100 ms in all and not past the deadline. */
static bool mpi_wait(int src, int64_t deadline)
{
    (void)src;
    int64_t start = now_ns(), until = start + 100000000ll;
    if (deadline >= 0 && deadline < until)
        until = deadline;
    long nap = 10000;
    for (;;) {
        int any = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_MSG, X.comm, &any, MPI_STATUS_IGNORE);
        if (any)
            return true;
        if (X.nout) /* sends in flight progress only while this node calls MPI */
            progress_sends();
        int64_t now = now_ns();
        if (now >= until)
            return deadline < 0 || now < deadline;
        if (now - start < 50000) { /* a reply often follows within microseconds */
            sched_yield();
            continue;
        }
        struct timespec ts = { 0, nap };
        nanosleep(&ts, NULL);
        if (X.nout)
            nap = 10000;
        else if (nap < 1000000)
            nap *= 2;
    }
}

static int mpi_sync(void)
{
    X.syncs++;
    notify_all(K_SYNC);
    for (;;) {
        pump();
        bool all = true;
        int gone = 0;
        for (int k = 1; k <= X.n; k++) {
            if (k == X.me || X.synced[k] >= X.syncs)
                continue;
            all = false;
            if (X.ended[k])
                gone = k;
        }
        if (all)
            return MP_SYNC_OK;
        if (X.quit)
            return MP_SYNC_QUIT;
        if (gone)
            mp_error("mp_sync", "node %d has already ended (mp_quit), so not every node can meet", gone);
        mpi_wait(0, -1);
    }
}

static void mpi_end(void)
{
    if (X.me == 1) {
        notify_all(K_QUIT);
        for (int k = 2; k <= X.n; k++)
            while (!X.ended[k]) {
                pump();
                if (!X.ended[k])
                    mpi_wait(k, -1);
            }
    } else {
        notify_all(K_END);
    }
    X.ended_here = true;
}

/* ---- the FIFOs --------------------------------------------------------------- */

static bool mpi_send(int dst, int cls, int tag, const void *data, size_t length)
{
    if (dst == X.me) { /* to itself: straight into its FIFO */
        struct hdr h = { K_MSG, (uint32_t)cls, tag, 0, length };
        struct msg *m = malloc(sizeof *m + length);
        if (!m)
            return false;
        m->next = NULL, m->tag = tag, m->length = length;
        if (length)
            memcpy(m->data, data, length);
        struct fifo *f = &X.in[dst * MP_CLASSES + (int)h.cls];
        if (f->last)
            f->last->next = m;
        else
            f->first = m;
        f->last = m;
        return true;
    }
    return send_to(dst, K_MSG, cls, tag, data, length);
}

static bool head_of(int src, int cls, struct mp_head *h)
{
    struct msg *m = X.in[src * MP_CLASSES + cls].first;
    if (!m)
        return false;
    *h = (struct mp_head){ .src = src, .cls = cls, .tag = m->tag, .kind = MP_HEAD_MSG, .length = m->length };
    return true;
}

static bool mpi_head(int src, int cls, struct mp_head *h)
{
    pump();
    if (src)
        return head_of(src, cls, h);
    for (int i = 0; i < X.n; i++) { /* senders in turn, from the one after the last taken */
        int k = (X.turn[cls] + i) % X.n + 1;
        if (head_of(k, cls, h))
            return true;
    }
    return false;
}

static void mpi_take(const struct mp_head *h, void *buf)
{
    struct fifo *f = &X.in[h->src * MP_CLASSES + h->cls];
    struct msg *m = f->first;
    f->first = m->next;
    if (!f->first)
        f->last = NULL;
    if (m->length)
        memcpy(buf, m->data, m->length);
    free(m);
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
};
