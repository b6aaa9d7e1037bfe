/*
 * peers.c - the figures of bench/ written directly in MPI: what a user who
 * picked Open MPI instead of Superstep would measure on this machine.
 *
 *   mpirun -n P peers [H...]       (default H = 16 100 1000 10000 100000)
 *
 * Each figure in two styles, one-sided (MPI_Put into an MPI_Win_allocate
 * window, a superstep ended by MPI_Win_fence) and two-sided (counts by
 * MPI_Alltoall, then MPI_Alltoallv / MPI_Sendrecv of the data):
 *   empty    a superstep that moves nothing, us
 *   put8     h 8-byte puts spread cyclically over the others, each to its
 *            own place (bench/puts.c): (T(h) - T(0)) / h, ns per put; the
 *            two-sided style packs (offset, value) pairs and the receiver
 *            stores each value
 *   bulk     1 and 64 MiB to the right neighbour, GB/s per processor
 *            (bench/bulk.c), with single-core memcpy of the same size
 *   send     100000 messages of 16 bytes with 4-byte tags to the right
 *            neighbour, packed by the sender, unpacked one by one into a
 *            tag and a payload by the receiver (bench/send.c), Mmsg/s
 * Prints "mpi_STYLE_FIGURE_pP value unit"; every value is a median of blocks.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int P, me;
static int quick;

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "peers: out of memory for %zu bytes\n", n);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

static void result(const char *name, double v, const char *unit)
{
    if (me == 0) {
        printf("%s_p%d %.6g %s\n", name, P, v, unit);
        fflush(stdout);
    }
}

/* ---- 8-byte puts and the empty superstep ------------------------------- */

static int hmax;
static int *dest;            /* destination of put i */
static double *src;          /* value of put i */
static double *wbuf;         /* the one-sided window: P * hmax words */
static MPI_Win win;
static double *tbuf;         /* two-sided destination: P * hmax words */
static struct pair { uint64_t off; double v; } *packed, *unpacked;
static int *scount, *sdispl, *rcount, *rdispl;

static void superstep_fence(int h)
{
    for (int i = 0; i < h; i++)
        MPI_Put(&src[i], 1, MPI_DOUBLE, dest[i], (MPI_Aint)me * hmax + i, 1, MPI_DOUBLE, win);
    MPI_Win_fence(0, win);
}

static void superstep_twosided(int h)
{
    memset(scount, 0, (size_t)P * sizeof *scount);
    for (int i = 0; i < h; i++)
        scount[dest[i]]++;
    for (int d = 0, at = 0; d < P; d++)
        sdispl[d] = at, at += scount[d];
    int *fill = rcount; /* reused as a cursor before the counts come in */
    memcpy(fill, sdispl, (size_t)P * sizeof *fill);
    for (int i = 0; i < h; i++)
        packed[fill[dest[i]]++] = (struct pair){ (uint64_t)me * hmax + i, src[i] };
    for (int d = 0; d < P; d++)
        scount[d] *= (int)sizeof *packed;
    MPI_Alltoall(scount, 1, MPI_INT, rcount, 1, MPI_INT, MPI_COMM_WORLD);
    int n = 0;
    for (int s = 0; s < P; s++)
        rdispl[s] = n, n += rcount[s];
    for (int d = 0; d < P; d++)
        sdispl[d] *= (int)sizeof *packed;
    MPI_Alltoallv(packed, scount, sdispl, MPI_BYTE, unpacked, rcount, rdispl, MPI_BYTE, MPI_COMM_WORLD);
    for (int i = 0; i < n / (int)sizeof *unpacked; i++)
        tbuf[unpacked[i].off] = unpacked[i].v;
}

static double block(int style, int h)
{
    int k = (int)(1e-3 / (2e-6 + h * 30e-9));
    k = k < 1 ? 1 : k > 2000 ? 2000 : k;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int it = 0; it < k; it++)
        style ? superstep_twosided(h) : superstep_fence(h);
    return (MPI_Wtime() - t0) / k;
}

static void words(int nh, const int *hs)
{
    static const char *style_name[] = { "onesided", "twosided" };
    int blocks = quick ? 7 : 21;
    double *tb = xmalloc((size_t)blocks * (nh + 1) * sizeof *tb);
    char name[64];
    for (int style = 0; style < 2; style++) {
        if (style == 0)
            MPI_Win_fence(0, win);
        for (int b = -1; b < blocks; b++)
            for (int i = 0; i <= nh; i++) {
                double t = block(style, i ? hs[i - 1] : 0);
                if (b >= 0)
                    tb[(size_t)i * blocks + b] = t;
            }
        double t0 = median(tb, blocks);
        snprintf(name, sizeof name, "mpi_%s_empty", style_name[style]);
        result(name, t0 * 1e6, "us");
        for (int i = 0; i < nh; i++) {
            double t = median(tb + (size_t)(i + 1) * blocks, blocks);
            snprintf(name, sizeof name, "mpi_%s_put8_h%d", style_name[style], hs[i]);
            result(name, (t - t0) / hs[i] * 1e9, "ns");
        }
    }
    free(tb);
}

/* ---- large transfers --------------------------------------------------- */

static double memcpy_gbps(char *a, char *b, size_t n, int reps)
{
    double *t = xmalloc((size_t)reps * sizeof *t);
    memcpy(b, a, n);
    for (int r = 0; r < reps; r++) {
        double t0 = MPI_Wtime();
        memcpy(b, a, n);
        t[r] = MPI_Wtime() - t0;
        __asm__ volatile("" ::"r"(b) : "memory");
    }
    double m = median(t, reps);
    free(t);
    return n / m / 1e9;
}

static void bulk(void)
{
    const int mibs[] = { 1, 64 };
    size_t maxb = 64u << 20;
    char *sbuf = xmalloc(maxb), *rbuf = xmalloc(maxb), *wb;
    memset(sbuf, me + 1, maxb);
    memset(rbuf, 0, maxb);
    MPI_Win bw;
    MPI_Win_allocate((MPI_Aint)maxb, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &wb, &bw);
    memset(wb, 0, maxb);
    int right = (me + 1) % P, left = (me + P - 1) % P;
    char name[64];
    for (int i = 0; i < 2; i++) {
        size_t n = (size_t)mibs[i] << 20;
        int reps = quick ? 5 : mibs[i] >= 64 ? 11 : 41;
        double mc = memcpy_gbps(sbuf, rbuf, n, reps);
        double *t = xmalloc((size_t)reps * sizeof *t);
        for (int style = 0; style < 2; style++) {
            MPI_Win_fence(0, bw);
            for (int r = -2; r < reps; r++) {
                MPI_Barrier(MPI_COMM_WORLD);
                double t0 = MPI_Wtime();
                if (style == 0) {
                    MPI_Put(sbuf, (int)n, MPI_BYTE, right, 0, (int)n, MPI_BYTE, bw);
                    MPI_Win_fence(0, bw);
                } else {
                    MPI_Sendrecv(sbuf, (int)n, MPI_BYTE, right, 2, rbuf, (int)n, MPI_BYTE, left, 2,
                                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }
                if (r >= 0)
                    t[r] = MPI_Wtime() - t0;
            }
            snprintf(name, sizeof name, "mpi_%s_bulk_%dMiB", style ? "twosided" : "onesided", mibs[i]);
            result(name, n / median(t, reps) / 1e9, "GB/s");
        }
        snprintf(name, sizeof name, "mpi_bulk_%dMiB_memcpy", mibs[i]);
        result(name, mc, "GB/s");
        free(t);
    }
    MPI_Win_free(&bw);
    free(sbuf);
    free(rbuf);
}

/* ---- messages ----------------------------------------------------------- */

enum { MSG = 16, TAG = 4, REC = TAG + MSG };

static void messages(int m)
{
    char *out = xmalloc((size_t)m * REC), *in = xmalloc((size_t)m * REC);
    char payload[MSG];
    memset(payload, me, sizeof payload);
    int right = (me + 1) % P, left = (me + P - 1) % P;
    int reps = quick ? 7 : 21;
    double *t = xmalloc((size_t)reps * sizeof *t);
    uint64_t check = 0;
    for (int r = -2; r < reps; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int i = 0; i < m; i++) { /* the sends: tag and payload packed */
            uint32_t tag = (uint32_t)i;
            memcpy(out + (size_t)i * REC, &tag, TAG);
            memcpy(out + (size_t)i * REC + TAG, payload, MSG);
        }
        int nout = m * REC, nin;
        MPI_Sendrecv(&nout, 1, MPI_INT, right, 3, &nin, 1, MPI_INT, left, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Sendrecv(out, nout, MPI_BYTE, right, 4, in, nin, MPI_BYTE, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (int i = 0; i < nin / REC; i++) { /* the moves: one tag, one payload each */
            uint32_t tag;
            char got[MSG];
            memcpy(&tag, in + (size_t)i * REC, TAG);
            memcpy(got, in + (size_t)i * REC + TAG, MSG);
            check += tag + (unsigned char)got[MSG - 1];
        }
        if (r >= 0)
            t[r] = MPI_Wtime() - t0;
    }
    if (check == 0 && m > 1)
        MPI_Abort(MPI_COMM_WORLD, 1);
    result("mpi_twosided_send", m / median(t, reps) / 1e6, "Mmsg/s");
    free(t);
    free(out);
    free(in);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &P);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    const char *q = getenv("SUPERSTEP_BENCH_QUICK");
    quick = q && *q && *q != '0';
    int hs[32] = { 16, 100, 1000, 10000, 100000 }, nh = 5;
    if (argc > 1) {
        nh = 0;
        for (int i = 1; i < argc && nh < 32; i++)
            hs[nh++] = atoi(argv[i]);
    }
    hmax = 1;
    for (int i = 0; i < nh; i++)
        hmax = hs[i] > hmax ? hs[i] : hmax;
    dest = xmalloc((size_t)hmax * sizeof *dest);
    src = xmalloc((size_t)hmax * sizeof *src);
    packed = xmalloc((size_t)hmax * sizeof *packed);
    unpacked = xmalloc((size_t)hmax * sizeof *unpacked);
    tbuf = xmalloc((size_t)P * hmax * sizeof *tbuf);
    scount = xmalloc((size_t)P * sizeof(int)), sdispl = xmalloc((size_t)P * sizeof(int));
    rcount = xmalloc((size_t)P * sizeof(int)), rdispl = xmalloc((size_t)P * sizeof(int));
    for (int i = 0; i < hmax; i++) {
        src[i] = me + i;
        dest[i] = P == 1 ? 0 : (me + 1 + i % (P - 1)) % P;
    }
    MPI_Win_allocate((MPI_Aint)P * hmax * (MPI_Aint)sizeof(double), sizeof(double), MPI_INFO_NULL,
                     MPI_COMM_WORLD, &wbuf, &win);
    words(nh, hs);
    MPI_Win_free(&win);
    bulk();
    messages(100000);
    MPI_Finalize();
    return 0;
}
