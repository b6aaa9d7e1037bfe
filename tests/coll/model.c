/* model.c - every collective of bsc.h, each variant forced in turn
 * (SUPERSTEP_COLL_ALG) and chosen by cost, against a sequential model of
 * what each member must hold: odd and zero sizes, a non-commutative
 * operator (so reductions and scans must combine in member order), sets
 * of calls in one step, a partition and a neighbourhood group, and plain
 * BSPlib puts and messages in the same supersteps as the collectives. */
// RUN: n=1
// RUN: n=2
// RUN: n=3
// RUN: n=4
// RUN: n=5
// RUN: n=7
// RUN: n=8
// RUN: n=11 timeout=180
// RUN: n=16 timeout=300
#include <bsc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static unsigned P, S;

static unsigned char byte_of(unsigned s, size_t k, unsigned salt)
{
    return (unsigned char)(s * 131u + k * 7u + salt * 29u + 1u);
}

static void fill(unsigned char *b, size_t n, unsigned s, unsigned salt)
{
    for (size_t k = 0; k < n; k++)
        b[k] = byte_of(s, k, salt);
}

/* An affine map x -> a x + b (mod 2^32): composing them is associative,
 * not commutative.  x (+) y: first x, then y. */
struct aff {
    uint32_t a, b;
};
static struct aff compose(struct aff x, struct aff y)
{
    return (struct aff){ y.a * x.a, y.a * x.b + y.b };
}
static struct aff aff_of(unsigned s, size_t k)
{
    return (struct aff){ 2 * (s * 7 + (unsigned)k) + 3, s * 1000 + (unsigned)k };
}
static const struct aff identity = { 1, 0 };

static void aff_reduce(void *a, const void *a0, const void *xs, bsc_size_t size)
{
    struct aff acc, x;
    memcpy(&acc, a0, sizeof acc);
    for (size_t k = 0; k < size / sizeof x; k++) {
        memcpy(&x, (const char *)xs + k * sizeof x, sizeof x);
        acc = compose(acc, x);
    }
    memcpy(a, &acc, sizeof acc);
}

static void aff_scan(void *a, const void *a0, const void *xs, bsc_size_t size)
{
    struct aff acc, x;
    memcpy(&acc, a0, sizeof acc);
    for (size_t k = 0; k < size / sizeof x; k++) {
        memcpy(&x, (const char *)xs + k * sizeof x, sizeof x);
        acc = compose(acc, x);
        memcpy((char *)a + k * sizeof acc, &acc, sizeof acc);
    }
}

/* Member s has nmemb(s) elements: s % 3 (some have none). */
static size_t nmemb_of(unsigned s)
{
    return s % 3;
}

static void set_variant(const char *v)
{
    if (v)
        setenv("SUPERSTEP_COLL_ALG", v, 1);
    else
        unsetenv("SUPERSTEP_COLL_ALG");
}

/* ---- data movers and the broadcast -------------------------------------------- */

static void check_bcast(size_t size, unsigned root, const char *variant)
{
    unsigned char *src = malloc(size + 1), *dst = calloc(size + 1, 1);
    fill(src, size, root, 5);
    bsp_push_reg(dst, size);
    bsp_sync();
    bsc_bcast(bsc_current(), root, bsc_all, S == root ? src : NULL, dst, size);
    bsc_sync(bsc_flush);
    for (size_t k = 0; k < size; k++)
        CHECK(dst[k] == byte_of(root, k, 5), "bcast %s of %zu bytes from %u: byte %zu is %u", variant, size, root, k,
              dst[k]);
    bsp_pop_reg(dst);
    free(src);
    free(dst);
}

static void check_movers(size_t size)
{
    unsigned root = P / 2;
    unsigned char *mine = malloc(size + 1), *all = calloc(P * size + 1, 1), *piece = calloc(size + 1, 1),
                  *out = malloc(P * size + 1), *ex = calloc(P * size + 1, 1);
    fill(mine, size, S, 1);
    for (unsigned k = 0; k < P; k++)
        fill(out + k * size, size, S * 100 + k, 2);
    bsp_push_reg(mine, size);
    bsp_push_reg(piece, size);
    bsp_push_reg(ex, P * size);
    bsp_sync();
    bsc_step_t s = bsc_current();
    bsc_scatter(s, root, bsc_all, out, piece, size);
    bsc_sync(bsc_flush);
    for (size_t j = 0; j < size; j++)
        CHECK(piece[j] == byte_of(root * 100 + S, j, 2), "scatter of %zu: byte %zu", size, j);
    bsc_gather(bsc_current(), root, bsc_all, mine, all, size);
    bsc_alltoall(bsc_current(), bsc_all, out, ex, size);
    bsc_sync(bsc_flush);
    for (unsigned k = 0; k < P && S == root; k++)
        for (size_t j = 0; j < size; j++)
            CHECK(all[k * size + j] == byte_of(k, j, 1), "gather of %zu: member %u byte %zu", size, k, j);
    for (unsigned k = 0; k < P; k++)
        for (size_t j = 0; j < size; j++)
            CHECK(ex[k * size + j] == byte_of(k * 100 + S, j, 2), "alltoall of %zu: from %u byte %zu", size, k, j);
    memset(all, 0, P * size);
    bsc_allgather(bsc_current(), bsc_all, mine, all, size);
    bsc_sync(bsc_flush);
    for (unsigned k = 0; k < P; k++)
        for (size_t j = 0; j < size; j++)
            CHECK(all[k * size + j] == byte_of(k, j, 1), "allgather of %zu: member %u byte %zu", size, k, j);
    bsp_pop_reg(ex);
    bsp_pop_reg(piece);
    bsp_pop_reg(mine);
    free(mine), free(all), free(piece), free(out), free(ex);
}

/* ---- reductions ------------------------------------------------------------------------- */

/* The model: every element of members 0..upto (exclusive), in order. */
static struct aff model_upto(unsigned upto)
{
    struct aff acc = identity;
    for (unsigned s = 0; s < upto; s++)
        for (size_t k = 0; k < nmemb_of(s); k++)
            acc = compose(acc, aff_of(s, k));
    return acc;
}

static void check_reductions(const char *variant)
{
    size_t n = nmemb_of(S);
    struct aff src[3], dst[3], red = { 0, 0 }, all = { 0, 0 }, *tmp = calloc(2 * P + 2, sizeof *tmp);
    for (size_t k = 0; k < n; k++)
        src[k] = aff_of(S, k);
    bsp_push_reg(tmp, (2 * P + 2) * sizeof *tmp);
    bsp_sync();
    unsigned root = (P - 1) / 2;
    bsc_reduce(bsc_current(), root, bsc_all, src, &red, tmp, aff_reduce, &identity, n, sizeof *src);
    bsc_sync(bsc_flush);
    bsc_allreduce(bsc_current(), bsc_all, src, &all, tmp, aff_reduce, &identity, n, sizeof *src);
    bsc_sync(bsc_flush);
    bsc_scan(bsc_current(), bsc_all, src, dst, tmp, aff_scan, &identity, n, sizeof *src);
    bsc_sync(bsc_flush);
    struct aff total = model_upto(P);
    if (S == root)
        CHECK(red.a == total.a && red.b == total.b, "reduce %s: (%u,%u), want (%u,%u)", variant, red.a, red.b,
              total.a, total.b);
    CHECK(all.a == total.a && all.b == total.b, "allreduce %s: (%u,%u), want (%u,%u)", variant, all.a, all.b,
          total.a, total.b);
    struct aff before = model_upto(S);
    for (size_t k = 0; k < n; k++) {
        before = compose(before, aff_of(S, k));
        CHECK(dst[k].a == before.a && dst[k].b == before.b, "scan %s: element %zu (%u,%u), want (%u,%u)", variant, k,
              dst[k].a, dst[k].b, before.a, before.b);
    }
    bsp_pop_reg(tmp);
    free(tmp);
}

/* The single algorithms with each fan-out, as BSPonMPI's tests call them. */
static void check_qtrees(void)
{
    struct aff src[3], red = { 0, 0 }, all = { 0, 0 }, dst[3], *tmp = calloc(2 * P + 2, sizeof *tmp);
    unsigned char x[9] = { 0 }, y[9] = { 0 };
    size_t n = nmemb_of(S);
    for (size_t k = 0; k < n; k++)
        src[k] = aff_of(S, k);
    bsp_push_reg(tmp, (2 * P + 2) * sizeof *tmp);
    bsp_push_reg(y, sizeof y);
    bsp_sync();
    struct aff total = model_upto(P);
    for (unsigned q = 2; q <= P + 1; q++) {
        unsigned root = q % P;
        fill(x, sizeof x, q, 3);
        bsc_step_t d = bsc_bcast_qtree_single(bsc_current(), root, bsc_all, x, y, sizeof x, q);
        d = bsc_reduce_qtree_single(d, root, bsc_all, src, &red, tmp, aff_reduce, &identity, n, sizeof *src, q);
        d = bsc_allreduce_qtree_single(d, bsc_all, src, &all, tmp, aff_reduce, &identity, n, sizeof *src, q);
        bsc_scan_qtree_single(d, bsc_all, src, dst, tmp, aff_scan, &identity, n, sizeof *src, q);
        bsc_sync(bsc_flush);
        for (size_t k = 0; k < sizeof y; k++)
            CHECK(y[k] == byte_of(q, k, 3), "bcast qtree q=%u byte %zu", q, k);
        if (S == root)
            CHECK(red.a == total.a && red.b == total.b, "reduce qtree q=%u", q);
        CHECK(all.a == total.a && all.b == total.b, "allreduce qtree q=%u", q);
        struct aff before = model_upto(S);
        for (size_t k = 0; k < n; k++) {
            before = compose(before, aff_of(S, k));
            CHECK(dst[k].a == before.a && dst[k].b == before.b, "scan qtree q=%u element %zu", q, k);
        }
    }
    bsp_pop_reg(y);
    bsp_pop_reg(tmp);
    free(tmp);
}

/* ---- groups, sets, and plain traffic in the same supersteps ------------------------------- */

static void check_groups(void)
{
    /* A partition: even and odd pids; each reduces its own members. */
    bsc_group_t half = bsc_group_create_partition(S % 2);
    unsigned members = (P - S % 2 + 1) / 2, first = S % 2;
    struct aff src[3], all = { 0, 0 }, *tmp = calloc(P + 2, sizeof *tmp);
    size_t n = nmemb_of(S);
    for (size_t k = 0; k < n; k++)
        src[k] = aff_of(S, k);
    int got = -1, mine = (int)S, msg = -1;
    bsp_push_reg(tmp, (P + 2) * sizeof *tmp);
    bsp_push_reg(&got, sizeof got);
    bsp_sync();
    bsc_allreduce(bsc_current(), half, src, &all, tmp, aff_reduce, &identity, n, sizeof *src);
    bsp_put((S + 1) % P, &mine, &got, 0, sizeof mine); /* plain traffic beside it */
    bsp_send((S + P - 1) % P, NULL, &mine, sizeof mine);
    bsc_sync(bsc_current() + 1);
    int count = 0, bytes = 0;
    bsp_qsize(&count, &bytes);
    if (count == 1)
        bsp_move(&msg, sizeof msg);
    CHECK(got == (int)((S + P - 1) % P), "a plain put beside a collective: %d", got);
    CHECK(msg == (int)((S + 1) % P), "a message beside a collective: %d", msg);
    bsc_sync(bsc_flush);
    struct aff want = identity;
    for (unsigned k = 0; k < members; k++)
        for (size_t j = 0; j < nmemb_of(first + 2 * k); j++)
            want = compose(want, aff_of(first + 2 * k, j));
    CHECK(all.a == want.a && all.b == want.b, "allreduce over the partition %u: (%u,%u) want (%u,%u)", S % 2, all.a,
          all.b, want.a, want.b);
    bsc_group_destroy(half);

    /* A neighbourhood: left, self, right; all-gather in that order. */
    bsc_pid_t nb[3] = { (S + P - 1) % P, S, (S + 1) % P };
    bsc_size_t nn = P >= 3 ? 3 : P == 2 ? 2 : 1;
    if (P == 2)
        nb[0] = S, nb[1] = 1 - S;
    bsc_group_t hood = bsc_group_create_neighbourhood(nb, nn);
    int id = (int)S * 10, ids[3] = { -1, -1, -1 };
    bsp_push_reg(&id, sizeof id);
    bsp_sync();
    bsc_allgather(bsc_current(), hood, &id, ids, sizeof id);
    bsc_sync(bsc_flush);
    for (bsc_size_t k = 0; k < nn; k++)
        CHECK(ids[k] == (int)nb[k] * 10, "neighbourhood allgather: %d from %u", ids[k], (unsigned)nb[k]);
    bsc_group_destroy(hood);
    bsp_pop_reg(&id);
    bsp_pop_reg(&got);
    bsp_pop_reg(tmp);
    free(tmp);
}

/* Several broadcasts from one root in one step run as one set. */
static void check_set(void)
{
    int x[6], y[6];
    for (int k = 0; k < 6; k++)
        x[k] = (int)S * 10 + k, y[k] = -1;
    for (int k = 0; k < 6; k++)
        bsp_push_reg(&y[k], sizeof y[k]);
    bsp_sync();
    bsc_step_t d = bsc_current(), done = d;
    for (int k = 0; k < 6; k++)
        done = bsc_bcast(d, 0, bsc_all, &x[k], &y[k], sizeof x[k]);
    CHECK(bsc_sync(done) == done, "bsc_sync(%u)", done);
    for (int k = 0; k < 6; k++)
        CHECK(y[k] == k, "set of broadcasts: y[%d] = %d", k, y[k]);
    bsc_sync(bsc_flush);
    CHECK(bsc_current() == 0, "a flush starts the epoch at 0, not %u", bsc_current());
    for (int k = 0; k < 6; k++)
        bsp_pop_reg(&y[k]);
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    P = bsp_nprocs(), S = bsp_pid();
    static const char *const variants[] = { NULL, "1phase", "2phase", "tree" };
    static const size_t sizes[] = { 0, 1, 13, 1000, 4099 };
    for (size_t v = 0; v < 4; v++) {
        set_variant(variants[v]);
        const char *name = variants[v] ? variants[v] : "auto";
        for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
            check_bcast(sizes[i], (unsigned)(i % P), name);
        check_reductions(name);
    }
    set_variant(NULL);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        check_movers(sizes[i]);
    check_qtrees();
    check_groups();
    check_set();
    bsp_end();
    if (S == 0)
        printf("model: ok on %u processors\n", P);
    return 0;
}
