/* dialect_mixed.c - a MulticoreBSP for C 2.x program (bsp_pid_t, size_t
 * sizes, SIZE_MAX for "none", pointer arguments of those types) compiled
 * with plain bsp.h, no flag, next to 1998-style calls in the same file
 * (int ids and sizes, -1): both behave as their dialect says.  Built with
 * -Wall -Wextra -Werror, so it also shows that neither style warns; the C++
 * compiler builds it too (dialect_cxx.sh). */
// RUN: n=1
// RUN: n=3
// RUN: n=4
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static size_t cell[4];
static int icell[4];

static void mcbsp_style(void)
{
    bsp_pid_t s = bsp_pid();
    bsp_nprocs_t p = bsp_nprocs();
    bsp_pid_t right = (s + 1) % p;
    bsp_size_t tagsize = sizeof(bsp_size_t);
    bsp_set_tagsize(&tagsize);
    CHECK(tagsize == 0, "previous tag size %zu", tagsize);
    bsp_push_reg(cell, sizeof cell);
    bsp_sync();
    size_t v = 100 + s;
    bsp_put(right, &v, cell, sizeof(size_t), sizeof v);
    for (bsp_pid_t q = 0; q < bsp_nprocs(); q++) {
        bsp_size_t tag = s;
        bsp_send(q, &tag, &v, sizeof v);
    }
    bsp_sync();
    CHECK(cell[1] == 100 + (s + p - 1) % p, "put: %zu", cell[1]);
    bsp_nprocs_t n;
    bsp_size_t bytes;
    bsp_qsize(&n, &bytes);
    CHECK(n == p && bytes == p * sizeof v, "qsize %u %zu", n, bytes);
    bsp_qsize(&n, NULL); /* MulticoreBSP: the byte count is optional */
    for (bsp_nprocs_t i = 0; i < n; i++) {
        bsp_size_t status, tag;
        bsp_get_tag(&status, &tag);
        CHECK(status == sizeof v && tag == i, "message %u: status %zu tag %zu", i, status, tag);
        size_t got = 0;
        bsp_move(&got, SIZE_MAX);
        CHECK(got == 100 + i, "payload %zu", got);
    }
    bsp_size_t status;
    bsp_get_tag(&status, NULL);
    CHECK(status == SIZE_MAX, "empty queue status %zu", status);
    void *t, *pl;
    bsp_size_t h = bsp_hpmove(&t, &pl);
    CHECK(h == SIZE_MAX, "empty queue hpmove %zu", h);
    bsp_pop_reg(cell);
    tagsize = 0;
    bsp_set_tagsize(&tagsize);
    bsp_sync();
}

static void bsplib1998_style(void)
{
    int s = bsp_pid(), p = bsp_nprocs();
    bsp_push_reg(icell, (int)sizeof icell);
    bsp_sync();
    int v = 7 * s;
    bsp_put((s + 1) % p, &v, icell, (int)sizeof(int), (int)sizeof v);
    for (int q = 0; q < p; q++)
        bsp_send(q, NULL, &v, (int)sizeof v);
    bsp_sync();
    CHECK(icell[1] == 7 * ((s + p - 1) % p), "put: %d", icell[1]);
    int n, bytes;
    bsp_qsize(&n, &bytes);
    CHECK(n == p && bytes == p * (int)sizeof v, "qsize %d %d", n, bytes);
    for (int i = 0; i < p; i++)
        bsp_move(&v, (int)sizeof v);
    int status;
    bsp_get_tag(&status, NULL);
    CHECK(status == -1, "empty queue status %d", status);
    void *t, *pl;
    CHECK(bsp_hpmove(&t, &pl) == -1, "empty queue hpmove");
    int tagsize = 4;
    bsp_set_tagsize(&tagsize);
    CHECK(tagsize == 0, "previous tag size %d", tagsize);
    tagsize = 8; /* a second call in the superstep returns the size the first asked for */
    bsp_set_tagsize(&tagsize);
    CHECK(tagsize == 4, "previous tag size %d after a call with 4", tagsize);
    bsp_pop_reg(icell);
    bsp_sync();
    tagsize = 0;
    bsp_set_tagsize(&tagsize);
    CHECK(tagsize == 8, "tag size in force %d", tagsize);
    bsp_sync();
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    mcbsp_style();
    bsplib1998_style();
    unsigned int u = 0; /* BSPonMPI's tests pass a bsp_pid_t for a tag size */
    bsp_set_tagsize(&u);
    CHECK(u == 0, "previous tag size %u", u);
    bsp_sync();
    bsp_end();
    return 0;
}
