/*
 * session_mpi.c - the packets an Epiphany host and its kernels exchange on
 * the mpi device (session_mpi.h), in the mpi plug-in.
 */
#include <mpi.h>

#include "mpi/session_mpi.h"
#include "mpi/mpi_wait.h"
#include "launch/launch.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

/* ---- packets ------------------------------------------------------------------ */

static void *em_grow(void *p, uint64_t *cap, uint64_t need, size_t unit)
{
    if (need <= *cap)
        return p;
    uint64_t c = *cap ? *cap : 64;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * unit);
    if (!q)
        core->launch_fail(LAUNCH_EXIT_ERROR, "ebsp_spmd: out of memory (%llu bytes) copying the session segment",
                    (unsigned long long)(c * unit));
    *cap = c;
    return q;
}

static void add_run(struct em_build *b, const struct segment *s, uint64_t off, uint64_t len)
{
    b->runs = em_grow(b->runs, &b->cap_runs, 2 * (b->h.nruns + 1), sizeof *b->runs);
    b->runs[2 * b->h.nruns] = off;
    b->runs[2 * b->h.nruns + 1] = len;
    b->h.nruns++;
    b->data = em_grow(b->data, &b->cap_data, b->h.data_len + len, 1);
    memcpy(b->data + b->h.data_len, s->base + off, len);
    b->h.data_len += len;
}

void em_add_extents(struct em_build *b, const struct segment *s, uint64_t lo, uint64_t hi)
{
    uint64_t at = lo;
    while (at < hi) {
        off_t d = lseek(s->fd, (off_t)at, SEEK_DATA);
        if (d < 0 || (uint64_t)d >= hi)
            return; /* ENXIO: no data after 'at' */
        off_t h = lseek(s->fd, d, SEEK_HOLE);
        uint64_t end = h < 0 || (uint64_t)h > hi ? hi : (uint64_t)h;
        add_run(b, s, (uint64_t)d, end - (uint64_t)d);
        at = end;
    }
}

/* Byte for byte: every kernel's runs are applied at the host, so a run
 * must hold no byte its kernel did not change, which another kernel may
 * have (up streams of 16-byte chunks lie side by side: sent in 64-byte
 * blocks, a kernel's stale copy of its neighbour's stream overwrote it).
 * Equal 64-byte blocks are skipped whole. */
void em_add_changes(struct em_build *b, const struct segment *s, uint64_t lo, uint64_t hi, const char *old)
{
    const uint64_t blk = 64;
    const char *now = s->base + lo;
    uint64_t at = 0, n = hi - lo;
    while (at < n) {
        if (at % blk == 0 && n - at >= blk && !memcmp(now + at, old + at, blk)) {
            at += blk;
            continue;
        }
        if (now[at] == old[at]) {
            at++;
            continue;
        }
        uint64_t start = at;
        while (at < n && now[at] != old[at])
            at++;
        add_run(b, s, lo + start, at - start);
    }
}

void em_send_bytes(const void *buf, uint64_t n, int dst, int tag, MPI_Comm c)
{
    const char *p = buf;
    while (n) {
        int k = (int)(n < EM_PIECE ? n : EM_PIECE);
        MPI_Send(p, k, MPI_BYTE, dst, tag, c);
        p += k;
        n -= (uint64_t)k;
    }
}

void em_recv_bytes(void *buf, uint64_t n, int src, int tag, MPI_Comm c)
{
    char *p = buf;
    while (n) {
        int k = (int)(n < EM_PIECE ? n : EM_PIECE);
        MPI_Recv(p, k, MPI_BYTE, src, tag, c, MPI_STATUS_IGNORE);
        p += k;
        n -= (uint64_t)k;
    }
}

void em_send(struct em_build *b, int dst, int tag, MPI_Comm c)
{
    MPI_Send(&b->h, (int)(sizeof b->h / sizeof(uint64_t)), MPI_UINT64_T, dst, tag, c);
    em_send_bytes(b->runs, 16 * b->h.nruns, dst, EM_PACKET, c);
    em_send_bytes(b->data, b->h.data_len, dst, EM_PACKET, c);
    em_send_bytes(b->up, b->h.up_len, dst, EM_PACKET, c);
}

void em_recv(struct em_build *b, int src, int tag, MPI_Comm c)
{
    memset(b, 0, sizeof *b);
    MPI_Recv(&b->h, (int)(sizeof b->h / sizeof(uint64_t)), MPI_UINT64_T, src, tag, c, MPI_STATUS_IGNORE);
    b->runs = em_grow(NULL, &b->cap_runs, 2 * b->h.nruns + 1, sizeof *b->runs);
    b->data = em_grow(NULL, &b->cap_data, b->h.data_len + 1, 1);
    b->up_in = malloc(b->h.up_len + 1);
    if (!b->up_in)
        core->launch_fail(LAUNCH_EXIT_ERROR, "ebsp_spmd: out of memory (%llu bytes of messages up)",
                    (unsigned long long)b->h.up_len);
    em_recv_bytes(b->runs, 16 * b->h.nruns, src, EM_PACKET, c);
    em_recv_bytes(b->data, b->h.data_len, src, EM_PACKET, c);
    em_recv_bytes(b->up_in, b->h.up_len, src, EM_PACKET, c);
}

bool em_apply(const struct em_build *b, struct segment *s)
{
    uint64_t at = 0;
    for (uint64_t i = 0; i < b->h.nruns; i++) {
        uint64_t off = b->runs[2 * i], len = b->runs[2 * i + 1];
        if (off > s->size || len > s->size - off || len > b->h.data_len - at)
            return false;
        memcpy(s->base + off, b->data + at, len);
        at += len;
    }
    return true;
}

void em_free(struct em_build *b)
{
    free(b->runs);
    free(b->data);
    free(b->up_in);
    memset(b, 0, sizeof *b);
}

void em_wait(int src, int tag, MPI_Comm c, MPI_Status *st)
{
    mpi_wait_probe(src, tag, c, st, 0);
}
