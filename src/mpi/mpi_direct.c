/*
 * mpi_direct.c - bsp_direct_get on the mpi device: MulticoreBSP's read of
 * a peer's registered memory during a superstep, by MPI one-sided reads.
 *
 * One dynamic window (MPI_Win_create_dynamic; passive target, one
 * MPI_Win_lock_all epoch for the run).  Each rank attaches to it a slot of
 * its own, whose address every rank learns at begin, and its registered
 * areas, at the sync that commits them (expose; withdraw detaches the
 * popped ones).  The slot holds the BSP layer's 'applied' word (the
 * superstep whose sync the rank has applied, device.h) and the MPI error
 * of an area that could not be attached.
 *
 * A rank leaves the exchange before its peers have applied what it
 * delivered to them (no barrier ends the exchange: an empty superstep is
 * one MPI_Alltoall), so a reader first reads the owner's applied word, in
 * the one wait (mpi_wait.c), until the owner has applied the reader's last
 * sync; then it reads the data.  By then the owner has attached and
 * detached what that sync registered and popped, and nobody reads a rank's
 * memory while it attaches: readers before the sync have finished, readers
 * after it wait for the word, which the rank sets after.  So there the
 * areas' whole pages are merged into pieces that share no page (MPI
 * attaches no memory twice: docs/mpi.md, "Vendor notes", attach-pages), counted, and detached
 * with the last area; at most MAX_PIECES.
 *
 * Where MPI cannot create the window (tcp-window there), reads go
 * two-sided on a communicator of their own: the reader asks (address,
 * length, its superstep) and the owner answers from its memory, in the
 * one wait (mpi_direct_serve, at every look of mpi_wait.c's), once it
 * has applied the reader's superstep.  So a read completes at the owner's
 * next wait, its next sync at the latest, as a read where the target's
 * MPI needs the target's own MPI calls (read-progress) does; and the
 * exchanges then wait in the one wait, never in a blocking collective
 * (mpi_wait_blocking_collectives), so that an owner there answers.
 */
#include "mpi/mpi_direct.h"

#include "barrier/barrier.h"
#include "mpi/mpi_wait.h"
#include "launch/launch.h"
#include "settings/settings.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

struct slot {
    struct counted_word applied;
    _Atomic uint32_t unattached; /* MPI error of an area not attached; 0: none */
};

struct piece {                   /* attached: [lo, hi), for 'count' registrations */
    uintptr_t lo, hi;
    uint64_t count;
};

/* Pieces attached at most, below what an MPI takes (docs/mpi.md, "Vendor notes",
 * attach-pages).  Past it reads fail. */
#define MAX_PIECES 32
#define TOO_MANY (-1)

static struct slot slot;
struct counted_word *const mpi_direct_applied = &slot.applied;

/* A two-sided read: n bytes at the owner's address 'at', once it has
 * applied superstep 'step'; from: the reader. */
struct ask {
    uint64_t at, n;
    uint32_t step;
    int32_t from;
};
#define TAG_ASK 1
#define TAG_ANSWER 2

static struct {
    MPI_Win win;                 /* MPI_WIN_NULL: none, why[] says why */
    char why[260];
    MPI_Aint *slot_at;           /* each rank's slot */
    struct piece piece[MAX_PIECES];
    size_t npiece;
    MPI_Comm asks;               /* no window: reads go two-sided here; else MPI_COMM_NULL */
    struct ask *early;           /* asks that came before this rank applied their superstep */
    size_t nearly, cap_early;
} d = { .win = MPI_WIN_NULL, .asks = MPI_COMM_NULL };

static void say_mpi_error(char *buf, size_t cap, const char *what, int rc)
{
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    snprintf(buf, cap, "%s failed (%.*s)", what, len, s);
}

/* The window and every rank's slot address; none (with the reason) where
 * MPI cannot: errors return, on the communicator while the window is
 * created and on the window after. */
void mpi_direct_open(MPI_Comm c)
{
    int want = !core->setting_num(SET_NO_DIRECT), all = 0, n = 0;
    MPI_Allreduce(&want, &all, 1, MPI_INT, MPI_LAND, c);
    if (!all) {
        snprintf(d.why, sizeof d.why, "SUPERSTEP_NO_DIRECT=1 (on some processor)");
        return;
    }
    MPI_Comm_size(c, &n);
    MPI_Errhandler was;
    MPI_Comm_get_errhandler(c, &was);
    MPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN);
    int rc = MPI_Win_create_dynamic(MPI_INFO_NULL, c, &d.win);
    MPI_Comm_set_errhandler(c, was);
    MPI_Errhandler_free(&was);
    if (rc != MPI_SUCCESS) { /* over this transport: reads go two-sided */
        d.win = MPI_WIN_NULL;
        MPI_Comm_dup(c, &d.asks);
        return;
    }
    MPI_Win_set_errhandler(d.win, MPI_ERRORS_RETURN);
    MPI_Aint mine[2] = { 0, MPI_Win_attach(d.win, &slot, sizeof slot) };
    MPI_Get_address(&slot, &mine[0]);
    MPI_Aint *got = malloc(2 * (size_t)n * sizeof *got);
    d.slot_at = malloc((size_t)n * sizeof *d.slot_at);
    int ok = got && d.slot_at, agreed = 0;
    MPI_Allreduce(&ok, &agreed, 1, MPI_INT, MPI_LAND, c);
    if (agreed)
        MPI_Allgather(mine, 2, MPI_AINT, got, 2, MPI_AINT, c);
    snprintf(d.why, sizeof d.why, "out of memory");
    for (int q = 0; agreed && q < n; q++) {
        d.slot_at[q] = got[2 * q];
        if (got[2 * q + 1] != MPI_SUCCESS && agreed) {
            char e[160];
            say_mpi_error(e, sizeof e, "MPI_Win_attach", (int)got[2 * q + 1]);
            snprintf(d.why, sizeof d.why, "processor %d: %s", q, e);
            agreed = 0;
        }
    }
    free(got);
    if (!agreed) {
        MPI_Win_free(&d.win);
        d.win = MPI_WIN_NULL;
        return;
    }
    MPI_Win_lock_all(MPI_MODE_NOCHECK, d.win);
}

void mpi_direct_close(void)
{
    if (d.win != MPI_WIN_NULL) {
        for (size_t i = 0; i < d.npiece; i++)
            MPI_Win_detach(d.win, (void *)d.piece[i].lo);
        MPI_Win_detach(d.win, &slot);
        MPI_Win_unlock_all(d.win);
        MPI_Win_free(&d.win);
    }
    if (d.asks != MPI_COMM_NULL)
        MPI_Comm_free(&d.asks); /* every read was answered before the last exchange ended */
    free(d.slot_at);
    free(d.early);
    d.slot_at = NULL, d.early = NULL;
    d.npiece = d.nearly = d.cap_early = 0;
}

bool mpi_direct_two_sided(void)
{
    return d.asks != MPI_COMM_NULL;
}

/* Pieces of at most 1 GiB: MPI counts are int. */
static int piece_of(uint64_t n)
{
    return (int)(n < (1u << 30) ? n : (1u << 30));
}

static void reply(const struct ask *a)
{
    MPI_Send((const void *)(uintptr_t)a->at, piece_of(a->n), MPI_BYTE, a->from, TAG_ANSWER, d.asks);
}

void mpi_direct_serve(void)
{
    if (d.asks == MPI_COMM_NULL)
        return;
    uint32_t applied = atomic_load_explicit(&slot.applied.value, memory_order_relaxed);
    for (size_t i = 0; i < d.nearly;)
        if (d.early[i].step == applied) {
            reply(&d.early[i]);
            d.early[i] = d.early[--d.nearly];
        } else {
            i++;
        }
    for (;;) {
        int any = 0;
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_ASK, d.asks, &any, &st);
        if (!any)
            return;
        struct ask a;
        MPI_Recv(&a, (int)sizeof a, MPI_BYTE, st.MPI_SOURCE, TAG_ASK, d.asks, MPI_STATUS_IGNORE);
        a.from = st.MPI_SOURCE;
        if (a.step == applied) {
            reply(&a);
            continue;
        }
        if (d.nearly == d.cap_early) {
            size_t cap = d.cap_early ? 2 * d.cap_early : 8;
            struct ask *e = realloc(d.early, cap * sizeof *e);
            if (!e)
                core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_direct_get: out of memory for a read of processor %d",
                                  a.from);
            d.early = e, d.cap_early = cap;
        }
        d.early[d.nearly++] = a;
    }
}

/* Without a window: ask for each piece, and wait for the answer (serving
 * the asks of others meanwhile: they may be the owner's). */
static void read_two_sided(uint32_t src, char *dst, uint64_t at, uint64_t n, uint32_t step)
{
    for (int c; n; dst += c, at += (uint64_t)c, n -= (uint64_t)c) {
        c = piece_of(n);
        struct ask a = { at, (uint64_t)c, step, 0 };
        MPI_Request r[2];
        MPI_Irecv(dst, c, MPI_BYTE, (int)src, TAG_ANSWER, d.asks, &r[0]);
        MPI_Isend(&a, (int)sizeof a, MPI_BYTE, (int)src, TAG_ASK, d.asks, &r[1]);
        mpi_wait_all(2, r);
    }
}

static void detach(size_t i)
{
    MPI_Win_detach(d.win, (void *)d.piece[i].lo);
    d.piece[i] = d.piece[--d.npiece];
}

/* The whole pages of a registered area (mapped, since the area is). */
static struct piece pages_of(const void *addr, uint64_t size)
{
    uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
    return (struct piece){ (uintptr_t)addr & ~(pg - 1), ((uintptr_t)addr + size + pg - 1) & ~(pg - 1), 1 };
}

/* A registered area (at the sync that commits it): its pages attached,
 * merged with the pieces they overlap or touch, so that pieces share no
 * page (attach-pages, above).  One that cannot be is noted in the
 * slot, for readers to report, and nothing more is attached. */
void mpi_direct_expose(const void *addr, uint64_t size)
{
    if (d.win == MPI_WIN_NULL || !size || atomic_load(&slot.unattached))
        return;
    struct piece u = pages_of(addr, size);
    for (size_t i = 0; i < d.npiece;) {
        struct piece *q = &d.piece[i];
        if (q->hi < u.lo || q->lo > u.hi) {
            i++;
            continue;
        }
        u.lo = q->lo < u.lo ? q->lo : u.lo;
        u.hi = q->hi > u.hi ? q->hi : u.hi;
        u.count += q->count;
        detach(i);
        i = 0; /* the union may reach pieces passed already */
    }
    int rc = d.npiece < MAX_PIECES ? MPI_Win_attach(d.win, (void *)u.lo, (MPI_Aint)(u.hi - u.lo)) : TOO_MANY;
    if (rc != MPI_SUCCESS) {
        atomic_store(&slot.unattached, (uint32_t)rc);
        return;
    }
    d.piece[d.npiece++] = u;
}

void mpi_direct_withdraw(const void *addr, uint64_t size)
{
    struct piece u = pages_of(addr, size);
    for (size_t i = 0; size && i < d.npiece; i++)
        if (d.piece[i].lo <= u.lo && u.hi <= d.piece[i].hi && --d.piece[i].count == 0) {
            detach(i);
            return;
        }
}

struct poll {
    int src;
    uint32_t step, value;
    int rc;
    MPI_Request r;
};

/* One look at the owner's applied word: a read in flight, or its value. */
static bool applied_seen(void *arg)
{
    struct poll *p = arg;
    if (p->r == MPI_REQUEST_NULL) {
        p->rc = MPI_Rget(&p->value, 1, MPI_UINT32_T, p->src, d.slot_at[p->src], 1, MPI_UINT32_T, d.win, &p->r);
        if (p->rc != MPI_SUCCESS)
            return true;
    }
    int done = 0;
    MPI_Test(&p->r, &done, MPI_STATUS_IGNORE);
    return done && p->value == p->step;
}

/* n bytes at the owner's address 'at', once it has applied 'step', and
 * beside them the owner's attach error (read after the word: set before
 * it), which names the cause of a failed read.  MPI counts are int:
 * pieces of at most 1 GiB. */
bool mpi_direct_read(uint32_t src, void *dst, uint64_t at, uint64_t n, uint32_t step, char *why, size_t cap)
{
    if (d.asks != MPI_COMM_NULL) {
        read_two_sided(src, dst, at, n, step);
        return true;
    }
    if (d.win == MPI_WIN_NULL) {
        snprintf(why, cap, "%s", d.why);
        return false;
    }
    struct poll p = { (int)src, step, step - 1, MPI_SUCCESS, MPI_REQUEST_NULL };
    mpi_wait_until(applied_seen, &p, 0);
    uint32_t unattached = 0;
    MPI_Request r[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    int rc = p.rc;
    if (rc == MPI_SUCCESS)
        rc = MPI_Rget(&unattached, 1, MPI_UINT32_T, (int)src,
                      d.slot_at[src] + (MPI_Aint)offsetof(struct slot, unattached), 1, MPI_UINT32_T, d.win, &r[0]);
    while (rc == MPI_SUCCESS && n) {
        int c = piece_of(n);
        rc = MPI_Rget(dst, c, MPI_BYTE, (int)src, (MPI_Aint)at, c, MPI_BYTE, d.win, &r[1]);
        mpi_wait_all(2, r);
        dst = (char *)dst + c, at += (uint64_t)c, n -= (uint64_t)c;
    }
    mpi_wait_all(2, r);
    if ((int)unattached == TOO_MANY) {
        snprintf(why, cap, "its registered areas lie on more than %d separate page ranges, more than it "
                 "attaches to an MPI window", MAX_PIECES);
        return false;
    }
    if (unattached || rc != MPI_SUCCESS) {
        say_mpi_error(why, cap, unattached ? "its MPI_Win_attach of an area it registered" : "MPI_Rget",
                      unattached ? (int)unattached : rc);
        return false;
    }
    return true;
}
