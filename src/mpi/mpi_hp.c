/*
 * mpi_hp.c - bsp_hpput and bsp_hpget on the mpi device: large pieces go
 * from the source's memory to the destination's with no staging copy.
 *
 * The BSP layer hands over the hp transfers of a superstep between the
 * sync's two exchanges (rma_do_direct), one batch of pieces per peer and
 * direction.  A batch becomes a descriptor to the peer (where each piece
 * is there: the destination of a put, the source of a get) and one data
 * message from the source side to the destination side, straight from
 * memory to memory (an MPI_Type_create_hindexed over the pieces' addresses
 * on each side).  Transfers of fewer than MPI_HP_DIRECT_MIN bytes go
 * through the streams instead (rma.c: a copy costs less there than MPI's
 * handling of a piece).  Where the destinations of a batch overlap (a
 * later transfer to the same bytes must win, and MPI lands a message's
 * bytes in any order), the pieces go packed into one buffer and are
 * unpacked in the program's order (STAGED): the one case with a copy.
 *
 * The second exchange's counts carry how many descriptors each processor
 * sent to each (mpi_hp_queued); there each processor takes its
 * descriptors, starts its side of their messages, and waits until all of
 * its transfers are done.  So, as on shm, the hp transfers land after
 * every processor has computed the superstep and before anyone applies its
 * buffered puts, and an owner's memory is read before those puts change
 * it.  A batch goes in messages of at most CHUNK bytes (MPI counts and
 * block lengths are int).
 */
#include "mpi/mpi_hp.h"

#include "mpi/mpi_wait.h"
#include "launch/launch.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mpi/plugin.h" /* core: the core's services */

#define CHUNK (1ull << 30)
/* Tags: a descriptor (kind, pieces, then address and length of each); the
 * data of a put, or of a get (apart: a processor may put to a peer and get
 * from it in one superstep, and a receive must not take the other's data);
 * the same packed (STAGED). */
#define TAG_HP_DESC 3
#define TAG_HP_DATA(put) ((put) ? 4 : 5)
#define TAG_HP_PACKED(put) ((put) ? 6 : 7)
enum { HP_PUT = 1, HP_GET = 2, HP_STAGED = 4 };

/* Packed pieces received into 'buf', copied out to 'to' (n pieces) in
 * order once they have come. */
struct unpack {
    char *buf;
    const struct iovec *to;
    size_t n;
};

static struct {
    MPI_Comm comm;
    uint32_t p;
    uint64_t *queued;          /* descriptors sent to each processor since the last exchange */
    uint64_t nqueued;          /* their sum */
    bool counted;              /* the counts' words are not all 0 */
    MPI_Request *req;
    size_t nreq, capreq;
    void **owned;              /* freed once the requests are done */
    size_t nowned, capowned;
    struct unpack *unpack;
    size_t nunpack, capunpack;
} hp;

/* Room for one more in a list (a fresh list grows from 16). */
static bool room(void **list, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return true;
    size_t c = *cap ? 2 * *cap : 16;
    void *l = realloc(*list, c * size);
    if (!l)
        return false;
    *list = l;
    *cap = c;
    return true;
}

static MPI_Request *new_request(void)
{
    if (!room((void **)&hp.req, &hp.capreq, hp.nreq, sizeof *hp.req))
        return NULL;
    hp.req[hp.nreq] = MPI_REQUEST_NULL;
    return &hp.req[hp.nreq++];
}

/* buf, freed after the exchange's wait; false (buf freed) when NULL or no room. */
static bool own(void *buf)
{
    if (!buf || !room((void **)&hp.owned, &hp.capowned, hp.nowned, sizeof *hp.owned)) {
        free(buf);
        return false;
    }
    hp.owned[hp.nowned++] = buf;
    return true;
}

void mpi_hp_open(MPI_Comm c, uint32_t p)
{
    hp.comm = c;
    hp.p = p;
    hp.queued = calloc(p, sizeof *hp.queued);
    if (!hp.queued)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: out of memory");
}

void mpi_hp_close(void)
{
    free(hp.queued);
    free(hp.req);
    free(hp.owned);
    free(hp.unpack);
    memset(&hp, 0, sizeof hp);
}

void mpi_hp_counts(uint64_t *words, size_t stride)
{
    if (!hp.nqueued && !hp.counted)
        return; /* all 0 already */
    for (uint32_t q = 0; q < hp.p; q++)
        words[q * stride] = hp.queued[q];
    hp.counted = hp.nqueued != 0;
}

static int by_base(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const struct iovec *)a)->iov_base, y = (uintptr_t)((const struct iovec *)b)->iov_base;
    return x < y ? -1 : x > y;
}

/* Do any two of the pieces share a byte?  -1: out of memory.  Pieces in
 * rising order (the common case) are told in one pass. */
static int overlapping(const struct iovec *v, size_t n)
{
    size_t i = 1;
    while (i < n && (uintptr_t)v[i - 1].iov_base + v[i - 1].iov_len <= (uintptr_t)v[i].iov_base)
        i++;
    if (i >= n)
        return 0;
    struct iovec *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, v, n * sizeof *s);
    qsort(s, n, sizeof *s, by_base);
    int any = 0;
    for (i = 1; i < n && !any; i++)
        any = (uintptr_t)s[i - 1].iov_base + s[i - 1].iov_len > (uintptr_t)s[i].iov_base;
    free(s);
    return any;
}

/* Send (or receive) the pieces v[0..n) straight from (into) memory, as
 * one message. */
static bool direct(bool send, bool put, const struct iovec *v, size_t n, int peer)
{
    int *len = malloc(n * sizeof *len);
    MPI_Aint *at = malloc(n * sizeof *at);
    MPI_Request *r = len && at ? new_request() : NULL;
    MPI_Datatype t;
    bool ok = r != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        len[i] = (int)v[i].iov_len;
        MPI_Get_address(v[i].iov_base, &at[i]);
    }
    ok = ok && MPI_Type_create_hindexed((int)n, len, at, MPI_BYTE, &t) == MPI_SUCCESS &&
         MPI_Type_commit(&t) == MPI_SUCCESS;
    free(len);
    free(at);
    if (!ok)
        return false;
    if (send)
        MPI_Isend(MPI_BOTTOM, 1, t, peer, TAG_HP_DATA(put), hp.comm, r);
    else
        MPI_Irecv(MPI_BOTTOM, 1, t, peer, TAG_HP_DATA(put), hp.comm, r);
    MPI_Type_free(&t); /* freed when the transfer is done */
    return true;
}

/* The pieces v[0..n) one after another (STAGED): sent from a buffer filled
 * now, or received into one and copied out in order once the exchange's
 * wait is over (v kept till then). */
static bool pack(bool send, bool put, const struct iovec *v, size_t n, int peer)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++)
        bytes += v[i].iov_len;
    char *buf = malloc(bytes);
    MPI_Request *r = own(buf) ? new_request() : NULL;
    if (!r)
        return false;
    if (!send) {
        if (!room((void **)&hp.unpack, &hp.capunpack, hp.nunpack, sizeof *hp.unpack))
            return false;
        hp.unpack[hp.nunpack++] = (struct unpack){ buf, v, n };
        MPI_Irecv(buf, (int)bytes, MPI_BYTE, peer, TAG_HP_PACKED(put), hp.comm, r);
        return true;
    }
    for (size_t i = 0, at = 0; i < n; at += v[i].iov_len, i++)
        memcpy(buf + at, v[i].iov_base, v[i].iov_len);
    MPI_Isend(buf, (int)bytes, MPI_BYTE, peer, TAG_HP_PACKED(put), hp.comm, r);
    return true;
}

/* This side of the data of a put (or get): send (or receive) v[0..n). */
static bool transfer(bool send, bool put, const struct iovec *v, size_t n, bool staged, int peer)
{
    return staged ? pack(send, put, v, n, peer) : direct(send, put, v, n, peer);
}

/* The pieces cut at CHUNK bytes, the same cuts in both lists: *l, *r. */
static size_t cut(const struct iovec *local, const struct iovec *remote, size_t n, struct iovec **l, struct iovec **r)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (local[i].iov_len + CHUNK - 1) / CHUNK;
    *l = malloc(k * sizeof **l);
    *r = malloc(k * sizeof **r);
    if (!own(*l) || !own(*r))
        return 0;
    k = 0;
    for (size_t i = 0; i < n; i++)
        for (size_t at = 0; at < local[i].iov_len; at += CHUNK, k++) {
            size_t len = local[i].iov_len - at < CHUNK ? local[i].iov_len - at : CHUNK;
            (*l)[k] = (struct iovec){ (char *)local[i].iov_base + at, len };
            (*r)[k] = (struct iovec){ (char *)remote[i].iov_base + at, len };
        }
    return k;
}

/* One batch, in messages of at most CHUNK bytes: for each, a descriptor
 * of where the pieces are at 'peer' (r), and its data sent from, or
 * received into, the pieces here (l). */
static bool batch(uint32_t peer, bool put, const struct iovec *local, const struct iovec *remote, size_t n)
{
    struct iovec *l, *r;
    size_t k = cut(local, remote, n, &l, &r);
    int staged = k ? overlapping(put ? r : l, k) : -1;
    if (staged < 0)
        return false;
    for (size_t i = 0, j; i < k; i = j) {
        size_t bytes = 0;
        for (j = i; j < k && bytes + l[j].iov_len <= CHUNK; j++)
            bytes += l[j].iov_len;
        uint64_t *d = malloc((2 + 2 * (j - i)) * sizeof *d);
        MPI_Request *dr = own(d) ? new_request() : NULL;
        if (!dr)
            return false;
        d[0] = (put ? HP_PUT : HP_GET) | (staged ? HP_STAGED : 0);
        d[1] = j - i;
        for (size_t x = i; x < j; x++) {
            d[2 + 2 * (x - i)] = (uint64_t)(uintptr_t)r[x].iov_base;
            d[3 + 2 * (x - i)] = r[x].iov_len;
        }
        MPI_Isend(d, (int)(2 + 2 * (j - i)), MPI_UINT64_T, (int)peer, TAG_HP_DESC, hp.comm, dr);
        if (!transfer(put, put, l + i, j - i, staged, (int)peer))
            return false;
        hp.queued[peer]++;
        hp.nqueued++;
    }
    return true;
}

bool mpi_hp_write(uint32_t dst, const struct iovec *local, const struct iovec *remote, size_t n)
{
    if (batch(dst, true, local, remote, n))
        return true;
    errno = ENOMEM;
    return false;
}

bool mpi_hp_read(uint32_t src, const struct iovec *local, const struct iovec *remote, size_t n)
{
    if (batch(src, false, local, remote, n))
        return true;
    errno = ENOMEM;
    return false;
}

/* Do this side of what processor q's descriptor d asks: receive a put into
 * this processor's memory, or send what a get asks from it. */
static bool serve(int q, const uint64_t *d)
{
    size_t n = (size_t)d[1];
    struct iovec *v = malloc((n ? n : 1) * sizeof *v);
    if (!own(v))
        return false;
    for (size_t i = 0; i < n; i++)
        v[i] = (struct iovec){ (void *)(uintptr_t)d[2 + 2 * i], (size_t)d[3 + 2 * i] };
    bool put = d[0] & HP_PUT;
    return transfer(!put, put, v, n, d[0] & HP_STAGED, q);
}

void mpi_hp_exchange(const uint64_t *theirs, size_t stride)
{
    for (uint32_t q = 0; q < hp.p; q++)
        for (uint64_t k = theirs[q * stride]; k > 0; k--) {
            MPI_Status st;
            int words = 0;
            mpi_wait_probe((int)q, TAG_HP_DESC, hp.comm, &st, 0);
            MPI_Get_count(&st, MPI_UINT64_T, &words);
            uint64_t *d = malloc((size_t)(words > 2 ? words : 2) * sizeof *d);
            bool ok = own(d);
            if (ok)
                MPI_Recv(d, words, MPI_UINT64_T, (int)q, TAG_HP_DESC, hp.comm, MPI_STATUS_IGNORE);
            if (ok && (words < 2 || (uint64_t)words != 2 + 2 * d[1]))
                core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: internal error: a malformed hp descriptor from "
                                  "processor %u (%d words)", q, words);
            if (!ok || !serve((int)q, d))
                core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: out of memory for processor %u's hp transfers", q);
        }
    if (hp.nreq)
        mpi_wait_all((int)hp.nreq, hp.req);
    for (size_t i = 0; i < hp.nunpack; i++) { /* in the program's order: a later piece wins */
        const struct unpack *u = &hp.unpack[i];
        const char *from = u->buf;
        for (size_t x = 0; x < u->n; from += u->to[x].iov_len, x++)
            memcpy(u->to[x].iov_base, from, u->to[x].iov_len);
    }
    for (size_t i = 0; i < hp.nowned; i++)
        free(hp.owned[i]);
    hp.nreq = hp.nowned = hp.nunpack = 0;
    if (hp.nqueued)
        memset(hp.queued, 0, hp.p * sizeof *hp.queued);
    hp.nqueued = 0;
}
