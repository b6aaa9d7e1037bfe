/*
 * mpi.c - the mpi device: the processors are the ranks of an MPI job.
 *
 * Every rank runs the program from main (mpirun starts them); processor s is
 * rank s of MPI_COMM_WORLD (of its first P ranks when bsp_begin asks for
 * fewer; the others wait in bsp_begin and leave when the job ends).
 *
 * Streams: write() appends to a private buffer per destination.  An
 * exchange is one MPI_Alltoall of two words per pair (the bytes queued for
 * that destination, and the caller's flags, summed here), then the data: an
 * Isend/Irecv pair for every non-empty pair, in pieces of at most 1 GiB,
 * appended to a private buffer per source (what the caller has not consumed
 * yet stays in front).  An empty superstep is therefore one MPI_Alltoall.
 * The one-sided alternative (MPI_Put into windows over the receive buffers,
 * closed by a fence) measured slower on every size, see bench/RESULTS_mpi.md.
 *
 * There is no shared memory, so nothing is direct: bsp_hpput/bsp_hpget are
 * buffered puts and gets (same semantics), ebsp_get_direct_address returns
 * NULL.  What the BSP layer keeps in the segment for peers to read (the
 * registration tables, the change records) it copies with share(), an
 * MPI_Allgather, at the syncs where registrations change.  Each rank keeps
 * a private segment for its own tables (and ebsp_malloc memory).
 *
 * Failures: launch_fail goes to mpi_fail: the failing rank prints the line
 * (once for the job: ranks that fail together agree by message which one
 * prints), then MPI_Abort stops every rank with the exit status.  A rank
 * that leaves without bsp_end (exit, return from main) reports it from an
 * exit hook; fatal signals are named by a handler that then lets the signal
 * kill the rank, and mpirun stops the others.
 */
#include "device/device.h"

#include "launch/launch.h"

#include <errno.h>
#include <limits.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (1ull << 30)     /* bytes per message: MPI counts are int */
#define TAG_DATA 1
#define TAG_FAIL 0x5350        /* failure notices, on MPI_COMM_WORLD */
#define FAIL_WINDOW_NS 60000000ll /* how long a failing rank listens for a lower one */

struct obuf {                  /* towards one destination */
    char *buf;
    size_t len, cap;
};

struct ibuf {                  /* from one source */
    char *buf;
    size_t pos, len, cap;      /* unread: [pos, len) */
    size_t scan;               /* pre-scan cursor */
};

static struct {
    bool inited;               /* MPI_Init done (by us or the program) */
    bool we_inited;
    bool begun, ended, used;
    int world, wrank;
    MPI_Comm comm;
    uint32_t p, me;
    struct obuf *out;
    struct ibuf *in;
    uint64_t *meta_s, *meta_r; /* 2 per processor: bytes, flags */
    MPI_Request *req;
    size_t nreq, capreq;
} m = { .comm = MPI_COMM_NULL };

/* ---- starting MPI ---------------------------------------------------------- */

static void mpi_init(void)
{
    if (m.inited)
        return;
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag) {
        MPI_Init(NULL, NULL);
        m.we_inited = true;
    }
    m.inited = true;
    MPI_Comm_size(MPI_COMM_WORLD, &m.world);
    MPI_Comm_rank(MPI_COMM_WORLD, &m.wrank);
}

static bool mpi_world(uint32_t *nprocs, uint32_t *me)
{
    mpi_init();
    *nprocs = (uint32_t)m.world;
    *me = (uint32_t)m.wrank;
    return true;
}

/* ---- failures ---------------------------------------------------------------- */

/* Shall this rank print its failure?  Not if another rank said first that it
 * fails, nor if a lower rank says so while this one listens: then exactly
 * one of the ranks that fail together prints (the lowest), as on shm. */
static bool first_to_fail(void)
{
    if (m.world <= 1)
        return true;
    int any = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, TAG_FAIL, MPI_COMM_WORLD, &any, &st);
    if (any)
        return false;
    static int note;
    note = m.wrank;
    for (int r = 0; r < m.world; r++) {
        if (r == m.wrank)
            continue;
        MPI_Request q;
        MPI_Isend(&note, 1, MPI_INT, r, TAG_FAIL, MPI_COMM_WORLD, &q);
        MPI_Request_free(&q);
    }
    int64_t until = now_ns() + FAIL_WINDOW_NS;
    while (now_ns() < until) {
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_FAIL, MPI_COMM_WORLD, &any, &st);
        if (any) {
            if (st.MPI_SOURCE < m.wrank)
                return false;
            int got;
            MPI_Recv(&got, 1, MPI_INT, st.MPI_SOURCE, TAG_FAIL, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            continue;
        }
        struct timespec ts = { 0, 1000000 };
        nanosleep(&ts, NULL);
    }
    return true;
}

/* launch_fail and launch_stopped on this device: print the line (msg; NULL
 * when another processor reports), stop the job with 'code'. */
static void mpi_fail(uint32_t code, const char *msg) __attribute__((noreturn));
static void mpi_fail(uint32_t code, const char *msg)
{
    static bool failing;
    if (failing) /* a failure inside the failure path */
        _exit((int)code);
    failing = true;
    fflush(stdout);
    if (msg && first_to_fail()) {
        fprintf(stderr, "superstep: %s\n", msg);
        fflush(stderr);
    } else if (!msg) {
        /* Another processor reports and aborts the job; give it time. */
        struct timespec ts = { 2, 0 };
        nanosleep(&ts, NULL);
    } else {
        struct timespec ts = { 0, 500000000 };
        nanosleep(&ts, NULL);
    }
    MPI_Abort(MPI_COMM_WORLD, (int)code);
    _exit((int)code);
}

/* A processor leaving the program without bsp_end stops the job. */
static void mpi_on_exit(int status, void *arg)
{
    (void)arg;
    if (!m.begun || m.ended)
        return;
    char msg[256], st[48] = "";
    if (launch_words.steps)
        snprintf(st, sizeof st, " in superstep %llu", (unsigned long long)atomic_load(&job.ls->proc[m.me].step));
    snprintf(msg, sizeof msg, "%s %u exited with status %d%s without calling %s", launch_words.proc,
             m.me + launch_words.first, status, st, launch_words.end_call);
    mpi_fail(LAUNCH_EXIT_ERROR, msg);
}

/* Fatal signals: name the rank, then die by the signal (mpirun stops the
 * others and exits with 128 + signal). */
static void on_fatal_signal(int sig)
{
    char msg[200];
    const char *abbrev = sigabbrev_np(sig);
    int len;
    if (launch_words.steps)
        len = snprintf(msg, sizeof msg, "superstep: %s %u killed by signal %d (SIG%s) in superstep %llu\n",
                       launch_words.proc, m.me + launch_words.first, sig, abbrev ? abbrev : "?",
                       (unsigned long long)atomic_load(&job.ls->proc[m.me].step));
    else
        len = snprintf(msg, sizeof msg, "superstep: %s %u killed by signal %d (SIG%s)\n", launch_words.proc,
                       m.me + launch_words.first, sig, abbrev ? abbrev : "?");
    if (len > 0)
        (void)!write(2, msg, (size_t)len);
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install_fatal_handlers(void)
{
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_fatal_signal;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}

/* ---- begin and end -------------------------------------------------------------- */

static int mpi_begin(uint32_t nprocs, uint32_t *me, void (*setup)(struct segment *))
{
    if (m.used)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: the mpi device runs one bsp_begin ... bsp_end per program "
                                       "(MPI cannot be started twice)");
    mpi_init();
    m.used = true;
    launch_fail_hook = mpi_fail;
    if (nprocs > (uint32_t)m.world)
        launch_fail(LAUNCH_EXIT_ERROR,
                    "bsp_begin: %u processors requested, but the MPI job has %d ranks (start it with mpirun -n %u)",
                    nprocs, m.world, nprocs);
    int color = (uint32_t)m.wrank < nprocs ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, m.wrank, &m.comm);
    if (color == MPI_UNDEFINED) {
        /* Not needed: wait for the job to end, then leave quietly. */
        launch_fail_hook = NULL;
        fflush(NULL);
        MPI_Finalize();
        _exit(0);
    }
    m.p = nprocs;
    m.me = (uint32_t)m.wrank;
    int rc = seg_create(&job.seg, seg_size_from_env(), nprocs);
    if (rc)
        return rc;
    job.nprocs = nprocs;
    job.me = m.me;
    job.starter = false;
    job.ls = launch_setup(&job.seg, nprocs);
    if (!job.ls)
        return -ENOMEM;
    atomic_store(&job.ls->proc[m.me].os_pid, getpid());
    if (setup)
        setup(&job.seg);
    m.out = calloc(nprocs, sizeof *m.out);
    m.in = calloc(nprocs, sizeof *m.in);
    m.meta_s = calloc(2 * (size_t)nprocs, sizeof *m.meta_s);
    m.meta_r = calloc(2 * (size_t)nprocs, sizeof *m.meta_r);
    if (!m.out || !m.in || !m.meta_s || !m.meta_r)
        return -ENOMEM;
    static bool hooked;
    if (!hooked) {
        on_exit(mpi_on_exit, NULL);
        hooked = true;
    }
    install_fatal_handlers();
    m.begun = true;
    m.ended = false;
    *me = m.me;
    return 0;
}

static void mpi_end(void)
{
    for (uint32_t q = 0; q < m.p; q++) {
        free(m.out[q].buf);
        free(m.in[q].buf);
    }
    free(m.out);
    free(m.in);
    free(m.meta_s);
    free(m.meta_r);
    free(m.req);
    m.out = NULL, m.in = NULL, m.meta_s = m.meta_r = NULL, m.req = NULL;
    m.nreq = m.capreq = 0;
    m.ended = true;
    atomic_store(&job.ls->proc[m.me].ended, 1);
    MPI_Comm_free(&m.comm);
    fflush(NULL);
    if (m.we_inited)
        MPI_Finalize();
    launch_fail_hook = NULL;
    static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        signal(sigs[i], SIG_DFL);
    if (m.me != 0) /* as on shm: only processor 0 continues after bsp_end */
        _exit(0);
    seg_detach(&job.seg);
    job.ls = NULL;
}

/* ---- streams -------------------------------------------------------------------- */

static bool reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c *= 2;
    char *b = realloc(*buf, c);
    if (!b)
        return false;
    *buf = b;
    *cap = c;
    return true;
}

static bool mpi_write(uint32_t dst, const void *buf, size_t n)
{
    struct obuf *o = &m.out[dst];
    if (o->len + n > o->cap && !reserve(&o->buf, &o->cap, o->len + n))
        return false;
    memcpy(o->buf + o->len, buf, n);
    o->len += n;
    return true;
}

static void *mpi_claim(uint32_t dst, size_t n)
{
    struct obuf *o = &m.out[dst];
    if (o->len + n > o->cap && !reserve(&o->buf, &o->cap, o->len + n))
        return NULL;
    void *at = o->buf + o->len;
    o->len += n;
    return at;
}

static MPI_Request *new_request(void)
{
    if (m.nreq == m.capreq) {
        size_t c = m.capreq ? 2 * m.capreq : 64;
        MPI_Request *r = realloc(m.req, c * sizeof *r);
        if (!r)
            launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: out of memory for MPI requests");
        m.req = r;
        m.capreq = c;
    }
    return &m.req[m.nreq++];
}

/* Make room for n more bytes from src behind what is still unread. */
static char *in_room(struct ibuf *b, size_t n)
{
    if (b->pos == b->len) {
        b->pos = b->len = 0;
    } else if (b->pos && b->len + n > b->cap) {
        memmove(b->buf, b->buf + b->pos, b->len - b->pos);
        b->len -= b->pos;
        b->pos = 0;
    }
    if (!reserve(&b->buf, &b->cap, b->len + n))
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: out of memory receiving %zu bytes", n);
    char *at = b->buf + b->len;
    b->len += n;
    return at;
}

static void post(bool send, char *buf, uint64_t n, uint32_t peer)
{
    while (n) {
        int c = (int)(n < CHUNK ? n : CHUNK);
        if (send)
            MPI_Isend(buf, c, MPI_BYTE, (int)peer, TAG_DATA, m.comm, new_request());
        else
            MPI_Irecv(buf, c, MPI_BYTE, (int)peer, TAG_DATA, m.comm, new_request());
        buf += c;
        n -= (uint64_t)c;
    }
}

static uint64_t mpi_exchange(uint64_t flags)
{
    uint32_t p = m.p, me = m.me;
    for (uint32_t q = 0; q < p; q++) {
        m.meta_s[2 * q] = m.out[q].len;
        m.meta_s[2 * q + 1] = flags;
    }
    MPI_Alltoall(m.meta_s, 2, MPI_UINT64_T, m.meta_r, 2, MPI_UINT64_T, m.comm);
    uint64_t sum = 0;
    m.nreq = 0;
    for (uint32_t q = 0; q < p; q++) {
        sum += m.meta_r[2 * q + 1] + XFLAG(XF_COUNT);
        uint64_t n = m.meta_r[2 * q];
        if (n && q != me)
            post(false, in_room(&m.in[q], n), n, q);
    }
    for (uint32_t q = 0; q < p; q++)
        if (m.out[q].len && q != me)
            post(true, m.out[q].buf, m.out[q].len, q);
    /* To myself: hand the buffer over when nothing of mine is unread. */
    struct obuf *o = &m.out[me];
    struct ibuf *i = &m.in[me];
    if (o->len) {
        if (i->pos == i->len) {
            char *b = i->buf;
            size_t c = i->cap;
            i->buf = o->buf, i->cap = o->cap, i->pos = 0, i->len = o->len;
            o->buf = b, o->cap = c;
        } else {
            memcpy(in_room(i, o->len), o->buf, o->len);
        }
        o->len = 0;
    }
    if (m.nreq)
        MPI_Waitall((int)m.nreq, m.req, MPI_STATUSES_IGNORE);
    for (uint32_t q = 0; q < p; q++)
        m.out[q].len = 0;
    return sum;
}

static uint64_t mpi_incoming(uint32_t src)
{
    return m.in[src].len - m.in[src].pos;
}

static const void *mpi_peek(uint32_t src, uint64_t limit, size_t *len)
{
    struct ibuf *b = &m.in[src];
    uint64_t left = b->len - b->pos;
    *len = (size_t)(left < limit ? left : limit);
    return b->buf + b->pos;
}

static void mpi_consume(uint32_t src, size_t n)
{
    struct ibuf *b = &m.in[src];
    b->pos += n;
    if (b->pos == b->len)
        b->pos = b->len = 0;
}

static void mpi_scan_begin(uint32_t src)
{
    m.in[src].scan = m.in[src].pos;
}

static void mpi_scan_read(uint32_t src, void *buf, size_t n)
{
    struct ibuf *b = &m.in[src];
    if (n > b->len - b->scan)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: stream from processor %u ended inside a record", src);
    memcpy(buf, b->buf + b->scan, n);
    b->scan += n;
}

static void mpi_scan_skip(uint32_t src, uint64_t n)
{
    struct ibuf *b = &m.in[src];
    if (n > b->len - b->scan)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: stream from processor %u ended inside a record", src);
    b->scan += n;
}

static void mpi_share(void *base, size_t n)
{
    if (m.p > 1)
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, base, (int)n, MPI_BYTE, m.comm);
}

static bool no_direct(uint32_t peer, const struct iovec *local, const struct iovec *remote, size_t n)
{
    (void)peer, (void)local, (void)remote, (void)n;
    return false;
}

struct device device_mpi = {
    .name = "mpi",
    .begin = mpi_begin,
    .end = mpi_end,
    .write = mpi_write,
    .claim = mpi_claim,
    .exchange = mpi_exchange,
    .incoming = mpi_incoming,
    .peek = mpi_peek,
    .consume = mpi_consume,
    .scan_begin = mpi_scan_begin,
    .scan_read = mpi_scan_read,
    .scan_skip = mpi_scan_skip,
    .direct = false,
    .direct_write = no_direct,
    .direct_read = no_direct,
    .world = mpi_world,
    .share = mpi_share,
};
