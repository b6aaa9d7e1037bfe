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
 * Slices per processor and superstep k: "superstep k" (from the end of the
 * previous sync, or bsp_begin, to the end of this one) holding "compute",
 * "sync wait" (the barrier), "profiler" (this file counting the incoming
 * records: only when profiling, and kept out of the other slices), and for
 * supersteps with gets or hp transfers "gets/direct", "sync wait 2" and a
 * second "profiler", then "communication" (applying what arrived).
 *
 * Trace: pid 1 is the job, tid s+1 is processor s (Perfetto treats pid or
 * tid 0 specially).  Times are microseconds since bsp_begin, written from
 * integer nanoseconds with three decimals, so nested slices nest exactly.
 */
#include "profile/profile.h"
#include "settings/settings.h"

#include "bsp/bsp_impl.h"
#include "device/device.h"
#include "launch/launch.h"

#include <bsp.h>

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

bool profile_on;

#define PROF_MAGIC 0x53535450524f4631ull /* "SSTPROF1" */
#define PROF_SPACE (64ull << 30)         /* sparse reservation */
#define PROF_CHUNK (1ull << 20)

enum { REC_SYNC = 1, REC_END = 2 };

struct prof_proc {
    _Atomic uint64_t head;    /* offset of the first chunk, 0: none */
    _Atomic uint64_t nrec;    /* records written */
    int64_t t_start;          /* when bsp_begin returned here */
    int32_t os_pid;
    _Atomic uint32_t done;    /* published at bsp_end */
};

struct prof_hdr {
    uint64_t magic;
    _Atomic uint64_t brk;
    uint64_t size;
    int64_t t0;               /* CLOCK_MONOTONIC ns at bsp_begin */
    uint32_t nprocs;
    _Atomic uint32_t truncated;
    _Atomic uint32_t unknown;     /* a record kind the scan does not know */
    uint32_t pad;
    struct prof_proc proc[];
};

struct prof_chunk {
    uint64_t next;
    uint64_t used;            /* bytes of records after this header */
};

struct prof_rec {
    uint32_t kind;
    uint32_t nsrc;            /* struct prof_src entries that follow */
    uint32_t ndir;            /* then struct prof_dir entries */
    uint32_t nwait;           /* barriers passed in this sync (1 or 2) */
    uint64_t step;
    int64_t t_begin, t_wait1, t_served, t_wait2, t_end;
    int64_t t_scan1, t_scan2; /* end of the profiler's own counting after each barrier */
};

struct prof_src {
    uint32_t src, records;
    uint64_t bytes, stream;
};

struct prof_dir {
    uint32_t peer, pad;
    uint64_t put_bytes, put_ops, get_bytes, get_ops;
};

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
    profile_on = false;
}

void profile_init(int64_t nprocs)
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
    profile_on = pr.path != NULL;
    if (!profile_on)
        drop();
}

void profile_start(uint32_t me, uint32_t nprocs)
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
                          memory_order_relaxed);
}

void profile_sync_begin(void)
{
    pr.rec.kind = REC_SYNC;
    pr.rec.nwait = 0;
    pr.rec.t_begin = prof_now() - pr.hdr->t0;
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
            a->bytes += data;
        }
        scan_pass(&sc, data);
    }
    if (sc.have != sc.pos)
        atomic_store(&pr.hdr->unknown, 1); /* a partial record at the end */
}

void profile_sync_waited(void)
{
    int64_t t = prof_now() - pr.hdr->t0;
    bool first = pr.rec.nwait++ == 0;
    if (first)
        pr.rec.t_wait1 = t;
    else
        pr.rec.t_wait2 = t;
    /* After the second barrier the streams also hold the get replies:
     * count again from the start.  The time this takes is the profiler's
     * own, and gets its own slice. */
    for (uint32_t src = 0; src < pr.p; src++)
        scan_source(src);
    t = prof_now() - pr.hdr->t0;
    if (first)
        pr.rec.t_scan1 = t;
    else
        pr.rec.t_scan2 = t;
}

void profile_sync_served(void)
{
    pr.rec.t_served = prof_now() - pr.hdr->t0;
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

void profile_sync_end(void)
{
    pr.rec.t_end = prof_now() - pr.hdr->t0;
    emit(REC_SYNC);
}

void profile_end_begin(void)
{
    int64_t t = prof_now() - pr.hdr->t0;
    pr.rec.t_begin = pr.rec.t_wait1 = pr.rec.t_served = pr.rec.t_wait2 = pr.rec.t_end = t;
    pr.rec.t_scan1 = pr.rec.t_scan2 = t;
    pr.rec.nwait = 0;
    memset(pr.acc, 0, pr.p * sizeof *pr.acc);
    memset(pr.dir, 0, pr.p * sizeof *pr.dir);
    emit(REC_END);
    atomic_store_explicit(&pr.hdr->proc[pr.me].done, 1, memory_order_release);
}

/* ---- the merge (processor 0, after the last barrier) --------------------- */

struct view {
    const struct prof_rec **rec;  /* nrec per processor */
    uint64_t nrec;
    int64_t t_start;
};

static const struct prof_src *rec_src(const struct prof_rec *r)
{
    return (const struct prof_src *)(r + 1);
}

static const struct prof_dir *rec_dir(const struct prof_rec *r)
{
    return (const struct prof_dir *)(rec_src(r) + r->nsrc);
}

static bool load(struct view *v, uint32_t q)
{
    struct prof_proc *pp = &pr.hdr->proc[q];
    v->nrec = atomic_load_explicit(&pp->done, memory_order_acquire) ? atomic_load(&pp->nrec) : 0;
    v->t_start = pp->t_start;
    v->rec = calloc(v->nrec ? v->nrec : 1, sizeof *v->rec);
    if (!v->rec)
        return false;
    uint64_t off = atomic_load(&pp->head), k = 0;
    while (off && k < v->nrec) {
        const struct prof_chunk *c = (const struct prof_chunk *)(pr.base + off);
        const char *d = (const char *)(c + 1), *e = d + c->used;
        while (d < e && k < v->nrec) {
            const struct prof_rec *r = (const struct prof_rec *)d;
            v->rec[k++] = r;
            d += sizeof *r + r->nsrc * sizeof(struct prof_src) + r->ndir * sizeof(struct prof_dir);
        }
        off = c->next;
    }
    v->nrec = k;
    return true;
}

struct flow {
    uint64_t bytes_out, bytes_in, rec_out, rec_in, stream_out, stream_in, direct_out, direct_in;
};

static void us(FILE *f, int64_t ns)
{
    if (ns < 0) {
        fputc('-', f);
        ns = -ns;
    }
    fprintf(f, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
}

static bool first_event;

static void slice(FILE *f, const char *name, uint32_t s, int64_t t0, int64_t t1, uint64_t step)
{
    fputs(first_event ? "\n" : ",\n", f);
    first_event = false;
    fprintf(f, "{\"name\":\"%s\",\"cat\":\"bsp\",\"ph\":\"X\",\"pid\":1,\"tid\":%u,\"ts\":", name, s + 1);
    us(f, t0);
    fputs(",\"dur\":", f);
    us(f, t1 > t0 ? t1 - t0 : 0);
    fprintf(f, ",\"args\":{\"step\":%llu", (unsigned long long)step);
}

static void write_trace(FILE *f)
{
    uint32_t p = pr.p;
    struct view *v = calloc(p, sizeof *v);
    struct flow *fl = calloc(p, sizeof *fl);
    if (!v || !fl) {
        free(v);
        free(fl);
        return;
    }
    uint64_t nsteps = UINT64_MAX;
    for (uint32_t q = 0; q < p; q++) {
        if (!load(&v[q], q))
            v[q].nrec = 0;
        if (v[q].nrec < nsteps)
            nsteps = v[q].nrec;
    }
    if (nsteps == UINT64_MAX)
        nsteps = 0;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"tool\":\"superstep " SUPERSTEP_VERSION
               "\",\"nprocs\":%u,\"supersteps\":%llu,\"syncs\":%llu,\"truncated\":%u,"
               "\"unknown_records\":%u},\n\"traceEvents\":[",
            p, (unsigned long long)nsteps, (unsigned long long)(nsteps ? nsteps - 1 : 0),
            atomic_load(&pr.hdr->truncated), atomic_load(&pr.hdr->unknown));
    first_event = true;
    fprintf(f, "\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,\"args\":{\"name\":\"BSP job, %u processors\"}}", p);
    first_event = false;
    for (uint32_t s = 0; s < p; s++) {
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"processor %u\"}}",
                s + 1, s);
        fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}",
                s + 1, s);
    }
    for (uint64_t k = 0; k < nsteps; k++) {
        memset(fl, 0, p * sizeof *fl);
        for (uint32_t q = 0; q < p; q++) {
            const struct prof_rec *r = v[q].rec[k];
            const struct prof_src *e = rec_src(r);
            for (uint32_t i = 0; i < r->nsrc; i++) {
                uint32_t src = e[i].src < p ? e[i].src : 0;
                fl[q].rec_in += e[i].records;
                fl[q].bytes_in += e[i].bytes;
                fl[q].stream_in += e[i].stream;
                fl[src].rec_out += e[i].records;
                fl[src].bytes_out += e[i].bytes;
                fl[src].stream_out += e[i].stream;
            }
            const struct prof_dir *d = rec_dir(r);
            for (uint32_t i = 0; i < r->ndir; i++) {
                uint32_t peer = d[i].peer < p ? d[i].peer : 0;
                fl[q].direct_out += d[i].put_bytes;
                fl[peer].direct_in += d[i].put_bytes;
                fl[q].direct_in += d[i].get_bytes;
                fl[peer].direct_out += d[i].get_bytes;
            }
        }
        uint64_t h = 0, hrec = 0;
        for (uint32_t q = 0; q < p; q++) {
            uint64_t o = fl[q].bytes_out + fl[q].direct_out, i = fl[q].bytes_in + fl[q].direct_in;
            h = o > h ? o : h;
            h = i > h ? i : h;
            hrec = fl[q].rec_out > hrec ? fl[q].rec_out : hrec;
            hrec = fl[q].rec_in > hrec ? fl[q].rec_in : hrec;
        }
        for (uint32_t s = 0; s < p; s++) {
            const struct prof_rec *r = v[s].rec[k];
            int64_t prev = k ? v[s].rec[k - 1]->t_end : v[s].t_start;
            bool end = r->kind == REC_END;
            char name[40];
            snprintf(name, sizeof name, "superstep %llu", (unsigned long long)k);
            slice(f, name, s, prev, r->t_end, k);
            fprintf(f, ",\"h_bytes\":%llu,\"h_records\":%llu,\"last\":%s}}", (unsigned long long)h,
                    (unsigned long long)hrec, end ? "true" : "false");
            slice(f, "compute", s, prev, r->t_begin, k);
            fputs("}}", f);
            if (end)
                continue;
            slice(f, "sync wait", s, r->t_begin, r->t_wait1, k);
            fputs("}}", f);
            slice(f, "profiler", s, r->t_wait1, r->t_scan1, k);
            fputs("}}", f);
            int64_t comm = r->t_scan1;
            if (r->nwait > 1) {
                slice(f, "gets/direct", s, r->t_scan1, r->t_served, k);
                fprintf(f, ",\"direct_bytes_out\":%llu,\"direct_bytes_in\":%llu}}",
                        (unsigned long long)fl[s].direct_out, (unsigned long long)fl[s].direct_in);
                slice(f, "sync wait 2", s, r->t_served, r->t_wait2, k);
                fputs("}}", f);
                slice(f, "profiler", s, r->t_wait2, r->t_scan2, k);
                fputs("}}", f);
                comm = r->t_scan2;
            }
            slice(f, "communication", s, comm, r->t_end, k);
            fprintf(f,
                    ",\"bytes_out\":%llu,\"bytes_in\":%llu,\"records_out\":%llu,\"records_in\":%llu,"
                    "\"stream_bytes_out\":%llu,\"stream_bytes_in\":%llu,\"direct_bytes_out\":%llu,"
                    "\"direct_bytes_in\":%llu,\"h_bytes\":%llu,\"h_records\":%llu}}",
                    (unsigned long long)fl[s].bytes_out, (unsigned long long)fl[s].bytes_in,
                    (unsigned long long)fl[s].rec_out, (unsigned long long)fl[s].rec_in,
                    (unsigned long long)fl[s].stream_out, (unsigned long long)fl[s].stream_in,
                    (unsigned long long)fl[s].direct_out, (unsigned long long)fl[s].direct_in,
                    (unsigned long long)h, (unsigned long long)hrec);
        }
    }
    fputs("\n]}\n", f);
    for (uint32_t q = 0; q < p; q++)
        free(v[q].rec);
    free(v);
    free(fl);
}

void profile_finish(void)
{
    if (pr.me == 0) {
        FILE *f = fopen(pr.path, "w");
        if (!f) {
            fprintf(stderr, "superstep: SUPERSTEP_PROFILE: cannot write %s: %s\n", pr.path, strerror(errno));
        } else {
            static char iobuf[1 << 16];
            setvbuf(f, iobuf, _IOFBF, sizeof iobuf);
            write_trace(f);
            if (fclose(f) != 0)
                fprintf(stderr, "superstep: SUPERSTEP_PROFILE: error writing %s: %s\n", pr.path, strerror(errno));
        }
    }
    drop();
}
