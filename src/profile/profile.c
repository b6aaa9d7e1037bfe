/*
 * profile.c - per-superstep records and the Chrome trace they become.
 *
 * Storage: one memfd, mapped shared and sparse before bsp_begin forks, so
 * every processor sees it at the same address and nothing is named in the
 * file system.  A header holds a bump pointer and one entry per processor;
 * each processor appends fixed-layout records to a linked list of 1 MiB
 * chunks it takes from the bump pointer.  Only the owner writes a chunk;
 * processor 0 reads them all after the last barrier of bsp_end.
 *
 * Per processor and bsp_sync the record holds the times of: entry, the end
 * of each barrier, the end of serving gets and direct transfers (when the
 * superstep had any), the end, and of the end of each pre-scan; then, for
 * every source that sent it anything, the number of records that carry
 * data, their payload bytes and the stream bytes (payload plus record
 * headers), counted by a pre-scan of the stream after the barrier; then its
 * own direct transfers per peer.
 * Sent bytes are the sum of what the others received from a processor.
 *
 * At bsp_end processor 0 reads every processor's records (from the shared
 * buffer on shm; on a device without shared memory, mpi, each processor
 * sends them to 0 through the device's streams in one more exchange) and
 * trace.c writes the trace.  When the job fails, the starting process
 * writes the supersteps every processor completed (launch_failed_hook), so
 * the trace is kept when a run aborts or a processor dies (on shm).
 */
#include "profile/profile.h"
#include "settings/settings.h"
#include "profile/records.h"

#include "device/device.h"
#include "launch/launch.h"

#include <bsp.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>


static struct {
    char *path;
    int fd;
    char *base;
    struct prof_hdr *hdr;
    uint32_t me, p;
    struct prof_chunk *cur;
    bool full;
    struct prof_rec rec;
    struct prof_src *acc;     /* p entries */
    struct prof_dir *dir;     /* p entries */
    char *buf;                /* record being assembled */
    size_t bufcap;
} pr = { .fd = -1 };

static int64_t prof_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void warn(const char *what)
{
    fprintf(stderr, "superstep: SUPERSTEP_PROFILE: %s; not profiling\n", what);
}

static void drop(void)
{
    if (pr.base)
        munmap(pr.base, PROF_SPACE);
    if (pr.fd >= 0)
        close(pr.fd);
    free(pr.path);
    free(pr.acc);
    free(pr.dir);
    free(pr.buf);
    memset(&pr, 0, sizeof pr);
    pr.fd = -1;
    launch_failed_hook = NULL;
    bsp_observing = false;
}

static void profile_init(int64_t nprocs)
{
    if (pr.base)
        drop();
    const char *path = setting_str(SET_PROFILE);
    if (!path)
        return;
    if (getenv(ENV_SEGMENT_FD)) {
        warn("processors started by exec are not profiled yet");
        return;
    }
    if (nprocs <= 0 || nprocs > 65535)
        return; /* bsp_begin reports the bad count */
    pr.fd = memfd_create("superstep-profile", MFD_CLOEXEC);
    if (pr.fd < 0 || ftruncate(pr.fd, (off_t)PROF_SPACE) != 0) {
        warn(strerror(errno));
        drop();
        return;
    }
    void *m = mmap(NULL, PROF_SPACE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, pr.fd, 0);
    if (m == MAP_FAILED) {
        warn(strerror(errno));
        drop();
        return;
    }
    pr.base = m;
    pr.hdr = m;
    pr.path = strdup(path);
    size_t hsize = sizeof(struct prof_hdr) + (size_t)nprocs * sizeof(struct prof_proc);
    pr.hdr->magic = PROF_MAGIC;
    pr.hdr->size = PROF_SPACE;
    pr.hdr->nprocs = (uint32_t)nprocs;
    pr.hdr->t0 = prof_now();
    atomic_store(&pr.hdr->brk, (hsize + 4095) & ~4095ull);
    bsp_observing = pr.path != NULL;
    if (!bsp_observing)
        drop();
}

static void profile_failed(void);

static void profile_start(uint32_t me, uint32_t nprocs)
{
    if (me >= pr.hdr->nprocs || nprocs != pr.hdr->nprocs) {
        drop();
        return;
    }
    pr.me = me;
    pr.p = nprocs;
    pr.acc = calloc(nprocs, sizeof *pr.acc);
    pr.dir = calloc(nprocs, sizeof *pr.dir);
    if (!pr.acc || !pr.dir) {
        drop();
        return;
    }
    struct prof_proc *pp = &pr.hdr->proc[me];
    pp->t_start = prof_now() - pr.hdr->t0;
    pp->os_pid = (int32_t)getpid();
    memset(&pr.rec, 0, sizeof pr.rec);
    if (dev->share) {
        /* No shared clock base: each rank counts from the end of the
         * collective start, which is the same moment within its skew. */
        pr.hdr->t0 = prof_now();
        pp->t_start = 0;
        launch_failed_hook = profile_failed; /* each rank: the one that reports a failure writes */
    } else if (me == 0) {
        launch_failed_hook = profile_failed;
    }
}

/* ---- recording ----------------------------------------------------------- */

static void *chunk_data(struct prof_chunk *c)
{
    return (char *)c + sizeof *c;
}

static void append(const void *rec, size_t n)
{
    if (pr.full)
        return;
    if (!pr.cur || pr.cur->used + n > PROF_CHUNK - sizeof(struct prof_chunk)) {
        uint64_t size = n + sizeof(struct prof_chunk) > PROF_CHUNK ? n + sizeof(struct prof_chunk) : PROF_CHUNK;
        uint64_t off = atomic_fetch_add(&pr.hdr->brk, size);
        if (off + size > pr.hdr->size) {
            pr.full = true;
            atomic_store(&pr.hdr->truncated, 1);
            return;
        }
        struct prof_chunk *c = (struct prof_chunk *)(pr.base + off);
        c->next = 0;
        c->used = 0;
        if (pr.cur)
            pr.cur->next = off;
        else
            atomic_store_explicit(&pr.hdr->proc[pr.me].head, off, memory_order_relaxed);
        pr.cur = c;
    }
    memcpy((char *)chunk_data(pr.cur) + pr.cur->used, rec, n);
    pr.cur->used += n;
    atomic_store_explicit(&pr.hdr->proc[pr.me].nrec,
                          atomic_load_explicit(&pr.hdr->proc[pr.me].nrec, memory_order_relaxed) + 1,
                          memory_order_release);
}

/* Take stamp 'which' of the bsp_sync in progress (enum ST_*) and publish
 * it for a failed job's trace (struct prof_pending). */
static int64_t stamp(int which)
{
    int64_t t = prof_now() - pr.hdr->t0;
    struct prof_pending *pp = &pr.hdr->proc[pr.me].pending;
    atomic_store_explicit(&pp->at[which], t, memory_order_relaxed);
    atomic_store_explicit(&pp->stage, pr.rec.step * 8 + (uint64_t)which + 1, memory_order_release);
    return t;
}

static void profile_sync_begin(void)
{
    pr.rec.kind = REC_SYNC;
    pr.rec.nwait = 0;
    pr.rec.t_begin = stamp(ST_BEGIN);
    pr.rec.t_wait1 = pr.rec.t_served = pr.rec.t_wait2 = pr.rec.t_scan1 = pr.rec.t_scan2 = 0;
    /* Direct (hp) transfers are done between the barriers and leave no
     * record in the streams: count them from the queue, at the initiator. */
    for (uint32_t i = 0; i < bsp.nhp; i++) {
        const struct hp_op *op = &bsp.hp[i];
        struct prof_dir *d = &pr.dir[op->pid];
        if (op->write) {
            d->put_ops++;
            d->put_bytes += op->nbytes;
        } else {
            d->get_ops++;
            d->get_bytes += op->nbytes;
        }
    }
}

/*
 * Count what 'src' sent up to the last exchange: records that carry data
 * (puts, messages, get replies) and their payload bytes, by a pre-scan of
 * the stream that consumes nothing (as the owner's scan for gets does).
 * Done here rather than in the drain loop so that the loop carries no hook;
 * the cost, one extra pass over the record headers, is paid only when
 * profiling.  A record kind this scan does not know ends the count for that
 * source (its stream bytes are still right) and is flagged in the trace.
 */
/* The pre-scan pulls the stream through a buffer, so that it costs one
 * device call per few KiB rather than three per record. */
#define SCAN_BUF 8192

struct scan {
    uint32_t src;
    uint64_t left;            /* stream bytes not yet pulled */
    size_t pos, have;
    char buf[SCAN_BUF + 64];  /* slack: headers are copied at their largest size */
};

/* At least n (<= SCAN_BUF) bytes at sc->buf + sc->pos, if the stream has them. */
static bool scan_refill(struct scan *sc, size_t n)
{
    size_t rem = sc->have - sc->pos;
    memmove(sc->buf, sc->buf + sc->pos, rem);
    sc->pos = 0;
    sc->have = rem;
    size_t get = SCAN_BUF - rem;
    if (get > sc->left)
        get = (size_t)sc->left;
    if (get) {
        dev->scan_read(sc->src, sc->buf + rem, get);
        sc->have += get;
        sc->left -= get;
    }
    return sc->have >= n;
}

static inline bool scan_need(struct scan *sc, size_t n)
{
    return sc->have - sc->pos >= n || scan_refill(sc, n);
}

static void scan_pass(struct scan *sc, uint64_t n)
{
    size_t in = sc->have - sc->pos;
    if (n <= in) {
        sc->pos += (size_t)n;
        return;
    }
    sc->pos = sc->have;
    dev->scan_skip(sc->src, n - in);
    sc->left -= n - in;
}

static void scan_source(uint32_t src)
{
    static struct scan sc;
    struct prof_src *a = &pr.acc[src];
    uint64_t total = dev->incoming(src);
    a->stream = total;
    a->records = 0;
    a->bytes = 0;
    if (!total)
        return;
    dev->scan_begin(src);
    sc.src = src;
    sc.left = total;
    sc.pos = sc.have = 0;
    while (scan_need(&sc, sizeof(uint32_t))) {
        union { uint32_t kind; struct rec_put put; struct rec_get get; struct rec_reply reply; struct rec_send send; struct rec_small small; } r;
        memcpy(&r.kind, sc.buf + sc.pos, sizeof r.kind);
        size_t head = rec_head_size(r.kind);
        if (!head || !scan_need(&sc, head)) {
            atomic_store(&pr.hdr->unknown, 1);
            return;
        }
        memcpy(&r, sc.buf + sc.pos, sizeof r); /* constant size: inlined; the slack covers it */
        sc.pos += head;
        uint64_t data = rec_data_size(&r);
        if (data > sc.left + (sc.have - sc.pos)) {
            atomic_store(&pr.hdr->unknown, 1);
            return;
        }
        if (REC_KIND(r.kind) != REC_GET) {
            a->records++;
            a->bytes += rec_user_bytes(&r);
        }
        scan_pass(&sc, data);
    }
    if (sc.have != sc.pos)
        atomic_store(&pr.hdr->unknown, 1); /* a partial record at the end */
}

static void profile_sync_waited(void)
{
    bool first = pr.rec.nwait++ == 0;
    if (first)
        pr.rec.t_wait1 = stamp(ST_WAIT1);
    else
        pr.rec.t_wait2 = stamp(ST_WAIT2);
    /* After the second barrier the streams also hold the get replies:
     * count again from the start.  The time this takes is the profiler's
     * own, and gets its own slice. */
    for (uint32_t src = 0; src < pr.p; src++)
        scan_source(src);
    if (first)
        pr.rec.t_scan1 = stamp(ST_SCAN1);
    else
        pr.rec.t_scan2 = stamp(ST_SCAN2);
}

static void profile_sync_served(void)
{
    pr.rec.t_served = stamp(ST_SERVED);
}

static void emit(uint32_t kind)
{
    pr.rec.kind = kind;
    pr.rec.nsrc = 0;
    pr.rec.ndir = 0;
    for (uint32_t q = 0; q < pr.p; q++) {
        if (pr.acc[q].records || pr.acc[q].stream)
            pr.rec.nsrc++;
        if (pr.dir[q].put_ops || pr.dir[q].get_ops)
            pr.rec.ndir++;
    }
    size_t n = sizeof pr.rec + pr.rec.nsrc * sizeof(struct prof_src) + pr.rec.ndir * sizeof(struct prof_dir);
    if (n > pr.bufcap) {
        char *b = realloc(pr.buf, n);
        if (!b) {
            pr.full = true;
            atomic_store(&pr.hdr->truncated, 1);
            return;
        }
        pr.buf = b;
        pr.bufcap = n;
    }
    char *w = pr.buf;
    memcpy(w, &pr.rec, sizeof pr.rec);
    w += sizeof pr.rec;
    for (uint32_t q = 0; q < pr.p; q++) {
        if (pr.acc[q].records || pr.acc[q].stream) {
            pr.acc[q].src = q;
            memcpy(w, &pr.acc[q], sizeof pr.acc[q]);
            w += sizeof pr.acc[q];
        }
    }
    for (uint32_t q = 0; q < pr.p; q++) {
        if (pr.dir[q].put_ops || pr.dir[q].get_ops) {
            pr.dir[q].peer = q;
            memcpy(w, &pr.dir[q], sizeof pr.dir[q]);
            w += sizeof pr.dir[q];
        }
    }
    append(pr.buf, n);
    memset(pr.acc, 0, pr.p * sizeof *pr.acc);
    memset(pr.dir, 0, pr.p * sizeof *pr.dir);
    pr.rec.step++;
}

static void profile_sync_end(void)
{
    pr.rec.t_end = prof_now() - pr.hdr->t0;
    emit(REC_SYNC);
}

static void profile_end_begin(void)
{
    int64_t t = prof_now() - pr.hdr->t0;
    pr.rec.t_begin = pr.rec.t_wait1 = pr.rec.t_served = pr.rec.t_wait2 = pr.rec.t_end = t;
    pr.rec.t_scan1 = pr.rec.t_scan2 = t;
    pr.rec.nwait = 0;
    memset(pr.acc, 0, pr.p * sizeof *pr.acc);
    memset(pr.dir, 0, pr.p * sizeof *pr.dir);
    emit(REC_END);
}

/* ---- the trace (processor 0, after the last barrier, or at a failure) ---- */

/* Processor q's records, read from the shared buffer: all it completed
 * (nrec is published after each record is written). */
static bool view_shared(struct prof_view *v, uint32_t q)
{
    struct prof_proc *pp = &pr.hdr->proc[q];
    uint64_t nrec = atomic_load_explicit(&pp->nrec, memory_order_acquire);
    v->t_start = pp->t_start;
    uint64_t off = atomic_load_explicit(&pp->head, memory_order_acquire);
    while (off && v->nrec < nrec) {
        const struct prof_chunk *c = (const struct prof_chunk *)(pr.base + off);
        if (!prof_view_index(v, (const char *)(c + 1), c->used, nrec - v->nrec))
            return false;
        off = c->next;
    }
    return true;
}

/* Processor q inside the bsp_sync of superstep 'step', its records so far
 * numbering 'step': its stamps as a record (no counts), the times it did
 * not reach equal to the last it took.  False when it is not there.  Read
 * as a sequence lock: processor 0's main thread may still be running. */
static bool read_stopped(uint32_t q, uint64_t step, struct prof_rec *r)
{
    struct prof_proc *pp = &pr.hdr->proc[q];
    int64_t at[ST_STAMPS];
    uint64_t nrec, stage;
    for (;;) {
        nrec = atomic_load_explicit(&pp->nrec, memory_order_acquire);
        stage = atomic_load_explicit(&pp->pending.stage, memory_order_acquire);
        for (int i = 0; i < ST_STAMPS; i++)
            /* acquire, not a fence (which ThreadSanitizer refuses): the
             * second reading below cannot move above these. */
            at[i] = atomic_load_explicit(&pp->pending.at[i], memory_order_acquire);
        if (nrec == atomic_load_explicit(&pp->nrec, memory_order_relaxed) &&
            stage == atomic_load_explicit(&pp->pending.stage, memory_order_relaxed))
            break;
    }
    int taken = (int)(stage % 8);
    if (nrec != step || stage / 8 != step || taken == 0)
        return false;
    for (int i = taken; i < ST_STAMPS; i++)
        at[i] = at[taken - 1];
    *r = (struct prof_rec){ .kind = REC_SYNC, .nwait = taken > ST_SCAN1 + 1 ? 2 : 1, .step = step,
                            .t_begin = at[ST_BEGIN], .t_wait1 = at[ST_WAIT1], .t_scan1 = at[ST_SCAN1],
                            .t_served = at[ST_SERVED], .t_wait2 = at[ST_WAIT2], .t_scan2 = at[ST_SCAN2],
                            .t_end = at[taken - 1] };
    return true;
}

/* A processor that completed a bsp_sync proves that every processor
 * reached it (it passed the barrier), but one that the failure stopped
 * inside that bsp_sync wrote no record of it.  Give each such processor
 * its stamps so far as its last record, marked in 'stopped', so that the
 * superstep is in the trace. */
static bool add_stopped(struct prof_view *v, bool *stopped)
{
    uint64_t least = UINT64_MAX;
    bool completed = false;
    for (uint32_t q = 0; q < pr.p; q++)
        least = v[q].nrec < least ? v[q].nrec : least;
    for (uint32_t q = 0; q < pr.p; q++)
        completed |= v[q].nrec > least && v[q].rec[least]->kind == REC_SYNC;
    for (uint32_t q = 0; completed && q < pr.p; q++)
        completed = v[q].nrec > least || read_stopped(q, least, &v[q].stopped);
    for (uint32_t q = 0; completed && q < pr.p; q++) {
        if (v[q].nrec > least)
            continue;
        const struct prof_rec **rec = realloc(v[q].rec, (least + 1) * sizeof *rec);
        if (!rec)
            return false;
        v[q].rec = rec;
        rec[v[q].nrec++] = &v[q].stopped;
        stopped[q] = true;
    }
    return true;
}

/* Each processor's part of the superstep the failure came in, up to the
 * failure (t_fail), as its last record (REC_FAIL): one that had come to
 * its bsp_sync waited from then on, one still computing computed until the
 * failure, one that the failure stopped inside the previous bsp_sync
 * never came to it (an empty record).  Not when a processor had ended its
 * run: the failure came after the supersteps. */
static bool add_failed_step(struct prof_view *v, const bool *missing, const bool *stopped, int64_t t_fail)
{
    uint64_t step = UINT64_MAX;
    for (uint32_t q = 0; q < pr.p; q++) {
        if (missing && missing[q])
            continue;
        if (v[q].nrec && v[q].rec[v[q].nrec - 1]->kind == REC_END)
            return false;
        if (step != UINT64_MAX && v[q].nrec != step)
            return false; /* a superstep not every processor completed: add_stopped left it out */
        step = v[q].nrec;
    }
    for (uint32_t q = 0; step != UINT64_MAX && q < pr.p; q++) {
        if (missing && missing[q])
            continue;
        const struct prof_rec **rec = realloc(v[q].rec, (step + 1) * sizeof *rec);
        if (!rec)
            return false;
        v[q].rec = rec;
        int64_t prev = step ? rec[step - 1]->t_end : v[q].t_start, end = t_fail > prev ? t_fail : prev, came = end;
        struct prof_rec in_sync;
        if (stopped && stopped[q])
            came = end = prev;
        else if (read_stopped(q, step, &in_sync) && in_sync.t_begin >= prev && in_sync.t_begin < end)
            came = in_sync.t_begin;
        v[q].failed = (struct prof_rec){ .kind = REC_FAIL, .step = step, .t_begin = came, .t_end = end };
        rec[v[q].nrec++] = &v[q].failed;
    }
    return true;
}

static uint64_t detail_limit(void)
{
    return setting_num(SET_PROFILE_STEPS);
}

static void write_file(struct prof_view *v, bool failed, const bool *missing, const bool *stopped,
                       const char *failure, bool failed_step)
{
    /* Close-on-exec: a thread of the program may exec meanwhile.  Non-
     * blocking: opening a FIFO waits for ever for a reader, else. */
    int fd = open(pr.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NONBLOCK, 0666);
    if (fd < 0 && errno == ENXIO) {
        fprintf(stderr, "superstep: SUPERSTEP_PROFILE: %s is a FIFO with no reader; no trace written\n", pr.path);
        return;
    }
    FILE *f = fd >= 0 && fcntl(fd, F_SETFL, 0) == 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        fprintf(stderr, "superstep: SUPERSTEP_PROFILE: cannot write %s: %s\n", pr.path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return;
    }
    static char iobuf[1 << 16];
    setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
    struct trace_info info = { .p = pr.p,
                               .truncated = atomic_load(&pr.hdr->truncated),
                               .unknown = atomic_load(&pr.hdr->unknown),
                               .failed = failed,
                               .missing = missing,
                               .stopped = stopped,
                               .failure = failure,
                               .failed_step = failed_step,
                               .detail = detail_limit() };
    trace_write(f, v, &info);
    if (fclose(f) != 0)
        fprintf(stderr, "superstep: SUPERSTEP_PROFILE: error writing %s: %s\n", pr.path, strerror(errno));
}

static void free_views(struct prof_view *v, uint32_t p)
{
    for (uint32_t q = 0; v && q < p; q++)
        free(v[q].rec);
    free(v);
}

/* The processors whose records are lost, as "1, 2, 3" (at most ~200 bytes). */
static void list_missing(const bool *missing, char *out, size_t size)
{
    size_t len = 0;
    out[0] = 0;
    for (uint32_t q = 0, n = 0; q < pr.p && len < size; q++) {
        if (!missing[q])
            continue;
        if (len > size - 16) {
            snprintf(out + len, size - len, ", ...");
            break;
        }
        len += (size_t)snprintf(out + len, size - len, "%s%u", n++ ? ", " : "", q);
    }
}

/* After a failure (launch_failed_hook).  On shm, in the starting process
 * once every other processor is stopped: the supersteps every processor
 * completed.  On mpi, in the rank that reports the failure, just before it
 * aborts the job: the ranks share no memory and the others are about to
 * be stopped, so only this rank's records can be written; the trace says
 * which processors' records are missing ("missing" in otherData). */
static void profile_failed(void)
{
    launch_failed_hook = NULL;
    if (!bsp_observing || !pr.p)
        return;
    struct prof_view *v = calloc(pr.p, sizeof *v);
    bool *missing = dev->share ? calloc(pr.p, sizeof *missing) : NULL;
    bool *stopped = calloc(pr.p, sizeof *stopped);
    bool ok = v != NULL && stopped != NULL && (missing || !dev->share);
    for (uint32_t q = 0; ok && q < pr.p; q++) {
        if (missing && q != pr.me)
            missing[q] = true;
        else
            ok = view_shared(&v[q], q);
    }
    if (ok && !missing)
        ok = add_stopped(v, stopped);
    int64_t failed_at = 0;
    const char *line = launch_failure_line(&failed_at);
    bool failed_step = ok && add_failed_step(v, missing, stopped, (failed_at ? failed_at : prof_now()) - pr.hdr->t0);
    if (ok)
        write_file(v, true, missing, stopped, line, failed_step);
    if (ok && launch_takes_output(2)) {
        if (missing && pr.p > 1) {
            char lost[224];
            list_missing(missing, lost, sizeof lost);
            fprintf(stderr, "superstep: SUPERSTEP_PROFILE: the job failed; %s holds the supersteps processor %u "
                            "completed (partial: the records of processor%s %s are lost on mpi)\n",
                    pr.path, pr.me, pr.p > 2 ? "s" : "", lost);
        } else if (failed_step) {
            fprintf(stderr, "superstep: SUPERSTEP_PROFILE: the job failed in superstep %llu; %s holds the "
                            "supersteps up to the failure\n",
                    (unsigned long long)(v[0].nrec - 1), pr.path);
        } else {
            fprintf(stderr, "superstep: SUPERSTEP_PROFILE: the job failed; %s holds the supersteps it completed\n",
                    pr.path);
        }
    }
    free_views(v, pr.p);
    free(missing);
    free(stopped);
}

/* ---- gathering where processors share no memory (mpi) -------------------- */

struct gather_head {
    uint64_t magic, nrec, bytes;
};

/* n bytes from what 'src' sent, across the device's pieces. */
static void stream_take(uint32_t src, void *buf, size_t n)
{
    char *at = buf;
    while (n) {
        size_t len;
        const void *p = dev->peek(src, n, &len);
        if (!p || !len)
            return;
        memcpy(at, p, len);
        dev->consume(src, len);
        at += len;
        n -= len;
    }
}

static void send_records(void)
{
    struct prof_proc *pp = &pr.hdr->proc[pr.me];
    struct gather_head h = { PROF_MAGIC, atomic_load(&pp->nrec), 0 };
    for (uint64_t off = pp->head; off; off = ((struct prof_chunk *)(pr.base + off))->next)
        h.bytes += ((struct prof_chunk *)(pr.base + off))->used;
    bool ok = dev->write(0, &h, sizeof h);
    for (uint64_t off = pp->head; ok && off; off = ((struct prof_chunk *)(pr.base + off))->next) {
        const struct prof_chunk *c = (const struct prof_chunk *)(pr.base + off);
        ok = dev->write(0, c + 1, c->used);
    }
}

/* Every processor's records to processor 0 through the streams, in one
 * exchange after bsp_end's (so every processor is known to be there). */
static void gather(struct prof_view *v, char **bufs)
{
    if (pr.me == 0)
        for (uint32_t src = 0; src < pr.p; src++) /* anything bsp_end left unread */
            while (dev->incoming(src)) {
                size_t len;
                dev->peek(src, dev->incoming(src), &len);
                dev->consume(src, len);
            }
    if (pr.me != 0)
        send_records();
    dev->exchange(0);
    if (pr.me != 0)
        return;
    for (uint32_t src = 1; src < pr.p; src++) {
        struct gather_head h = { 0, 0, 0 };
        if (dev->incoming(src) < sizeof h)
            continue;
        stream_take(src, &h, sizeof h);
        if (h.magic != PROF_MAGIC || h.bytes > dev->incoming(src) || !(bufs[src] = malloc(h.bytes ? h.bytes : 1)))
            continue;
        stream_take(src, bufs[src], h.bytes);
        prof_view_index(&v[src], bufs[src], h.bytes, h.nrec);
    }
}

static void profile_finish(uint32_t nprofiling)
{
    launch_failed_hook = NULL;
    struct prof_view *v = calloc(pr.p, sizeof *v);
    char **bufs = calloc(pr.p, sizeof *bufs);
    if (nprofiling != pr.p) {
        if (pr.me == 0)
            fprintf(stderr, "superstep: SUPERSTEP_PROFILE: set for %u of the %u processors only (under mpirun, "
                            "pass it to every rank: mpirun -x SUPERSTEP_PROFILE); no trace written\n",
                    nprofiling, pr.p);
    } else if (v && bufs) {
        if (dev->share) {
            gather(v, bufs);
            if (pr.me == 0)
                view_shared(&v[0], 0);
        } else if (pr.me == 0) {
            for (uint32_t q = 0; q < pr.p; q++)
                view_shared(&v[q], q);
        }
        if (pr.me == 0)
            write_file(v, false, NULL, NULL, NULL, false);
    }
    free_views(v, pr.p);
    for (uint32_t q = 0; bufs && q < pr.p; q++)
        free(bufs[q]);
    free(bufs);
    drop();
}

const struct bsp_observer profile_observer = {
    .init = profile_init,
    .start = profile_start,
    .sync_begin = profile_sync_begin,
    .sync_waited = profile_sync_waited,
    .sync_served = profile_sync_served,
    .sync_end = profile_sync_end,
    .end_begin = profile_end_begin,
    .finish = profile_finish,
};

/* The BSP layer calls whichever observer is installed; there is one. */
__attribute__((constructor)) static void profile_install(void)
{
    bsp_observer = &profile_observer;
}
