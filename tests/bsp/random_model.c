/*
 * random_model.c - many supersteps of random h-relations checked against a
 * sequential model of BSP semantics.
 *
 * Usage: random_model [seed] [supersteps]       (p from SUPERSTEP_NPROCS)
 * Without a seed one is taken from the clock; either way processor 0 prints
 * "random_model: seed S, p P, supersteps K" first and sends seed and K to all
 * in superstep 0.  A failure is reproduced with
 *     SUPERSTEP_NPROCS=P random_model S K
 *
 * Every processor runs the same pseudo-random generator (splitmix64 from the
 * seed), so every processor knows the whole random plan of every superstep
 * without communicating, and each keeps a model of the memory of ALL
 * processors (at most 24 MiB for all of them together, 8 MiB for one).  A
 * superstep of the plan has, in random order inside each processor's program:
 *   - collective bsp_push_reg / bsp_pop_reg: per processor a fresh buffer
 *     (1 byte to a few MiB, registered with 0 up to its size), or an existing
 *     one again, or an interior address of one, or an address that is
 *     registered already (the newest registration is the one used);
 *     registrations and pops take effect at the next sync, in call order, so
 *     addresses pushed in this superstep are used with their older
 *     registration, and a pop of a registration pushed earlier in the same
 *     superstep undoes that push;
 *   - sometimes bsp_set_tagsize (once or twice), the same values everywhere,
 *     checking the value it returns: the size in force, or the size the
 *     previous call of the superstep asked for;
 *   - per processor 0..96 operations: bsp_put, bsp_get, bsp_hpput, bsp_hpget,
 *     bsp_send and local writes into its own buffers, with random targets,
 *     offsets and sizes (0 bytes, mostly small, sometimes 1 MiB, rarely a few
 *     MiB), overlapping, sometimes all on one "hot" buffer.
 * Semantics modelled (include/bsp.h):
 *   - bsp_put copies its source when called (sources are mutated right after
 *     the call, and put sources in registered memory are written again later
 *     in the superstep);
 *   - bsp_get reads the remote value at the end of the superstep, after the
 *     remote processor's local writes and before any put of the superstep;
 *     its reply lands after the local writes and before every put of the
 *     superstep, so a put to the same bytes wins (get destinations are
 *     otherwise untouched by other operations of the superstep);
 *   - puts to one place apply in order of source pid, then issue order;
 *   - hpput/hpget only on regions that no other operation of the superstep
 *     touches (hp sources may be read by others, never written);
 *   - messages arrive in order of source pid then send order, with the tag
 *     size in force when they were sent; unread ones vanish at the next sync.
 * After each bsp_sync every processor compares each of its buffers (the whole
 * allocation, registered or not), its get destinations and its message queue
 * (bsp_qsize, bsp_get_tag, bsp_move with a short, exact or long buffer,
 * bsp_hpmove, whose pointers are checked again at the end of the superstep)
 * with the model; messages are read fully, partly or not at all.  On a
 * mismatch it prints the seed, superstep, processor, buffer, offset, expected
 * and actual byte and the operations of that superstep that write the byte
 * (data bytes derive from the seed, superstep, writing pid and its op
 * number), then calls bsp_abort.  Some RUN lines set SUPERSTEP_NO_DIRECT=1 so
 * that hp transfers take the buffered path.  Processor 0 prints how many
 * operations of each kind all processors issued before "random_model: OK".
 */
// RUN: n=1 args="1 300" out="random_model: OK"
// RUN: n=2 args="2 200" out="random_model: OK"
// RUN: n=2 args="1002 200" env="SUPERSTEP_NO_DIRECT=1" out="random_model: OK"
// RUN: n=3 args="3 200" out="random_model: OK"
// RUN: n=4 args="4 150" env="SUPERSTEP_NO_DIRECT=1" out="random_model: OK"
// RUN: n=5 args="5 150" out="random_model: OK"
// RUN: n=8 args="8 100" out="random_model: OK"
// RUN: n=16 args="16 60" out="random_model: OK"
// RUN: n=16 args="1016 50" env="SUPERSTEP_NO_DIRECT=1" out="random_model: OK"

#include <bsp.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define KIB ((size_t)1024)
#define MIB (KIB * KIB)
#define MODEL_TOTAL (24 * MIB) /* model memory for all processors together */
#define MODEL_MAX (8 * MIB)    /* ... and for one */
#define MAXACT 40              /* active registrations at most */
#define MAXTAG 64

/* ---------------------------------------------------------------- random */

#define GOLD 0x9e3779b97f4a7c15ULL

static uint64_t fin64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

typedef struct {
    uint64_t s;
} Rng;

static uint64_t rnext(Rng *r)
{
    r->s += GOLD;
    return fin64(r->s);
}
static uint64_t below(Rng *r, uint64_t n) { return n ? rnext(r) % n : 0; }
static uint64_t range(Rng *r, uint64_t lo, uint64_t hi) /* inclusive */
{
    return hi <= lo ? lo : lo + below(r, hi - lo + 1);
}
static int pm(Rng *r, unsigned permille) { return below(r, 1000) < permille; }

static uint64_t g_seed;
static int g_K = 100;

enum { SALT_ALLOC = 1, SALT_DATA, SALT_TAG, SALT_WRITE, SALT_MUTATE };

/* Key of the data written by op opno of processor q in superstep s. */
static uint64_t op_key(int s, int q, int opno, int salt)
{
    return fin64(g_seed * GOLD ^ fin64(((uint64_t)(unsigned)s << 40) ^
                                       ((uint64_t)(unsigned)q << 28) ^
                                       ((uint64_t)(unsigned)opno << 4) ^
                                       (uint64_t)salt));
}

/* Byte b of the data of key: random access, 8 bytes per hash. */
static void fill(uint8_t *dst, size_t n, uint64_t key)
{
    uint64_t w = 0;
    for (; n >= 8; n -= 8, dst += 8, w++) {
        uint64_t v = fin64(key + (w + 1) * GOLD);
        memcpy(dst, &v, 8);
    }
    if (n) {
        uint64_t v = fin64(key + (w + 1) * GOLD);
        memcpy(dst, &v, n);
    }
}

static unsigned pattern_byte(uint64_t key, size_t b)
{
    uint64_t v = fin64(key + (b / 8 + 1) * GOLD);
    uint8_t x[8];
    memcpy(x, &v, 8);
    return x[b % 8];
}

/* ---------------------------------------------------------------- state */

/* read, write, read-only claim, exclusive, where a get's reply lands */
enum { A_R = 1, A_W, A_RO, A_EX, A_GD };
enum { OP_PUT, OP_HPPUT, OP_GET, OP_HPGET, OP_SEND, OP_WRITE, OP_PUSH, OP_POP, OP_TAGSIZE };
static const char *const op_name[] = {"bsp_put",   "bsp_hpput",  "bsp_get",
                                      "bsp_hpget", "bsp_send",   "local write",
                                      "bsp_push_reg", "bsp_pop_reg", "bsp_set_tagsize"};

typedef struct {
    size_t cap;
    uint8_t *model, *real; /* real only on this processor */
    int alive, refs, born;
} Alloc;
typedef struct {
    Alloc *a;
    int n, max;
    size_t used;
} Mem;
typedef struct {
    int alloc;
    size_t off, size;
} Part; /* one processor's side of a registration */
enum { SL_PENDING, SL_ACTIVE, SL_DEAD };
typedef struct {
    int state, popping, born, died;
    Part *part; /* [P] */
} Slot;
typedef struct {
    int alloc;
    size_t lo, hi;
    int kind;
} Acc;
typedef struct {
    Acc *v;
    int n, max;
} AccList;
typedef struct {
    int kind, opno, pid, slot, lalloc, nullpl, tagval;
    size_t off, n, loff, tagsize;
    uint64_t key, tagkey;
    uint8_t *data; /* source captured at call time (model) */
} Op;
typedef struct {
    Op *v;
    int n, max;
} OpList;
typedef struct {
    int src, opno;
    size_t n, tagsize;
    uint64_t key, tagkey;
} Msg;

static int P, me, step, T, T_next;
static Rng R; /* the plan: the same on every processor */
static Rng L; /* this processor's own choices (how to read its queue) */
static size_t cap_pp, land_sz, hbudget;
static Mem *mem;
static Slot *slots;
static int nslots, maxslots;
static int *live, nlive; /* active registrations, oldest first */
static int pend[64], npend, popl[64], npopl;
static AccList *acc;
static OpList *plan, tmpl;
static Op *ev;
static int nev, maxev;
static int **usable, *nusable;
static size_t *budget, *land_used;
static int *opno;
static uint8_t *cap_arena, *land_real, *land_model, *hp_arena, *scratch, *scratch2;
static size_t cap_used, hp_used, scratch_sz, scratch2_sz;
static Msg *ex;
static int nex, maxex, rd;
typedef struct {
    int msg;
    void *tag, *payload;
} Held; /* a bsp_hpmove result, valid until the next sync */
static Held *held;
static int nheld, maxheld;
static int hot, hot_j, hot_k;
static unsigned long long st_ops[OP_TAGSIZE + 1], st_bytes[OP_TAGSIZE + 1]; /* all processors */

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "random_model: out of memory (%zu bytes)\n", n);
        bsp_abort("random_model: out of memory");
    }
    return p;
}
static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        bsp_abort("random_model: out of memory");
    return p;
}
#define GROW(arr, n, max)                                                    \
    do {                                                                     \
        if ((n) == (max)) {                                                  \
            (max) = (max) ? 2 * (max) : 16;                                  \
            (arr) = xrealloc((arr), (size_t)(max) * sizeof *(arr));          \
        }                                                                    \
    } while (0)

static uint8_t *scratch_get(uint8_t **buf, size_t *sz, size_t n)
{
    if (n + 1 > *sz) {
        free(*buf);
        *sz = n + 1 + n / 2;
        *buf = xmalloc(*sz);
    }
    return *buf;
}

static void fail(const char *fmt, ...) SUPERSTEP_PRINTF(1, 2) SUPERSTEP_NORETURN;
static void fail(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "random_model: FAIL seed %" PRIu64 " superstep %d processor %d: %s\n",
            g_seed, step, me, msg);
    fprintf(stderr, "random_model: reproduce with: SUPERSTEP_NPROCS=%d random_model %" PRIu64 " %d\n",
            P, g_seed, g_K);
    fflush(stderr);
    bsp_abort("random_model: seed %" PRIu64 " superstep %d processor %d: %s", g_seed, step, me,
              msg);
}

/* ---------------------------------------------------------------- memory */

static int new_alloc(int q, size_t cap)
{
    Mem *m = &mem[q];
    GROW(m->a, m->n, m->max);
    Alloc *a = &m->a[m->n];
    a->cap = cap;
    a->model = xmalloc(cap);
    fill(a->model, cap, op_key(step, q, m->n, SALT_ALLOC));
    a->real = NULL;
    if (q == me) {
        a->real = xmalloc(cap);
        memcpy(a->real, a->model, cap);
    }
    a->alive = 1;
    a->refs = 0;
    a->born = step;
    m->used += cap;
    return m->n++;
}

static void free_alloc(int q, int i)
{
    Alloc *a = &mem[q].a[i];
    free(a->model);
    free(a->real);
    a->model = a->real = NULL;
    a->alive = 0;
    mem[q].used -= a->cap;
}

/* A random live allocation of q with at least need bytes, or -1. */
static int pick_alloc(int q, size_t need)
{
    Mem *m = &mem[q];
    int cand = 0;
    for (int i = 0; i < m->n; i++)
        cand += m->a[i].alive && m->a[i].cap >= need;
    if (!cand)
        return -1;
    int c = (int)below(&R, (uint64_t)cand);
    for (int i = 0; i < m->n; i++)
        if (m->a[i].alive && m->a[i].cap >= need && c-- == 0)
            return i;
    return -1;
}

static size_t rand_cap(int q)
{
    size_t left = cap_pp > mem[q].used ? cap_pp - mem[q].used : 0, n;
    unsigned r = (unsigned)below(&R, 1000);
    if (r < 50)
        n = range(&R, 1, 8);
    else if (r < 400)
        n = range(&R, 1, 64);
    else if (r < 750)
        n = range(&R, 65, 4 * KIB);
    else if (r < 920)
        n = range(&R, 4 * KIB + 1, 64 * KIB);
    else if (r < 980)
        n = range(&R, 64 * KIB + 1, MIB);
    else
        n = range(&R, 64 * KIB, cap_pp * 3 / 4);
    if (n > left)
        n = left / 2 ? range(&R, 1, left / 2) : 1;
    return n ? n : 1;
}

/* Sizes of transfers: 0 sometimes, mostly small, sometimes 1 MiB, rarely
 * a few; at most max (the whole region or a random part when clamped). */
static size_t rand_op_size(size_t max)
{
    unsigned r = (unsigned)below(&R, 1000);
    size_t n;
    if (r < 60)
        n = 0;
    else if (r < 700)
        n = range(&R, 1, 64);
    else if (r < 900)
        n = range(&R, 65, 4 * KIB);
    else if (r < 975)
        n = range(&R, 4 * KIB + 1, 64 * KIB);
    else if (r < 995)
        n = range(&R, 64 * KIB + 1, MIB);
    else
        n = range(&R, MIB, 4 * MIB);
    if (n > max)
        n = pm(&R, 500) ? max : below(&R, max + 1);
    return n;
}

static size_t rand_msg_size(size_t max)
{
    unsigned r = (unsigned)below(&R, 1000);
    size_t n;
    if (r < 100)
        n = 0;
    else if (r < 750)
        n = range(&R, 1, 64);
    else if (r < 930)
        n = range(&R, 65, KIB);
    else if (r < 985)
        n = range(&R, KIB + 1, 64 * KIB);
    else
        n = range(&R, 64 * KIB + 1, MIB);
    return n > max ? below(&R, max + 1) : n;
}

/* -------------------------------------------------- accesses of one step */

static int conflict(int e, int n)
{
    /* A get's reply lands at the sync before every put and after every local
     * write of the superstep, so it may share bytes with those (A_W), but
     * not with reads, nor with another reply (their order is not modelled). */
    if (e == A_GD || n == A_GD)
        return e != A_W && n != A_W;
    return e == A_EX || n == A_EX || (e == A_RO && n == A_W) || (e == A_W && n == A_RO);
}

static int acc_ok(int q, int a, size_t lo, size_t n, int kind)
{
    if (n == 0)
        return 1;
    AccList *l = &acc[q];
    for (int i = 0; i < l->n; i++) {
        Acc *e = &l->v[i];
        if (e->alloc == a && e->lo < lo + n && lo < e->hi && conflict(e->kind, kind))
            return 0;
    }
    return 1;
}

static void acc_add(int q, int a, size_t lo, size_t n, int kind)
{
    if (n == 0)
        return;
    AccList *l = &acc[q];
    GROW(l->v, l->n, l->max);
    l->v[l->n++] = (Acc){a, lo, lo + n, kind};
}

/* ------------------------------------------------------- registrations */

static int same_part(const Part *a, const Part *b) { return a->alloc == b->alloc && a->off == b->off; }

/* The registration q's address (alloc, off) stands for now: the newest. */
static int newest(int q, const Part *pt)
{
    for (int i = nlive - 1; i >= 0; i--)
        if (same_part(&slots[live[i]].part[q], pt))
            return live[i];
    return -1;
}

static int in_list(const int *l, int n, int q, const Part *pt)
{
    for (int i = 0; i < n; i++)
        if (same_part(&slots[l[i]].part[q], pt))
            return 1;
    return 0;
}

static Op *add_ev(void)
{
    GROW(ev, nev, maxev);
    Op *e = &ev[nev++];
    memset(e, 0, sizeof *e);
    e->opno = -1;
    return e;
}

static void gen_push(void)
{
    GROW(slots, nslots, maxslots);
    int k = nslots++;
    Slot *sl = &slots[k];
    sl->state = SL_PENDING;
    sl->popping = 0;
    sl->born = step;
    sl->died = -1;
    sl->part = xmalloc((size_t)P * sizeof(Part));
    for (int q = 0; q < P; q++) {
        Part pt = {-1, 0, 0};
        if (pm(&R, 400)) {
            if (nlive && pm(&R, 400)) { /* an address registered already */
                pt = slots[live[below(&R, (uint64_t)nlive)]].part[q];
            } else {
                int a = pick_alloc(q, 1);
                if (a >= 0) {
                    pt.alloc = a;
                    pt.off = pm(&R, 250) ? below(&R, mem[q].a[a].cap) : 0;
                }
            }
            /* not an address that q pops in this superstep */
            if (pt.alloc >= 0 && in_list(popl, npopl, q, &pt))
                pt.alloc = -1;
        }
        if (pt.alloc < 0) {
            pt.alloc = new_alloc(q, rand_cap(q));
            pt.off = 0;
        }
        size_t room = mem[q].a[pt.alloc].cap - pt.off;
        pt.size = pm(&R, 650) ? room : below(&R, room + 1);
        mem[q].a[pt.alloc].refs++;
        sl->part[q] = pt;
    }
    pend[npend++] = k;
    Op *e = add_ev();
    e->kind = OP_PUSH;
    e->slot = k;
}

static void gen_pop(void)
{
    int cand[MAXACT], nc = 0;
    for (int i = 0; i < nlive; i++) {
        int k = live[i], ok = !slots[k].popping;
        for (int q = 0; ok && q < P; q++) {
            Part *pt = &slots[k].part[q];
            ok = newest(q, pt) == k && !in_list(pend, npend, q, pt);
        }
        if (ok)
            cand[nc++] = k;
    }
    if (!nc)
        return;
    int k = cand[below(&R, (uint64_t)nc)];
    slots[k].popping = 1;
    popl[npopl++] = k;
    Op *e = add_ev();
    e->kind = OP_POP;
    e->slot = k;
}

/* Pop a registration pushed earlier in this superstep: pushes and pops take
 * effect in call order, so the two cancel.  Only where, on every processor,
 * that push is the newest pending one of its address (the one a pop undoes). */
static void gen_cancel(void)
{
    int cand[64], nc = 0;
    for (int i = 0; i < npend; i++) {
        int ok = 1;
        for (int q = 0; ok && q < P; q++)
            for (int t = i + 1; ok && t < npend; t++)
                ok = !same_part(&slots[pend[t]].part[q], &slots[pend[i]].part[q]);
        if (ok)
            cand[nc++] = i;
    }
    if (!nc)
        return;
    int i = cand[below(&R, (uint64_t)nc)], k = pend[i];
    memmove(&pend[i], &pend[i + 1], (size_t)(npend - i - 1) * sizeof *pend);
    npend--;
    slots[k].state = SL_DEAD;
    slots[k].died = step;
    for (int q = 0; q < P; q++)
        mem[q].a[slots[k].part[q].alloc].refs--;
    Op *e = add_ev();
    e->kind = OP_POP;
    e->slot = k;
}

/* ------------------------------------------------------------ the plan */

static Op *add_op(int q, int kind)
{
    OpList *l = &plan[q];
    GROW(l->v, l->n, l->max);
    Op *op = &l->v[l->n++];
    memset(op, 0, sizeof *op);
    op->kind = kind;
    op->opno = opno[q]++;
    op->lalloc = -1;
    return op;
}

/* q writes a random part of [lo, lo+n) of its allocation a, if allowed. */
static void extra_write(int q, int a, size_t lo, size_t n)
{
    if (n == 0)
        return;
    size_t m = range(&R, 1, n), o = lo + below(&R, n - m + 1);
    if (!acc_ok(q, a, o, m, A_W))
        return;
    acc_add(q, a, o, m, A_W);
    Op *op = add_op(q, OP_WRITE);
    op->lalloc = a;
    op->loff = o;
    op->n = m;
    op->key = op_key(step, q, op->opno, SALT_WRITE);
}

static int pick_target(int q, int *j, int *k)
{
    if (!nusable[q])
        return 0;
    if (hot && pm(&R, 600))
        for (int i = 0; i < nusable[q]; i++)
            if (usable[q][i] == hot_k) {
                *j = hot_j;
                *k = hot_k;
                return 1;
            }
    *j = (int)below(&R, (uint64_t)P);
    *k = usable[q][below(&R, (uint64_t)nusable[q])];
    return 1;
}

static int gen_op(int q, int kind)
{
    int j, k;
    int mq = acc[q].n; /* for rolling back */
    switch (kind) {
    case OP_PUT:
    case OP_HPPUT: {
        int hp = kind == OP_HPPUT;
        if (!pick_target(q, &j, &k))
            return 0;
        Part *d = &slots[k].part[j];
        size_t lim = d->size < budget[q] ? d->size : budget[q];
        size_t n = rand_op_size(lim), off = below(&R, d->size - n + 1);
        int mj = acc[j].n;
        if (!acc_ok(j, d->alloc, d->off + off, n, hp ? A_EX : A_W))
            return 0;
        acc_add(j, d->alloc, d->off + off, n, hp ? A_EX : A_W);
        int la = -1;
        size_t loff = 0;
        if (pm(&R, 350) && (la = pick_alloc(q, n)) >= 0) {
            loff = below(&R, mem[q].a[la].cap - n + 1);
            if (!acc_ok(q, la, loff, n, hp ? A_RO : A_R)) {
                acc[j].n = mj; /* mj == mq when j == q */
                acc[q].n = mq;
                return 0;
            }
            acc_add(q, la, loff, n, hp ? A_RO : A_R);
        }
        Op *op = add_op(q, kind);
        op->pid = j;
        op->slot = k;
        op->off = off;
        op->n = n;
        op->lalloc = la;
        op->loff = loff;
        op->key = op_key(step, q, op->opno, SALT_DATA);
        budget[q] -= n;
        if (!hp && la >= 0 && pm(&R, 400)) /* change the source after the put */
            extra_write(q, la, loff, n);
        if (!hp && pm(&R, 150)) /* the owner writes where the put lands */
            extra_write(j, d->alloc, d->off + off, n);
        return 1;
    }
    case OP_GET:
    case OP_HPGET: {
        int hp = kind == OP_HPGET;
        if (!pick_target(q, &j, &k))
            return 0;
        Part *sp = &slots[k].part[j];
        size_t lim = sp->size < budget[q] ? sp->size : budget[q];
        size_t n = rand_op_size(lim), off = below(&R, sp->size - n + 1);
        int mj = acc[j].n;
        if (!acc_ok(j, sp->alloc, sp->off + off, n, hp ? A_RO : A_R))
            return 0;
        acc_add(j, sp->alloc, sp->off + off, n, hp ? A_RO : A_R);
        int la = -1;
        size_t loff = 0;
        if (pm(&R, 700) && land_used[q] + n + 8 <= land_sz) {
            loff = land_used[q] + below(&R, 8);
            land_used[q] = loff + n;
        } else if ((la = pick_alloc(q, n)) >= 0 &&
                   acc_ok(q, la, loff = below(&R, mem[q].a[la].cap - n + 1), n, hp ? A_EX : A_GD)) {
            acc_add(q, la, loff, n, hp ? A_EX : A_GD); /* puts may land there too: they win */
        } else {
            acc[j].n = mj;
            acc[q].n = mq;
            return 0;
        }
        Op *op = add_op(q, kind);
        op->pid = j;
        op->slot = k;
        op->off = off;
        op->n = n;
        op->lalloc = la;
        op->loff = loff;
        budget[q] -= n;
        if (!hp && pm(&R, 250)) /* the owner writes what is read, later */
            extra_write(j, sp->alloc, sp->off + off, n);
        return 1;
    }
    case OP_SEND: {
        Op *op = add_op(q, OP_SEND);
        op->pid = (int)below(&R, (uint64_t)P);
        op->n = rand_msg_size(budget[q]);
        op->tagsize = (size_t)T;
        op->nullpl = op->n == 0 && pm(&R, 300);
        op->key = op_key(step, q, op->opno, SALT_DATA);
        op->tagkey = op_key(step, q, op->opno, SALT_TAG);
        budget[q] -= op->n;
        return 1;
    }
    case OP_WRITE: {
        int a = pick_alloc(q, 1);
        if (a < 0)
            return 0;
        size_t n = rand_op_size(mem[q].a[a].cap), lo = below(&R, mem[q].a[a].cap - n + 1);
        if (!acc_ok(q, a, lo, n, A_W))
            return 0;
        acc_add(q, a, lo, n, A_W);
        Op *op = add_op(q, OP_WRITE);
        op->lalloc = a;
        op->loff = lo;
        op->n = n;
        op->key = op_key(step, q, op->opno, SALT_WRITE);
        return 1;
    }
    }
    return 0;
}

static void gen_ops(int q)
{
    unsigned r = (unsigned)below(&R, 1000);
    int nops = r < 100 ? 0
             : r < 700 ? (int)range(&R, 1, 8)
             : r < 950 ? (int)range(&R, 9, 32)
                       : (int)range(&R, 33, 96);
    for (int t = 0; t < nops; t++) {
        unsigned w = (unsigned)below(&R, 100);
        int kind = w < 30 ? OP_PUT
                 : w < 50 ? OP_GET
                 : w < 64 ? OP_SEND
                 : w < 80 ? OP_WRITE
                 : w < 90 ? OP_HPPUT
                          : OP_HPGET;
        for (int tries = 0; tries < 3 && !gen_op(q, kind); tries++)
            ;
    }
}

/* Insert the collective events at random places of q's program, in order. */
static void merge(int q)
{
    OpList *l = &plan[q];
    tmpl.n = 0;
    for (int i = 0; i < l->n; i++) {
        GROW(tmpl.v, tmpl.n, tmpl.max);
        tmpl.v[tmpl.n++] = l->v[i];
    }
    int no = tmpl.n, i = 0, e = 0;
    l->n = 0;
    while (i < no || e < nev) {
        GROW(l->v, l->n, l->max);
        if (e < nev && below(&R, (uint64_t)(no - i + nev - e)) < (uint64_t)(nev - e))
            l->v[l->n++] = ev[e++];
        else
            l->v[l->n++] = tmpl.v[i++];
    }
}

static void gen_step(void)
{
    for (int q = 0; q < P; q++) {
        acc[q].n = 0;
        plan[q].n = 0;
        budget[q] = hbudget;
        land_used[q] = 0;
        opno[q] = 0;
    }
    nev = npend = npopl = 0;
    cap_used = 0;
    T_next = T;
    for (int q = 0; q < P; q++)
        for (int i = 0; i < mem[q].n; i++)
            if (mem[q].a[i].alive && mem[q].a[i].refs == 0 && pm(&R, 300))
                free_alloc(q, i);
    if (pm(&R, 80)) {
        static const int tv[] = {0, 1, 2, 3, 4, 5, 7, 8, 12, 16, 31, MAXTAG};
        Op *e = add_ev();
        e->kind = OP_TAGSIZE;
        e->tagval = tv[below(&R, sizeof tv / sizeof tv[0])];
        e->tagsize = (size_t)T; /* returns the size in force ... */
        T_next = e->tagval;
        if (pm(&R, 300)) { /* ... or, when called again, the size the last call asked for */
            e = add_ev();
            e->kind = OP_TAGSIZE;
            e->tagval = tv[below(&R, sizeof tv / sizeof tv[0])];
            e->tagsize = (size_t)T_next;
            T_next = e->tagval;
        }
    }
    int npush = 0, npop = 0;
    if (nlive < 3)
        npush = 3 - nlive + (int)below(&R, 2);
    else if (pm(&R, 250))
        npush = (int)range(&R, 1, 3);
    if (nlive > 4 && pm(&R, 200))
        npop = (int)range(&R, 1, 3);
    if (nlive > 30)
        npop += 2;
    while (npush + npop > 0) {
        if (below(&R, (uint64_t)(npush + npop)) < (uint64_t)npush) {
            npush--;
            if (nlive + npend < MAXACT)
                gen_push();
        } else {
            npop--;
            if (npend && pm(&R, 300))
                gen_cancel();
            else
                gen_pop();
        }
    }
    for (int q = 0; q < P; q++) {
        nusable[q] = 0;
        for (int i = 0; i < nlive; i++) {
            int k = live[i];
            if (!slots[k].popping && newest(q, &slots[k].part[q]) == k)
                usable[q][nusable[q]++] = k;
        }
    }
    hot = nlive > 0 && pm(&R, 150);
    if (hot) {
        hot_j = (int)below(&R, (uint64_t)P);
        hot_k = live[below(&R, (uint64_t)nlive)];
    }
    for (int q = 0; q < P; q++)
        gen_ops(q);
    for (int q = 0; q < P; q++) {
        merge(q);
        for (int i = 0; i < plan[q].n; i++) {
            st_ops[plan[q].v[i].kind]++;
            st_bytes[plan[q].v[i].kind] += plan[q].v[i].n;
        }
    }
}

/* ------------------------------------------------------------ the model */

/* Local writes and put sources, in each processor's program order. */
static void model_local(void)
{
    for (int q = 0; q < P; q++)
        for (int i = 0; i < plan[q].n; i++) {
            Op *op = &plan[q].v[i];
            if (op->kind == OP_WRITE) {
                fill(mem[q].a[op->lalloc].model + op->loff, op->n, op->key);
            } else if ((op->kind == OP_PUT || op->kind == OP_HPPUT) && op->lalloc >= 0) {
                op->data = cap_arena + cap_used;
                cap_used += op->n;
                memcpy(op->data, mem[q].a[op->lalloc].model + op->loff, op->n);
            }
        }
}

static void model_sync(void)
{
    /* gets read before any put lands; their destinations are exclusive */
    for (int q = 0; q < P; q++)
        for (int i = 0; i < plan[q].n; i++) {
            Op *op = &plan[q].v[i];
            if (op->kind != OP_GET && op->kind != OP_HPGET)
                continue;
            Part *sp = &slots[op->slot].part[op->pid];
            const uint8_t *src = mem[op->pid].a[sp->alloc].model + sp->off + op->off;
            if (op->lalloc >= 0)
                memcpy(mem[q].a[op->lalloc].model + op->loff, src, op->n);
            else if (q == me)
                memcpy(land_model + op->loff, src, op->n);
        }
    /* puts by source pid, then issue order */
    for (int q = 0; q < P; q++)
        for (int i = 0; i < plan[q].n; i++) {
            Op *op = &plan[q].v[i];
            if (op->kind != OP_PUT && op->kind != OP_HPPUT)
                continue;
            Part *d = &slots[op->slot].part[op->pid];
            uint8_t *dst = mem[op->pid].a[d->alloc].model + d->off + op->off;
            if (op->lalloc >= 0)
                memcpy(dst, op->data, op->n);
            else
                fill(dst, op->n, op->key);
        }
    /* registrations */
    for (int i = 0; i < npopl; i++) {
        int k = popl[i];
        slots[k].state = SL_DEAD;
        slots[k].died = step;
        for (int q = 0; q < P; q++)
            mem[q].a[slots[k].part[q].alloc].refs--;
        int w = 0;
        for (int t = 0; t < nlive; t++)
            if (live[t] != k)
                live[w++] = live[t];
        nlive = w;
    }
    for (int i = 0; i < npend; i++) {
        slots[pend[i]].state = SL_ACTIVE;
        live[nlive++] = pend[i];
    }
    T = T_next;
}

/* ------------------------------------------------------------ real run */

static uint8_t *ident(int k)
{
    Part *pt = &slots[k].part[me];
    return mem[me].a[pt->alloc].real + pt->off;
}

static void exec_real(void)
{
    hp_used = 0;
    for (int i = 0; i < plan[me].n; i++) {
        Op *op = &plan[me].v[i];
        switch (op->kind) {
        case OP_TAGSIZE: {
            int t = op->tagval;
            bsp_set_tagsize(&t);
            if (t != (int)op->tagsize)
                fail("bsp_set_tagsize(%d) gave previous tag size %d, expected %d", op->tagval, t,
                     (int)op->tagsize);
            break;
        }
        case OP_PUSH:
            bsp_push_reg(ident(op->slot), (int)slots[op->slot].part[me].size);
            break;
        case OP_POP:
            bsp_pop_reg(ident(op->slot));
            break;
        case OP_PUT:
        case OP_HPPUT: {
            uint8_t *src, *tmp = NULL;
            if (op->lalloc >= 0) {
                src = mem[me].a[op->lalloc].real + op->loff;
            } else if (op->kind == OP_PUT) {
                src = tmp = scratch_get(&scratch, &scratch_sz, op->n);
                fill(src, op->n, op->key);
            } else {
                src = hp_arena + hp_used; /* left alone until the sync */
                hp_used += op->n;
                fill(src, op->n, op->key);
            }
            if (op->kind == OP_PUT)
                bsp_put(op->pid, src, ident(op->slot), (int)op->off, (int)op->n);
            else
                bsp_hpput(op->pid, src, ident(op->slot), (int)op->off, (int)op->n);
            if (tmp) /* the put took its copy */
                fill(tmp, op->n, op->key ^ SALT_MUTATE);
            break;
        }
        case OP_GET:
        case OP_HPGET: {
            uint8_t *dst = op->lalloc >= 0 ? mem[me].a[op->lalloc].real + op->loff
                                           : land_real + op->loff;
            if (op->kind == OP_GET)
                bsp_get(op->pid, ident(op->slot), (int)op->off, dst, (int)op->n);
            else
                bsp_hpget(op->pid, ident(op->slot), (int)op->off, dst, (int)op->n);
            break;
        }
        case OP_SEND: {
            uint8_t tag[MAXTAG + 1];
            uint8_t *pl = scratch_get(&scratch, &scratch_sz, op->n);
            fill(tag, op->tagsize, op->tagkey);
            fill(pl, op->n, op->key);
            bsp_send(op->pid, tag, op->nullpl ? NULL : pl, (int)op->n);
            fill(tag, op->tagsize, op->tagkey ^ SALT_MUTATE);
            fill(pl, op->n, op->key ^ SALT_MUTATE);
            break;
        }
        case OP_WRITE:
            fill(mem[me].a[op->lalloc].real + op->loff, op->n, op->key);
            break;
        }
    }
}

/* ------------------------------------------------------------ checking */

/* The operations of this superstep that write byte x of allocation a of
 * this processor (a < 0: the get landing buffer), in the order they apply. */
static void writers(int a, size_t x)
{
    int found = 0;
    for (int i = 0; a >= 0 && i < plan[me].n; i++) {
        Op *op = &plan[me].v[i];
        if (op->kind == OP_WRITE && op->lalloc == a && x >= op->loff && x < op->loff + op->n) {
            fprintf(stderr, "random_model:   local write op %d [%zu, %zu) writes 0x%02x\n",
                    op->opno, op->loff, op->loff + op->n, pattern_byte(op->key, x - op->loff));
            found++;
        }
    }
    for (int i = 0; i < plan[me].n; i++) {
        Op *op = &plan[me].v[i];
        if ((op->kind == OP_GET || op->kind == OP_HPGET) && op->lalloc == a &&
            x >= op->loff && x < op->loff + op->n) {
            Part *sp = &slots[op->slot].part[op->pid];
            fprintf(stderr,
                    "random_model:   %s op %d of processor %d: %zu bytes from processor %d "
                    "registration %d (its allocation #%d offset %zu) offset %zu into [%zu, %zu) "
                    "(byte %zu of it)\n",
                    op_name[op->kind], op->opno, me, op->n, op->pid, op->slot, sp->alloc,
                    sp->off, op->off, op->loff, op->loff + op->n, x - op->loff);
            found++;
        }
    }
    for (int q = 0; a >= 0 && q < P; q++)
        for (int i = 0; i < plan[q].n; i++) {
            Op *op = &plan[q].v[i];
            if ((op->kind != OP_PUT && op->kind != OP_HPPUT) || op->pid != me)
                continue;
            Part *d = &slots[op->slot].part[me];
            size_t lo = d->off + op->off;
            if (d->alloc != a || x < lo || x >= lo + op->n)
                continue;
            unsigned b = op->lalloc >= 0 ? op->data[x - lo] : pattern_byte(op->key, x - lo);
            fprintf(stderr,
                    "random_model:   %s op %d of processor %d: %zu bytes into registration %d "
                    "offset %zu = [%zu, %zu), from %s, writes 0x%02x\n",
                    op_name[op->kind], op->opno, q, op->n, op->slot, op->off, lo, lo + op->n,
                    op->lalloc >= 0 ? "its registered memory" : "a temporary", b);
            found++;
        }
    if (!found)
        fprintf(stderr, "random_model:   no operation of superstep %d writes this byte: its "
                        "value is from an earlier superstep (a stray write?)\n",
                step);
}

static void check_buf(const uint8_t *real, const uint8_t *model, size_t n, int a)
{
    if (!memcmp(real, model, n))
        return;
    size_t x = 0, last = 0, nd = 0;
    while (real[x] == model[x])
        x++;
    for (size_t i = x; i < n; i++)
        if (real[i] != model[i]) {
            nd++;
            last = i;
        }
    char what[1024];
    int w;
    if (a < 0) {
        w = snprintf(what, sizeof what, "get landing buffer (unregistered, %zu bytes)", n);
    } else {
        Alloc *al = &mem[me].a[a];
        w = snprintf(what, sizeof what, "allocation #%d (%zu bytes, from superstep %d%s", a,
                     al->cap, al->born, al->refs ? "; model registrations" : ", unregistered");
        for (int i = 0; i < nlive && w < 900; i++) {
            Part *pt = &slots[live[i]].part[me];
            if (pt->alloc == a)
                w += snprintf(what + w, sizeof what - (size_t)w, " #%d [%zu, %zu)", live[i],
                              pt->off, pt->off + pt->size);
        }
        snprintf(what + w, sizeof what - (size_t)w, ")");
    }
    fprintf(stderr,
            "random_model: MISMATCH seed %" PRIu64 " superstep %d processor %d: %s offset %zu: "
            "expected 0x%02x actual 0x%02x (%zu bytes differ in [%zu, %zu])\n",
            g_seed, step, me, what, x, model[x], real[x], nd, x, last + 1);
    writers(a, x);
    fail("%s offset %zu: expected byte 0x%02x, actual 0x%02x", what, x, model[x], real[x]);
}

static void check_memory(void)
{
    for (int i = 0; i < mem[me].n; i++) {
        Alloc *a = &mem[me].a[i];
        if (a->alive)
            check_buf(a->real, a->model, a->cap, i);
    }
    check_buf(land_real, land_model, land_sz, -1);
}

/* Messages sent to this processor in this superstep, in delivery order. */
static void expect_msgs(void)
{
    nex = rd = 0;
    for (int q = 0; q < P; q++)
        for (int i = 0; i < plan[q].n; i++) {
            Op *op = &plan[q].v[i];
            if (op->kind != OP_SEND || op->pid != me)
                continue;
            GROW(ex, nex, maxex);
            ex[nex++] = (Msg){q, op->opno, op->n, op->tagsize, op->key, op->tagkey};
        }
}

static void check_qsize(const char *when)
{
    int nm = -7, nb = -7;
    long long en = nex - rd, eb = 0;
    for (int i = rd; i < nex; i++)
        eb += (long long)ex[i].n;
    bsp_qsize(&nm, &nb);
    if (nm != en || nb != eb)
        fail("bsp_qsize %s: %d messages of %d bytes, expected %lld of %lld bytes", when, nm, nb,
             en, eb);
}

#define MSGFAIL(m, ...)                                                                      \
    fail("message %d of %d (from processor %d, its op %d, sent in superstep %d, %zu bytes, "   \
         "tag size %zu): " __VA_ARGS__)

static void read_msgs(int all)
{
    int upto = nex;
    if (!all) {
        unsigned mode = (unsigned)below(&L, 10);
        if (mode == 0) { /* leave them all */
            if (pm(&L, 500))
                check_qsize("before reading");
            return;
        }
        if (mode <= 2)
            upto = (int)below(&L, (uint64_t)nex + 1);
    }
    check_qsize("at the start of the superstep");
    uint8_t etag[MAXTAG + 1];
    while (rd < upto) {
        Msg *m = &ex[rd];
        int ps = step - 1;
        if (pm(&L, 150))
            check_qsize("between messages");
        uint8_t *epl = scratch_get(&scratch2, &scratch2_sz, m->n);
        fill(epl, m->n, m->key);
        fill(etag, m->tagsize, m->tagkey);
        unsigned how = (unsigned)below(&L, 5);
        if (how != 2) {
            uint8_t tag[MAXTAG + 32];
            int status = -7;
            memset(tag, 0xA5, sizeof tag);
            bsp_get_tag(&status, tag);
            if (status != (int)m->n)
                MSGFAIL(m, "bsp_get_tag status %d, expected %zu", rd, nex, m->src, m->opno, ps,
                        m->n, m->tagsize, status, m->n);
            for (size_t b = 0; b < sizeof tag; b++) {
                unsigned e = b < m->tagsize ? etag[b] : 0xA5;
                if (tag[b] != e)
                    MSGFAIL(m, "tag byte %zu is 0x%02x, expected 0x%02x%s", rd, nex, m->src,
                            m->opno, ps, m->n, m->tagsize, b, tag[b], e,
                            b < m->tagsize ? "" : " (untouched beyond the tag size)");
            }
        }
        if (how >= 3) {
            void *tp = NULL, *pp = NULL;
            int r = bsp_hpmove(&tp, &pp);
            if (r != (int)m->n)
                MSGFAIL(m, "bsp_hpmove gave %d, expected %zu", rd, nex, m->src, m->opno, ps,
                        m->n, m->tagsize, r, m->n);
            if (m->tagsize && memcmp(tp, etag, m->tagsize))
                MSGFAIL(m, "bsp_hpmove tag differs", rd, nex, m->src, m->opno, ps, m->n,
                        m->tagsize);
            if (m->n && memcmp(pp, epl, m->n)) {
                size_t b = 0;
                while (((uint8_t *)pp)[b] == epl[b])
                    b++;
                MSGFAIL(m, "bsp_hpmove payload byte %zu is 0x%02x, expected 0x%02x", rd, nex,
                        m->src, m->opno, ps, m->n, m->tagsize, b, ((uint8_t *)pp)[b], epl[b]);
            }
            GROW(held, nheld, maxheld);
            held[nheld++] = (Held){rd, tp, pp};
        } else {
            size_t recv = how == 0 ? m->n + below(&L, 16) : how == 1 ? below(&L, m->n + 1) : m->n;
            size_t cp = recv < m->n ? recv : m->n;
            uint8_t *buf = scratch_get(&scratch, &scratch_sz, recv + 16);
            memset(buf, 0x5A, recv + 16);
            bsp_move(buf, (int)recv);
            for (size_t b = 0; b < recv + 16; b++) {
                unsigned e = b < cp ? epl[b] : 0x5A;
                if (buf[b] != e)
                    MSGFAIL(m, "bsp_move(buf, %zu): byte %zu is 0x%02x, expected 0x%02x%s", rd,
                            nex, m->src, m->opno, ps, m->n, m->tagsize, recv, b, buf[b], e,
                            b < cp ? "" : " (untouched)");
            }
        }
        rd++;
    }
    if (rd == nex) {
        check_qsize("after reading every message");
        int status = -7;
        uint8_t tag[MAXTAG + 32];
        bsp_get_tag(&status, tag);
        if (status != -1)
            fail("bsp_get_tag on an empty queue: status %d, expected -1", status);
        if (pm(&L, 300)) {
            void *tp, *pp;
            int r = bsp_hpmove(&tp, &pp);
            if (r != -1)
                fail("bsp_hpmove on an empty queue gave %d, expected -1", r);
        }
    }
}

/* bsp_hpmove's pointers must still show the messages at the end of the
 * superstep, after this superstep's sends. */
static void check_held(void)
{
    uint8_t etag[MAXTAG + 1];
    for (int i = 0; i < nheld; i++) {
        Msg *m = &ex[held[i].msg];
        uint8_t *epl = scratch_get(&scratch2, &scratch2_sz, m->n);
        fill(epl, m->n, m->key);
        fill(etag, m->tagsize, m->tagkey);
        if ((m->tagsize && memcmp(held[i].tag, etag, m->tagsize)) ||
            (m->n && memcmp(held[i].payload, epl, m->n)))
            MSGFAIL(m, "what bsp_hpmove pointed to changed before the next bsp_sync",
                    held[i].msg, nex, m->src, m->opno, step - 1, m->n, m->tagsize);
    }
    nheld = 0;
}

/* ------------------------------------------------------------ driver */

static void setup(void)
{
    cap_pp = MODEL_TOTAL / (size_t)P;
    if (cap_pp > MODEL_MAX)
        cap_pp = MODEL_MAX;
    hbudget = cap_pp / 2;
    land_sz = cap_pp / 4;
    mem = calloc((size_t)P, sizeof *mem);
    acc = calloc((size_t)P, sizeof *acc);
    plan = calloc((size_t)P, sizeof *plan);
    usable = calloc((size_t)P, sizeof *usable);
    nusable = calloc((size_t)P, sizeof *nusable);
    budget = calloc((size_t)P, sizeof *budget);
    land_used = calloc((size_t)P, sizeof *land_used);
    opno = calloc((size_t)P, sizeof *opno);
    live = calloc(MAXACT + 64, sizeof *live);
    if (!mem || !acc || !plan || !usable || !nusable || !budget || !land_used || !opno || !live)
        bsp_abort("random_model: out of memory");
    for (int q = 0; q < P; q++)
        usable[q] = xmalloc(MAXACT * sizeof(int));
    cap_arena = xmalloc((size_t)P * hbudget);
    hp_arena = xmalloc(hbudget);
    land_real = xmalloc(land_sz);
    land_model = xmalloc(land_sz);
    fill(land_model, land_sz, op_key(0, me, 0, SALT_ALLOC));
    memcpy(land_real, land_model, land_sz);
    R.s = g_seed;
    L.s = fin64(g_seed ^ (0x1234567ULL + (uint64_t)me));
}

static void teardown(void)
{
    for (int q = 0; q < P; q++) {
        for (int i = 0; i < mem[q].n; i++)
            if (mem[q].a[i].alive)
                free_alloc(q, i);
        free(mem[q].a);
        free(acc[q].v);
        free(plan[q].v);
        free(usable[q]);
    }
    for (int k = 0; k < nslots; k++)
        free(slots[k].part);
    free(slots);
    free(mem);
    free(acc);
    free(plan);
    free(usable);
    free(nusable);
    free(budget);
    free(land_used);
    free(opno);
    free(live);
    free(tmpl.v);
    free(ev);
    free(ex);
    free(held);
    free(cap_arena);
    free(hp_arena);
    free(land_real);
    free(land_model);
    free(scratch);
    free(scratch2);
}

static uint64_t arg_seed;
static int arg_K = -1;

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    P = bsp_nprocs();
    me = bsp_pid();
    step = 0;
    if (P < 1 || me < 0 || me >= P)
        bsp_abort("random_model: bsp_pid %d, bsp_nprocs %d", me, P);
    /* superstep 0: processor 0 tells everyone the seed */
    if (me == 0) {
        printf("random_model: seed %" PRIu64 ", p %d, supersteps %d\n", arg_seed, P, arg_K);
        fflush(stdout);
        uint64_t hello[2] = {arg_seed, (uint64_t)arg_K};
        for (int j = 0; j < P; j++)
            bsp_send(j, hello, hello, (int)sizeof hello);
    }
    bsp_sync();
    {
        int nm = -7, nb = -7, status = -7;
        uint64_t hello[2];
        bsp_qsize(&nm, &nb);
        bsp_get_tag(&status, hello);
        if (nm != 1 || nb != (int)sizeof hello || status != (int)sizeof hello)
            bsp_abort("random_model: processor %d superstep 0: bsp_qsize %d messages %d bytes, "
                      "bsp_get_tag status %d; expected 1 message of 16 bytes from processor 0",
                      me, nm, nb, status);
        bsp_move(hello, (int)sizeof hello);
        g_seed = hello[0];
        g_K = (int)hello[1];
    }
    setup();
    T = 0;
    nex = rd = 0;
    for (step = 1; step <= g_K; step++) {
        gen_step();
        model_local();
        read_msgs(0);
        exec_real();
        if (pm(&L, 200))
            check_qsize("after this superstep's sends");
        check_held();
        bsp_sync();
        model_sync();
        check_memory();
        expect_msgs();
    }
    /* step == g_K + 1: read everything the last superstep sent */
    read_msgs(1);
    check_held();
    bsp_sync();
    teardown();
    if (me == 0) {
        printf("random_model: all processors together issued");
        for (int k = 0; k <= OP_TAGSIZE; k++) {
            if (k == OP_PUSH)
                st_ops[k] /= (unsigned long long)P, st_bytes[k] = 0;
            if (k == OP_POP || k == OP_TAGSIZE)
                st_ops[k] /= (unsigned long long)P;
            printf("%s %llu %s", k ? "," : "", st_ops[k], op_name[k]);
            if (st_bytes[k])
                printf(" (%llu bytes)", st_bytes[k]);
        }
        printf("\nrandom_model: OK\n");
        fflush(stdout);
    }
    bsp_end();
}

int main(int argc, char **argv)
{
    if (argc > 1)
        arg_seed = strtoull(argv[1], NULL, 0);
    else
        arg_seed = ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20)) % 1000000007ULL;
    arg_K = argc > 2 ? atoi(argv[2]) : 100;
    if (arg_K < 0)
        arg_K = 0;
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
