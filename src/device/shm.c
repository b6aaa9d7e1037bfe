/*
 * shm.c - the shm device: local processes on one shared segment.
 *
 * Streams are channels: channel (src -> dst) is written only by src and read
 * only by dst.  An exchange marks every channel written since the last one
 * with the exchange's number, meets at the barrier, and reads the marks of
 * the incoming channels: a mark with the current number says how far that
 * source wrote; any other mark means it wrote nothing.  So an empty
 * superstep touches no channel line that anybody else wrote.
 */
#include "device/device.h"
#include "settings/settings.h"

#include "barrier/barrier.h"
#include "channel/channel.h"
#include "launch/launch.h"

#include <errno.h>
#include <sched.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

/* Per-processor facts peers need: where to probe for direct access. */
struct shm_proc {
    _Atomic uint64_t probe_addr;
    char pad[SEG_LINE - sizeof(uint64_t)];
};

static struct {
    uint32_t p, me;
    struct channel *chan;          /* p * p, grouped by destination */
    struct shm_proc *procs;
    struct chan_writer *out;       /* towards each destination */
    struct chan_reader *in;        /* from each source */
    struct chan_reader *scan;      /* pre-scan cursors */
    uint64_t *avail;               /* bytes from each source up to the last exchange */
    uint32_t *dirty, ndirty;       /* destinations written since the last exchange */
    struct stream_window *win;     /* the BSP layer's direct-write windows ... */
    char **win_base;               /* ... and where each began */
    bool *is_dirty;
    uint64_t seq;                  /* exchanges so far */
} shm;

static struct channel *chan_of(uint32_t src, uint32_t dst)
{
    return &shm.chan[(size_t)dst * shm.p + src];
}

static volatile uint64_t probe_word = 0x5355504552535445ull;

/* Can this process read a peer's memory with process_vm_readv?  (Yama,
 * seccomp and containers may forbid it; then hp transfers use channels.) */
static bool probe_direct(void)
{
    if (shm.p == 1)
        return true;
    uint32_t peer = (shm.me + 1) % shm.p;
    uint64_t got = 0;
    struct iovec local = { &got, sizeof got };
    struct iovec remote = { (void *)(uintptr_t)atomic_load(&shm.procs[peer].probe_addr), sizeof got };
    pid_t pid = atomic_load(&job.ls->proc[peer].os_pid);
    return process_vm_readv(pid, &local, 1, &remote, 1, 0) == (ssize_t)sizeof got && got == probe_word;
}

/* CPUs this process may run on (affinity, cgroups' cpusets), not the machine's. */
static uint32_t usable_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return (uint32_t)CPU_COUNT(&set);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1;
}

static int shm_setup_local(void)
{
    uint32_t p = shm.p;
    shm.out = calloc(p, sizeof *shm.out);
    shm.in = calloc(p, sizeof *shm.in);
    shm.scan = calloc(p, sizeof *shm.scan);
    shm.avail = calloc(p, sizeof *shm.avail);
    shm.dirty = calloc(p, sizeof *shm.dirty);
    shm.is_dirty = calloc(p, sizeof *shm.is_dirty);
    shm.win = calloc(p, sizeof *shm.win);
    shm.win_base = calloc(p, sizeof *shm.win_base);
    if (!shm.out || !shm.in || !shm.scan || !shm.avail || !shm.dirty || !shm.is_dirty || !shm.win || !shm.win_base)
        return -ENOMEM;
    device_shm.windows = shm.win;
    for (uint32_t q = 0; q < p; q++) {
        chan_writer_init(&shm.out[q], &job.seg, chan_of(shm.me, q));
        chan_reader_init(&shm.in[q], &job.seg, chan_of(q, shm.me));
    }
    shm.ndirty = 0;
    shm.seq = 0;
    return 0;
}

/* Lay out a fresh segment for p processors (the starter does this). */
static int shm_create(uint32_t p, void (*setup)(struct segment *))
{
    int rc = seg_create(&job.seg, seg_size_from_env(), p);
    if (rc)
        return rc;
    job.nprocs = p;
    job.ls = launch_setup(&job.seg, p);
    uint64_t chans = seg_alloc(&job.seg, (size_t)p * p * sizeof(struct channel), SEG_LINE);
    uint64_t procs = seg_alloc(&job.seg, (size_t)p * sizeof(struct shm_proc), SEG_LINE);
    if (!job.ls || !chans || !procs)
        return -ENOSPC; /* the segment is too small for p processors */
    job.seg.hdr->root[ROOT_CHANNELS] = chans;
    job.seg.hdr->root[ROOT_SHM] = procs;
    if (setup)
        setup(&job.seg);
    return 0;
}

static void shm_find_tables(void)
{
    shm.chan = seg_ptr(&job.seg, job.seg.hdr->root[ROOT_CHANNELS]);
    shm.procs = seg_ptr(&job.seg, job.seg.hdr->root[ROOT_SHM]);
}

static int shm_begin(uint32_t nprocs, uint32_t *me, void (*setup)(struct segment *))
{
    int rc;
    if (launch_attach()) {           /* an exec'd kernel joining a host's job */
        nprocs = job.nprocs;
    } else {
        if ((rc = shm_create(nprocs, setup)) != 0)
            return rc;
        if ((rc = launch_fork(nprocs)) != 0)
            return rc;
    }
    shm.p = nprocs;
    shm.me = job.me;
    *me = job.me;
    shm_find_tables();
    if ((rc = shm_setup_local()) != 0)
        return rc;
    barrier_set_oversubscribed(nprocs > usable_cpus());
    atomic_store(&shm.procs[shm.me].probe_addr, (uint64_t)(uintptr_t)&probe_word);
    bool ok;
    barrier_wait(&job.ls->barrier, nprocs, XFLAG(XF_COUNT), &ok, NULL); /* begin's waits are not watched */
    if (!ok)
        launch_stopped();
    uint64_t sum = barrier_wait(&job.ls->barrier, nprocs,
                                XFLAG(XF_COUNT) | (probe_direct() ? 0 : XFLAG(1)), &ok, NULL);
    if (!ok)
        launch_stopped();
    device_shm.direct = XGET(sum, 1) == 0 && !setting_num(SET_NO_DIRECT);
    return 0;
}

static void shm_end(void)
{
    free(shm.out);
    free(shm.in);
    free(shm.scan);
    free(shm.avail);
    free(shm.dirty);
    free(shm.is_dirty);
    free(shm.win);
    free(shm.win_base);
    device_shm.windows = NULL;
    memset(&shm, 0, sizeof shm);
    launch_finish();
    seg_detach(&job.seg);
    job.ls = NULL;
}

/* An Epiphany host starting its kernel: a fresh job, the host outside it. */
static void shm_release_job(void)
{
    if (job.seg.base)
        seg_detach(&job.seg);
    job.ls = NULL;
}

static int shm_spawn(uint32_t nprocs, const char *path, char *const argv[], void (*setup)(struct segment *))
{
    int rc = shm_create(nprocs, setup);
    if (!rc)
        rc = launch_spawn(path, argv);
    if (rc)
        shm_release_job();
    return rc;
}

static int shm_spawn_wait(void)
{
    int rc = launch_finish();
    shm_release_job();
    return rc;
}

static void mark_dirty(uint32_t dst)
{
    if (!shm.is_dirty[dst]) {
        shm.is_dirty[dst] = true;
        shm.dirty[shm.ndirty++] = dst;
    }
}

/* Take in what the caller appended through dst's window. */
static void window_settle(uint32_t dst)
{
    size_t n = (size_t)(shm.win[dst].at - shm.win_base[dst]);
    if (n) {
        chan_commit(&shm.out[dst], n);
        mark_dirty(dst);
    }
}

/* Open dst's window on the free room at the end of its current ring. */
static void window_open(uint32_t dst)
{
    struct chan_writer *w = &shm.out[dst];
    size_t room = 0;
    char *at = chan_room(w, &room);
    shm.win[dst].at = shm.win_base[dst] = at;
    shm.win[dst].end = at ? at + room : NULL;
}

static bool shm_write(uint32_t dst, const void *buf, size_t n)
{
    window_settle(dst);
    mark_dirty(dst);
    bool ok = chan_write(&shm.out[dst], buf, n);
    window_open(dst);
    return ok;
}

static void *shm_claim(uint32_t dst, size_t n)
{
    window_settle(dst);
    void *at = chan_reserve(&shm.out[dst], n);
    if (at) {
        mark_dirty(dst);
        chan_commit(&shm.out[dst], n);
    }
    window_open(dst);
    return at;
}

static uint64_t shm_exchange(uint64_t flags)
{
    uint64_t seq = ++shm.seq;
    int slot = (int)(seq & 1);
    for (uint32_t dst = 0; dst < shm.p; dst++) {
        if (shm.win[dst].at != shm.win_base[dst]) {
            window_settle(dst);
            shm.win_base[dst] = shm.win[dst].at;
        }
    }
    for (uint32_t i = 0; i < shm.ndirty; i++) {
        uint32_t dst = shm.dirty[i];
        chan_mark(&shm.out[dst], slot, seq);
        shm.is_dirty[dst] = false;
    }
    shm.ndirty = 0;
    bool ok;
    uint64_t sum = barrier_wait(&job.ls->barrier, shm.p, flags | XFLAG(XF_COUNT), &ok, device_shm.late);
    if (!ok)
        launch_stopped();
    for (uint32_t src = 0; src < shm.p; src++) {
        uint64_t n = chan_marked(&shm.in[src], slot, seq);
        if (n) {
            shm.avail[src] = n;
            chan_prefetch(&shm.in[src], n); /* every source's lines in flight at once */
        }
    }
    return sum;
}

static uint64_t shm_incoming(uint32_t src)
{
    return shm.avail[src];
}

static const void *shm_peek(uint32_t src, uint64_t limit, size_t *len)
{
    return chan_peek(&shm.in[src], limit, len);
}

static void shm_consume(uint32_t src, size_t n)
{
    chan_consume(&shm.in[src], n);
    shm.avail[src] -= n;
    if (!shm.avail[src])
        chan_release(&shm.in[src]);
}

static void shm_scan_begin(uint32_t src)
{
    shm.scan[src] = chan_scan_cursor(&shm.in[src]);
}

static void shm_scan_read(uint32_t src, void *buf, size_t n)
{
    chan_scan_read(&shm.scan[src], buf, n);
}

static void shm_scan_skip(uint32_t src, uint64_t n)
{
    chan_scan_skip(&shm.scan[src], n);
}

/* Linux moves at most MAX_RW_COUNT bytes (INT_MAX rounded down to a page)
 * per process_vm_writev/readv call and returns a short count beyond it. */
#define DIRECT_MAX_CALL 0x7ffff000ul

/* Move n pairs of equally long iovecs (local[i] <-> remote[i]): batches of at
 * most IOV_MAX pieces and DIRECT_MAX_CALL bytes, a long pair split across
 * calls; after a short count the next call continues where it stopped.
 * Fails only when a call moves nothing. */
static bool direct_loop(uint32_t peer, const struct iovec *local, const struct iovec *remote,
                        size_t n, bool write)
{
    pid_t pid = atomic_load(&job.ls->proc[peer].os_pid);
    static struct iovec lv[IOV_MAX], rv[IOV_MAX];
    size_t i = 0, done = 0; /* cursor: pair i, of which 'done' bytes have moved */
    for (;;) {
        while (i < n && done == local[i].iov_len)
            i++, done = 0;
        if (i == n)
            return true;
        size_t k = 0, want = 0;
        for (size_t j = i; j < n && k < IOV_MAX && want < DIRECT_MAX_CALL; j++, k++) {
            size_t skip = j == i ? done : 0, len = local[j].iov_len - skip;
            if (len > DIRECT_MAX_CALL - want)
                len = DIRECT_MAX_CALL - want;
            lv[k] = (struct iovec){ (char *)local[j].iov_base + skip, len };
            rv[k] = (struct iovec){ (char *)remote[j].iov_base + skip, len };
            want += len;
        }
        ssize_t got = write ? process_vm_writev(pid, lv, k, rv, k, 0) : process_vm_readv(pid, lv, k, rv, k, 0);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return false;
        for (size_t left = (size_t)got; left;) {
            size_t rest = local[i].iov_len - done, step = left < rest ? left : rest;
            done += step;
            left -= step;
            if (done == local[i].iov_len)
                i++, done = 0;
        }
    }
}

static bool shm_direct_write(uint32_t dst, const struct iovec *local, const struct iovec *remote, size_t n)
{
    return direct_loop(dst, local, remote, n, true);
}

static bool shm_direct_read(uint32_t src, const struct iovec *local, const struct iovec *remote, size_t n)
{
    return direct_loop(src, local, remote, n, false);
}

/* A nested run (launch_nest_enter): the outer job's streams stay as they
 * are, untouched, until the inner job has ended. */
struct shm_saved {
    __typeof__(shm) shm;
    struct stream_window *windows;
    bool direct;
    bool oversubscribed; /* the outer run's wait policy (shm_begin sets the inner one's) */
};

static void *shm_nest_save(void)
{
    struct shm_saved *s = malloc(sizeof *s);
    if (!s)
        return NULL;
    s->shm = shm;
    s->windows = device_shm.windows;
    s->direct = device_shm.direct;
    s->oversubscribed = barrier_oversubscribed();
    memset(&shm, 0, sizeof shm);
    device_shm.windows = NULL;
    return s;
}

static void shm_nest_restore(void *saved)
{
    struct shm_saved *s = saved;
    shm = s->shm;
    device_shm.windows = s->windows;
    device_shm.direct = s->direct;
    barrier_set_oversubscribed(s->oversubscribed);
    free(s);
}

struct device device_shm = {
    .name = "shm",
    .begin = shm_begin,
    .end = shm_end,
    .write = shm_write,
    .claim = shm_claim,
    .exchange = shm_exchange,
    .incoming = shm_incoming,
    .peek = shm_peek,
    .consume = shm_consume,
    .scan_begin = shm_scan_begin,
    .scan_read = shm_scan_read,
    .scan_skip = shm_scan_skip,
    .direct = false,
    .segment_shared = true,
    .direct_write = shm_direct_write,
    .direct_read = shm_direct_read,
    .spawn = shm_spawn,
    .spawn_wait = shm_spawn_wait,
    .nest_save = shm_nest_save,
    .nest_restore = shm_nest_restore,
};

struct device *dev = &device_shm;
