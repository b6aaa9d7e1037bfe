/*
 * level1.c - the Oxford toolset's level-1 library (bsp_level1.h) on the
 * collectives of this layer: broadcast, fold (all-reduce) and scan run the
 * variant of least BSP cost, in lockstep (every processor calls them
 * together), through the engine; gather and scatter are the toolset's one
 * put or get and a sync.  The user's op(res, left, right, &nbytes) is
 * wrapped as a bsc_reduce_t; there is no neutral element, so "no zero" is
 * a marker the wrappers recognise.  fold and scan use a registered scratch
 * area of the library, grown collectively when a call needs more.
 */
#include "bsp/bsp_impl.h"
#include "coll/coll.h"

#include <stdlib.h>
#include <string.h>

typedef void (*l1_op)(void *, void *, void *, int *);

static l1_op cur_op;
static int cur_n;
static const char no_zero; /* the marker */

/* a = a0 (+) xs[0] (+) ..., or from xs[0] when a0 is the marker. */
static void fold_wrap(void *a, const void *a0, const void *xs, bsc_size_t size)
{
    int n = cur_n;
    size_t k = size / (size_t)n, i = 0;
    char *acc = malloc(2 * (size_t)n);
    if (!acc)
        bsp_error("bsp_fold", "out of memory");
    if (a0 == &no_zero)
        memcpy(acc, xs, (size_t)n), i = 1;
    else
        memcpy(acc, a0, (size_t)n);
    for (; i < k; i++) {
        cur_op(acc + n, acc, (char *)xs + i * (size_t)n, &n);
        memcpy(acc, acc + n, (size_t)n);
    }
    memcpy(a, acc, (size_t)n);
    free(acc);
}

/* a[i] = a0 (+) xs[0] (+) ... (+) xs[i]. */
static void scan_wrap(void *a, const void *a0, const void *xs, bsc_size_t size)
{
    int n = cur_n;
    size_t k = size / (size_t)n;
    for (size_t i = 0; i < k; i++) {
        char *out = (char *)a + i * (size_t)n, *x = (char *)xs + i * (size_t)n;
        const void *left = i ? out - n : a0;
        if (left == &no_zero)
            memcpy(out, x, (size_t)n);
        else
            cur_op(out, (void *)left, x, &n);
    }
}

static struct {
    void *area;
    size_t cap;
} scratch;

/* A registered area of at least 'need' bytes on every processor. */
static void *scratch_get(const char *call, size_t need)
{
    coll_begin(call);
    if (scratch.area && reg_slot_of(scratch.area) < 0) /* a new run */
        free(scratch.area), scratch.area = NULL, scratch.cap = 0;
    if (need <= scratch.cap)
        return scratch.area;
    void *bigger = malloc(need);
    if (!bigger)
        bsp_error(call, "out of memory for %zu bytes of scratch", need);
    if (scratch.area)
        bsp_pop_reg(scratch.area);
    bsp_impl_push_reg(bigger, (int64_t)need);
    bsp_sync();
    free(scratch.area);
    scratch.area = bigger, scratch.cap = need;
    return bigger;
}

static void check_args(const char *call, int pid, const void *src, const void *dst, int nbytes, bool pid_used)
{
    bsp_require_begun(call);
    if (pid_used && (pid < 0 || pid >= (int)bsp.p))
        bsp_error(call, "pid %d out of range (nprocs %u)", pid, bsp.p);
    if (nbytes < 0)
        bsp_error(call, "negative nbytes %d", nbytes);
    if (nbytes && (!src || !dst))
        bsp_error(call, "NULL %s with nbytes %d", src ? "dst" : "src", nbytes);
}

/* Run one variant of a built-in collective now, in lockstep. */
static void run(const bsc_collective_t *c, enum collective kind, int root, bsc_coll_params_t *q)
{
    enum variant v = variant_pick(kind, bsp.p, (double)q->size, true);
    coll_run(c->algorithms[v](coll_now(), (bsc_pid_t)root, bsc_all, q, 1));
}

#undef bsp_bcast
void bsp_bcast_cpp(int pid, void *src, void *dst, int nbytes, int lineno, char *filename)
{
    (void)lineno, (void)filename;
    check_args("bsp_bcast", pid, bsp.me == (uint32_t)pid ? src : dst, dst, nbytes, true);
    coll_begin("bsp_bcast");
    bsc_coll_params_t q = { .src = src, .dst = dst, .size = (size_t)nbytes };
    run(bsc_coll_bcast, C_BCAST, pid, &q);
}

void bsp_bcast(int pid, void *src, void *dst, int nbytes)
{
    bsp_bcast_cpp(pid, src, dst, nbytes, 0, "unknown");
}

void bsp_gather(int pid, void *src, void *dst, int nbytes)
{
    check_args("bsp_gather", pid, src, src, nbytes, true);
    bsp_impl_put(pid, src, dst, (int64_t)bsp.me * nbytes, nbytes, "bsp_gather");
    bsp_sync();
}

void bsp_scatter(int pid, void *src, void *dst, int nbytes)
{
    check_args("bsp_scatter", pid, dst, dst, nbytes, true);
    bsp_impl_get(pid, src, (int64_t)bsp.me * nbytes, dst, nbytes, "bsp_scatter");
    bsp_sync();
}

static void reduce_with(const char *call, l1_op op, void *src, void *dst, int nbytes, bool prefix)
{
    check_args(call, 0, src, dst, nbytes, false);
    if (!op)
        bsp_error(call, "NULL op");
    if (!nbytes)
        return;
    uint32_t p = bsp.p;
    void *tmp = scratch_get(call, (2 * (size_t)p + 2) * (size_t)nbytes);
    l1_op was = cur_op;
    int was_n = cur_n;
    cur_op = op, cur_n = nbytes;
    bsc_coll_params_t q = { src, dst, tmp, prefix ? scan_wrap : fold_wrap, &no_zero, 1, (size_t)nbytes };
    run(prefix ? bsc_coll_scan : bsc_coll_allreduce, prefix ? C_SCAN : C_ALLREDUCE, 0, &q);
    cur_op = was, cur_n = was_n;
}

#undef bsp_fold
void bsp_fold_cpp(void (*op)(), void *src, void *dst, int nbytes, int lineno, char *filename)
{
    (void)lineno, (void)filename;
    reduce_with("bsp_fold", (l1_op)op, src, dst, nbytes, false);
}

void bsp_fold(void (*op)(), void *src, void *dst, int nbytes)
{
    reduce_with("bsp_fold", (l1_op)op, src, dst, nbytes, false);
}

void bsp_scan(void (*op)(), void *src, void *dst, int nbytes)
{
    reduce_with("bsp_scan", (l1_op)op, src, dst, nbytes, true);
}

/* ---- the typed instances -------------------------------------------------------- */

#define OPS(T, S)                                                                             \
    static void add##S(void *r, void *x, void *y, int *n) { (void)n; *(T *)r = *(T *)x + *(T *)y; } \
    static void mul##S(void *r, void *x, void *y, int *n) { (void)n; *(T *)r = *(T *)x * *(T *)y; } \
    static void min##S(void *r, void *x, void *y, int *n) { (void)n; *(T *)r = *(T *)x < *(T *)y ? *(T *)x : *(T *)y; } \
    static void max##S(void *r, void *x, void *y, int *n) { (void)n; *(T *)r = *(T *)x > *(T *)y ? *(T *)x : *(T *)y; } \
    static T l1_fold##S(l1_op op, T x, bool prefix)                                             \
    {                                                                                         \
        T r = x;                                                                              \
        reduce_with(prefix ? "bsp_scan" : "bsp_fold", op, &x, &r, sizeof x, prefix);          \
        return r;                                                                             \
    }                                                                                         \
    T bsp_sum##S(T x) { return l1_fold##S(add##S, x, false); }                                \
    T bsp_sum##S##_prefix(T x) { return l1_fold##S(add##S, x, true); }                        \
    T bsp_product##S(T x) { return l1_fold##S(mul##S, x, false); }                            \
    T bsp_product##S##_prefix(T x) { return l1_fold##S(mul##S, x, true); }                    \
    T bsp_min##S(T x) { return l1_fold##S(min##S, x, false); }                                \
    T bsp_min##S##_prefix(T x) { return l1_fold##S(min##S, x, true); }                        \
    T bsp_max##S(T x) { return l1_fold##S(max##S, x, false); }                                \
    T bsp_max##S##_prefix(T x) { return l1_fold##S(max##S, x, true); }
OPS(int, I)
OPS(float, R)
OPS(double, D)

static void and_op(void *r, void *x, void *y, int *n) { (void)n; *(int *)r = *(int *)x && *(int *)y; }
static void or_op(void *r, void *x, void *y, int *n) { (void)n; *(int *)r = *(int *)x || *(int *)y; }
int bsp_all(int x) { return l1_foldI(and_op, x, false); }
int bsp_any(int x) { return l1_foldI(or_op, x, false); }

/* Every processor's 8 bytes of v, in pid order, into the library's words. */
static uint64_t *allgather_word(const char *call, uint64_t v)
{
    coll_begin(call);
    for (uint32_t q = 0; q < bsp.p; q++)
        coll_word_put(q, v, call);
    bsp_sync();
    return coll_words();
}

int bsp_constantI(int x)
{
    uint64_t *w = allgather_word("bsp_constantI", (uint64_t)(unsigned)x);
    for (uint32_t q = 1; q < bsp.p; q++)
        if (w[q] != w[0])
            return 0;
    return 1;
}

/* The value of rank bsp_pid() among every processor's x. */
#define SORT(T, S)                                                                            \
    static int cmp##S(const void *a, const void *b) { T x = *(const T *)a, y = *(const T *)b; return (x > y) - (x < y); } \
    T bsp_sort##S(T x)                                                                          \
    {                                                                                         \
        uint64_t v = 0;                                                                       \
        memcpy(&v, &x, sizeof x);                                                             \
        uint64_t *w = allgather_word("bsp_sort" #S, v);                                       \
        T *all = malloc(bsp.p * sizeof *all);                                                 \
        if (!all)                                                                             \
            bsp_error("bsp_sort" #S, "out of memory");                                        \
        for (uint32_t q = 0; q < bsp.p; q++)                                                  \
            memcpy(&all[q], &w[q], sizeof x);                                                 \
        qsort(all, bsp.p, sizeof *all, cmp##S);                                               \
        T r = all[bsp.me];                                                                    \
        free(all);                                                                            \
        return r;                                                                             \
    }
SORT(int, I)
SORT(float, R)
SORT(double, D)
SORT(char, C)

/* ---- the machine in the toolset's units ---------------------------------------------- */

/* s: the measured rate, else 1 Gflop/s (so l and g read as nanoseconds). */
double bsp_s(void)
{
    const struct machine *m = machine_get();
    return m->r > 0 ? m->r : 1e9;
}

double bsp_l(void)
{
    return machine_get()->l * bsp_s();
}

double bsp_g(void)
{
    const struct machine *m = machine_get();
    return (m->o + 8 * m->G) * bsp_s();
}

int bsp_nhalf(void)
{
    const struct machine *m = machine_get();
    double n = m->G > 0 ? m->o / (8 * m->G) : 1;
    return n < 1 ? 1 : n > 1e9 ? 1000000000 : (int)(n + 0.5);
}
