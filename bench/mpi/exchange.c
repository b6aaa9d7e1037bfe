/*
 * exchange.c - the mpi device's superstep exchange, two-sided against
 * one-sided MPI, outside the runtime (the rest of a superstep is the same).
 *
 *   mpirun -n P exchange [reps]
 *
 * Every pattern moves, per exchange, B bytes from every rank to each
 * destination of the case and tells every rank the callers' flags:
 *   twosided  MPI_Alltoall of (bytes, flags) per pair, then MPI_Irecv and
 *             MPI_Isend for the non-empty pairs, MPI_Waitall (what
 *             src/mpi/mpi.c does);
 *   put       the same MPI_Alltoall, then MPI_Put of each non-empty stream
 *             into the destination's window (receive buffers exposed once,
 *             passive target, lock_all), MPI_Win_flush_all, MPI_Barrier;
 *   fence     one round: MPI_Put of (bytes, flags) into the destination's
 *             count window and of the data into its receive window, then
 *             MPI_Win_fence (which ends this exchange and opens the next).
 * The one-sided patterns get their best case: receive buffers sized for the
 * largest stream beforehand, at offsets known to every sender, so no address
 * exchange and no growth.  Cases: empty (nothing but the flags), words (an
 * h-relation of h = 1000 8-byte puts, 32-byte records, spread over the
 * others), 1 MiB and 16 MiB to the right neighbour.  Prints
 * "exchange_PATTERN_CASE_pP value us", the median of blocks.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int P, me;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

enum { TWOSIDED, PUT, FENCE, NPATTERN };
static const char *pname[] = { "twosided", "put", "fence" };

static char *sendbuf, *recvbuf;
static size_t slice;                /* receive room per source */
static uint64_t *meta_s, *meta_r;
static MPI_Request *req;
static MPI_Win win, cwin;
static uint64_t *cnt;               /* fence: 2 words per source, in cwin */

static uint64_t exchange(int pat, const size_t *bytes, uint64_t flags)
{
    uint64_t sum = 0;
    int nreq = 0;
    if (pat == FENCE) {
        for (int d = 0; d < P; d++) {
            uint64_t w[2] = { bytes[d], flags };
            MPI_Put(w, 2, MPI_UINT64_T, d, 2 * me, 2, MPI_UINT64_T, cwin);
            if (bytes[d])
                MPI_Put(sendbuf, (int)bytes[d], MPI_BYTE, d, (MPI_Aint)(me * slice), (int)bytes[d], MPI_BYTE, win);
        }
        MPI_Win_fence(0, cwin);
        MPI_Win_fence(0, win);
        for (int s = 0; s < P; s++)
            sum += cnt[2 * s + 1];
        return sum;
    }
    for (int d = 0; d < P; d++) {
        meta_s[2 * d] = bytes[d];
        meta_s[2 * d + 1] = flags;
    }
    MPI_Alltoall(meta_s, 2, MPI_UINT64_T, meta_r, 2, MPI_UINT64_T, MPI_COMM_WORLD);
    uint64_t any = 0;
    for (int s = 0; s < P; s++) {
        sum += meta_r[2 * s + 1];
        any |= meta_r[2 * s];
        if (pat == TWOSIDED && meta_r[2 * s] && s != me)
            MPI_Irecv(recvbuf + s * slice, (int)meta_r[2 * s], MPI_BYTE, s, 1, MPI_COMM_WORLD, &req[nreq++]);
    }
    int put = 0;
    for (int d = 0; d < P; d++) {
        if (!bytes[d] || d == me)
            continue;
        if (pat == TWOSIDED)
            MPI_Isend(sendbuf, (int)bytes[d], MPI_BYTE, d, 1, MPI_COMM_WORLD, &req[nreq++]);
        else
            MPI_Put(sendbuf, (int)bytes[d], MPI_BYTE, d, (MPI_Aint)(me * slice), (int)bytes[d], MPI_BYTE, win), put = 1;
    }
    if (pat == TWOSIDED) {
        MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
    } else {
        /* Whether anyone put anything is known only globally: the flags
         * word carries it (bit 63), so an empty superstep skips the barrier. */
        (void)any;
        if (put)
            MPI_Win_flush_all(win);
        if (sum >> 63)
            MPI_Barrier(MPI_COMM_WORLD), MPI_Win_sync(win);
    }
    return sum;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int reps = argc > 1 ? atoi(argv[1]) : 15;
    size_t big = 16u << 20;
    slice = big;
    sendbuf = malloc(big);
    memset(sendbuf, 1, big);
    MPI_Win_allocate((MPI_Aint)(slice * P), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &recvbuf, &win);
    MPI_Win_allocate((MPI_Aint)(2 * P * sizeof(uint64_t)), sizeof(uint64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &cnt, &cwin);
    memset(recvbuf, 0, slice * P);
    meta_s = calloc(2 * P, sizeof *meta_s);
    meta_r = calloc(2 * P, sizeof *meta_r);
    req = calloc(2 * P, sizeof *req);
    size_t *bytes = calloc(P, sizeof *bytes);
    const char *cname[] = { "empty", "words", "1MiB", "16MiB" };
    for (int c = 0; c < 4; c++) {
        memset(bytes, 0, P * sizeof *bytes);
        if (c == 1) {
            for (int i = 0; i < 1000; i++)
                bytes[P == 1 ? 0 : (me + 1 + i % (P - 1)) % P] += 32;
        } else if (c >= 2) {
            bytes[(me + 1) % P] = c == 2 ? 1u << 20 : 16u << 20;
        }
        if (P == 1)
            bytes[0] = 0; /* a processor's own stream never leaves it */
        for (int pat = 0; pat < NPATTERN; pat++) {
            int k = c == 0 ? 2000 : c == 1 ? 200 : c == 2 ? 50 : 5;
            double *t = malloc(reps * sizeof *t);
            int mode = pat == PUT ? 1 : 0;
            if (mode)
                MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
            else if (pat == FENCE)
                MPI_Win_fence(0, win), MPI_Win_fence(0, cwin);
            int data = 0;
            for (int d = 0; d < P; d++)
                data |= bytes[d] != 0;
            uint64_t flags = 1 | ((uint64_t)data << 63);
            for (int r = -1; r < reps; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                for (int i = 0; i < k; i++) {
                    uint64_t s = exchange(pat, bytes, flags);
                    if ((s & 0xffff) != (uint64_t)P)
                        MPI_Abort(MPI_COMM_WORLD, 2);
                }
                if (r >= 0)
                    t[r] = (MPI_Wtime() - t0) / k;
            }
            if (mode)
                MPI_Win_unlock_all(win);
            else if (pat == FENCE)
                MPI_Win_fence(0, win), MPI_Win_fence(0, cwin);
            qsort(t, reps, sizeof *t, cmp);
            if (me == 0)
                printf("exchange_%s_%s_p%d %.4g us\n", pname[pat], cname[c], P, t[reps / 2] * 1e6);
            fflush(stdout);
            free(t);
        }
    }
    MPI_Win_free(&cwin);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
