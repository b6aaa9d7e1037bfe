/*
 * engine.c - bsc.h's delayed requests: the queue of an epoch's steps, the
 * lockstep run of bsc_sync(until), the vote of bsc_sync(bsc_flush), and the
 * library's registered area.
 *
 * Steps are counted per processor and advance by one per bsp_sync that a
 * bsc_sync makes, so processors that make the same bsc_sync calls (or the
 * same number of supersteps) share the step numbers; a step's puts and
 * gets are issued at its start, its reductions and local calls run after
 * its bsp_sync.  bsc_sync(bsc_flush) adds a vote to each of its supersteps:
 * a processor with nothing left puts 1 into every processor's vote array;
 * the epoch ends at the superstep after which every array is all ones.
 */

#include "bsp/bsp_impl.h"
#include "coll/coll.h"

#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const bsc_step_t bsc_flush = UINT_MAX;
const bsc_step_t bsc_start = 0;

enum req_kind { REQ_PUT, REQ_GET, REQ_EXEC, REQ_CALL, REQ_PRE, REQ_COLL };

struct req {
    enum req_kind kind;
    unsigned step;
    uint64_t seq;   /* request order within a step */
    union {
        struct { uint32_t pid; const void *src; void *dst; size_t offset, size; const char *call; } xfer;
        struct { bsc_reduce_t f; void *a; const void *a0; const void *xs; size_t size; } exec;
        struct { coll_call_fn fn; void *ctx; } call;
        struct { const bsc_collective_t *coll; bsc_pid_t root; bsc_group_t group; bsc_coll_params_t params; } coll;
    } u;
};

/* The library's area in every processor's memory, registered at its first
 * coll_begin in a run: processor 0's parameters, one word per processor
 * (group creation), one flush vote per processor. */
struct area {
    double params[4];          /* l, G, o, r */
    char source[sizeof((struct machine *)0)->source];
    uint64_t word[];           /* p words, then p votes */
};
#define VOTES(a) ((unsigned char *)((a)->word + bsp.p))
#define VOTE_AT (offsetof(struct area, word) + bsp.p * sizeof(uint64_t))

static struct {
    bool begun;                /* coll_begin done in this run */
    struct area *area;
    unsigned now;              /* the current step of the epoch */
    uint64_t seq;
    struct req *heap;          /* min-heap by (step, seq) */
    size_t n, cap;
} eng;

/* A new run (bsp_begin after bsp_end) starts afresh: the area registered
 * in the last one is no longer registered. */
static void engine_check_run(const char *call)
{
    bsp_require_begun(call);
    if (eng.begun && reg_slot_of(eng.area) < 0) {
        free(eng.area);
        free(eng.heap);
        memset(&eng, 0, sizeof eng);
    }
}

/* ---- the queue ------------------------------------------------------------ */

static bool before(const struct req *a, const struct req *b)
{
    return a->step < b->step || (a->step == b->step && a->seq < b->seq);
}

static void heap_push(struct req r)
{
    if (eng.n == eng.cap) {
        eng.cap = eng.cap ? 2 * eng.cap : 64;
        eng.heap = realloc(eng.heap, eng.cap * sizeof *eng.heap);
        if (!eng.heap)
            bsp_error("bsc_sync", "out of memory queueing %zu requests", eng.n + 1);
    }
    r.seq = eng.seq++;
    size_t i = eng.n++;
    while (i && before(&r, &eng.heap[(i - 1) / 2])) {
        eng.heap[i] = eng.heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    eng.heap[i] = r;
}

static struct req heap_pop(void)
{
    struct req top = eng.heap[0], last = eng.heap[--eng.n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= eng.n)
            break;
        if (c + 1 < eng.n && before(&eng.heap[c + 1], &eng.heap[c]))
            c++;
        if (!before(&eng.heap[c], &last))
            break;
        eng.heap[i] = eng.heap[c];
        i = c;
    }
    if (eng.n)
        eng.heap[i] = last;
    return top;
}

static unsigned enqueue(const char *call, struct req r)
{
    engine_check_run(call);
    if (r.step < eng.now)
        bsp_error(call, "step %u is before the current step %u (bsc_sync(bsc_flush) starts a new epoch at 0)",
                  r.step, eng.now);
    if (r.step >= UINT_MAX - 1)
        bsp_error(call, "step %u is beyond the last step of an epoch (%u)", r.step, UINT_MAX - 2);
    heap_push(r);
    return r.step + 1;
}

unsigned coll_put(unsigned step, uint32_t pid, const void *src, void *dst, size_t offset, size_t size,
                  const char *call)
{
    return enqueue(call, (struct req){ .kind = REQ_PUT, .step = step, .u.xfer = { pid, src, dst, offset, size, call } });
}

unsigned coll_get(unsigned step, uint32_t pid, const void *src, size_t offset, void *dst, size_t size,
                  const char *call)
{
    return enqueue(call, (struct req){ .kind = REQ_GET, .step = step, .u.xfer = { pid, src, dst, offset, size, call } });
}

unsigned coll_call(unsigned step, coll_call_fn fn, void *ctx)
{
    return enqueue("bsc_sync", (struct req){ .kind = REQ_CALL, .step = step, .u.call = { fn, ctx } });
}

unsigned coll_pre(unsigned step, coll_call_fn fn, void *ctx)
{
    return enqueue("bsc_sync", (struct req){ .kind = REQ_PRE, .step = step, .u.call = { fn, ctx } });
}

unsigned coll_now(void)
{
    return eng.now;
}

/* ---- the public requests ----------------------------------------------------- */

void coll_check_size(const char *call, const char *what, size_t v)
{
    if (v > (size_t)1 << 40) /* a negative int made size_t, or absurd */
        bsp_error(call, "%s %zu is absurd (more than 2^40; a negative value?)", what, v);
}

void coll_check_ptr(const char *call, const char *what, const void *p, size_t size)
{
    if (!p && size)
        bsp_error(call, "NULL %s with size %zu", what, size);
}

static uint32_t check_pid(const char *call, const char *what, long long pid)
{
    bsp_require_begun(call);
    if (pid < 0 || pid >= (long long)bsp.p)
        bsp_error(call, "%s %lld out of range (nprocs %u)", what, pid, bsp.p);
    return (uint32_t)pid;
}

bsc_step_t bsc_put(bsc_step_t depends, bsc_pid_t dst_pid, const void *src, void *dst, bsc_size_t offset,
                   bsc_size_t size)
{
    uint32_t pid = check_pid("bsc_put", "pid", (long long)dst_pid);
    coll_check_size("bsc_put", "size", size);
    coll_check_size("bsc_put", "offset", offset);
    coll_check_ptr("bsc_put", "source", src, size);
    return coll_put(depends, pid, src, dst, offset, size, "bsc_put");
}

bsc_step_t bsc_get(bsc_step_t depends, bsc_pid_t src_pid, const void *src, bsc_size_t offset, void *dst,
                   bsc_size_t size)
{
    uint32_t pid = check_pid("bsc_get", "pid", (long long)src_pid);
    coll_check_size("bsc_get", "size", size);
    coll_check_size("bsc_get", "offset", offset);
    coll_check_ptr("bsc_get", "destination", dst, size);
    return coll_get(depends, pid, src, offset, dst, size, "bsc_get");
}

bsc_step_t bsc_exec_reduce(bsc_step_t depends, bsc_reduce_t reducer, void *a, const void *a0, const void *xs,
                           bsc_size_t size)
{
    bsp_require_begun("bsc_exec_reduce");
    if (!reducer)
        bsp_error("bsc_exec_reduce", "NULL reducer");
    coll_check_size("bsc_exec_reduce", "size", size);
    return enqueue("bsc_exec_reduce",
                   (struct req){ .kind = REQ_EXEC, .step = depends, .u.exec = { reducer, a, a0, xs, size } });
}

bsc_step_t bsc_collective(bsc_step_t depends, const bsc_collective_t *collective, bsc_pid_t root,
                          bsc_group_t group, bsc_coll_params_t params)
{
    bsp_require_begun("bsc_collective");
    if (!collective || collective->n_algs == 0 || collective->n_algs > BSC_MAX_COLL_ALGS)
        bsp_error("bsc_collective", "a collective needs 1 to %d algorithms (got %zu)", BSC_MAX_COLL_ALGS,
                  collective ? (size_t)collective->n_algs : (size_t)0);
    bsc_step_t most = 0;
    for (bsc_size_t i = 0; i < collective->n_algs; i++) {
        bsc_step_t s = collective->maxsteps[i](group);
        most = s > most ? s : most;
    }
    enqueue("bsc_collective", (struct req){ .kind = REQ_COLL, .step = depends,
                                            .u.coll = { collective, root, group, params } });
    return depends + most;
}

bsc_step_t bsc_current(void)
{
    engine_check_run("bsc_current");
    return eng.now;
}

/* ---- running a step --------------------------------------------------------- */

/* The algorithm that runs a set of calls: SUPERSTEP_COLL_ALG's variant for
 * the built-in collectives that have it, else the cheapest by the costs. */
static bsc_size_t choose(const bsc_collective_t *c, bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n)
{
    int forced = variant_forced();
    bool builtin = coll_builtin(c);
    if (builtin && !group_of(group)->symmetric)
        return 0; /* a neighbourhood: one phase */
    if (builtin && forced >= 0)
        return (bsc_size_t)forced < c->n_algs ? (bsc_size_t)forced : 0;
    bsc_size_t best = 0;
    double least = c->costfuncs[0](group, set, n);
    for (bsc_size_t i = 1; i < c->n_algs; i++) {
        double x = c->costfuncs[i](group, set, n);
        if (x < least)
            best = i, least = x;
    }
    return best;
}

/* Run the collectives queued for this step: calls with the same
 * collective, root and group form one set, in the order of their first. */
static void expand(struct req *colls, size_t k)
{
    bsc_coll_params_t *set = malloc((k ? k : 1) * sizeof *set);
    bool *done = calloc(k ? k : 1, sizeof *done);
    if (!set || !done)
        bsp_error("bsc_sync", "out of memory running %zu collectives", k);
    for (size_t i = 0; i < k; i++) {
        if (done[i])
            continue;
        size_t m = 0;
        for (size_t j = i; j < k; j++) {
            if (done[j] || colls[j].u.coll.coll != colls[i].u.coll.coll ||
                colls[j].u.coll.root != colls[i].u.coll.root || colls[j].u.coll.group != colls[i].u.coll.group)
                continue;
            set[m++] = colls[j].u.coll.params;
            done[j] = true;
        }
        const bsc_collective_t *c = colls[i].u.coll.coll;
        bsc_size_t a = choose(c, colls[i].u.coll.group, set, m);
        c->algorithms[a](eng.now, colls[i].u.coll.root, colls[i].u.coll.group, set, m);
    }
    free(done);
    free(set);
}

/* Take this step's requests off the queue, the collectives expanded (their
 * algorithms may queue more for this step); puts and gets are issued, the
 * rest returned for after the sync. */
static struct req *start_step(size_t *nlater)
{
    struct req *later = NULL, *colls = NULL;
    size_t nl = 0, nc = 0;
    uint64_t capl = 0, capc = 0;
    while (eng.n && eng.heap[0].step == eng.now) {
        nc = 0;
        while (eng.n && eng.heap[0].step == eng.now) {
            struct req r = heap_pop();
            if (r.kind == REQ_PUT)
                bsp_impl_put(r.u.xfer.pid, r.u.xfer.src, r.u.xfer.dst, (int64_t)r.u.xfer.offset,
                             (int64_t)r.u.xfer.size, r.u.xfer.call);
            else if (r.kind == REQ_GET)
                bsp_impl_get(r.u.xfer.pid, r.u.xfer.src, (int64_t)r.u.xfer.offset, r.u.xfer.dst,
                             (int64_t)r.u.xfer.size, r.u.xfer.call);
            else if (r.kind == REQ_PRE)
                r.u.call.fn(r.u.call.ctx);
            else if (r.kind == REQ_COLL)
                colls = grow(colls, &capc, nc + 1, sizeof *colls), colls[nc++] = r;
            else
                later = grow(later, &capl, nl + 1, sizeof *later), later[nl++] = r;
        }
        if (nc)
            expand(colls, nc);
    }
    free(colls);
    *nlater = nl;
    return later;
}

static void finish_step(struct req *later, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct req *r = &later[i];
        if (r->kind == REQ_EXEC)
            r->u.exec.f(r->u.exec.a, r->u.exec.a0, r->u.exec.xs, r->u.exec.size);
        else
            r->u.call.fn(r->u.call.ctx);
    }
    free(later);
    eng.now++;
}

void coll_run(unsigned until)
{
    while (eng.now < until) {
        size_t n;
        struct req *later = start_step(&n);
        bsp_sync();
        finish_step(later, n);
    }
}

/* One superstep of bsc_sync(bsc_flush); true when it ends the epoch. */
static bool flush_step(void)
{
    size_t n;
    struct req *later = start_step(&n);
    uint32_t p = bsp.p;
    bool mine = eng.n == 0; /* nothing left for a later step */
    unsigned char *vote = VOTES(eng.area);
    memset(vote, 0, p);
    if (mine) {
        static const unsigned char one = 1;
        for (uint32_t q = 0; q < p; q++)
            if (q != bsp.me)
                bsp_impl_put(q, &one, eng.area, (int64_t)(VOTE_AT + bsp.me), 1, "bsc_sync");
        vote[bsp.me] = 1;
    }
    bsp_sync();
    finish_step(later, n);
    for (uint32_t q = 0; q < p; q++)
        if (!vote[q])
            return false;
    return true;
}

/* ---- the library's start in a run ---------------------------------------------- */

void coll_begin(const char *call)
{
    engine_check_run(call);
    if (eng.begun)
        return;
    uint32_t p = bsp.p;
    size_t size = VOTE_AT + p;
    eng.area = calloc(1, size);
    if (!eng.area)
        bsp_error(call, "out of memory for the library's area of %u processors", p);
    bsp_impl_push_reg(eng.area, (int64_t)size);
    bsp_sync();
    eng.begun = true;
    struct machine m = *machine_get();
    if (bsp.me == 0) {
        double *v = eng.area->params;
        v[0] = m.l, v[1] = m.G, v[2] = m.o, v[3] = m.r;
        memcpy(eng.area->source, m.source, sizeof m.source);
        for (uint32_t q = 1; q < p; q++)
            bsp_impl_put(q, eng.area, eng.area, 0, offsetof(struct area, word), call);
    }
    bsp_sync();
    if (bsp.me != 0) { /* the collectives choose alike everywhere */
        const double *v = eng.area->params;
        m.l = v[0], m.G = v[1], m.o = v[2], m.r = v[3];
        memcpy(m.source, eng.area->source, sizeof m.source);
        m.source[sizeof m.source - 1] = 0;
        machine_set(&m);
    }
}

uint64_t *coll_words(void)
{
    return eng.area->word;
}

void coll_word_put(uint32_t pid, uint64_t value, const char *call)
{
    if (pid == bsp.me) {
        eng.area->word[pid] = value;
        return;
    }
    bsp_impl_put(pid, &value, eng.area, (int64_t)(offsetof(struct area, word) + bsp.me * sizeof value), sizeof value,
                 call);
}

bsc_step_t bsc_sync(bsc_step_t until)
{
    coll_begin("bsc_sync");
    if (until != bsc_flush) {
        coll_run(until);
        return eng.now;
    }
    while (!flush_step())
        ;
    eng.now = 0;
    eng.seq = 0;
    return eng.now;
}
