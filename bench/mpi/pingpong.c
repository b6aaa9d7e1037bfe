/*
 * pingpong.c - mp_bench's figures (bench/mp_bench.c) written directly in
 * MPI, for mp.h over MPI beside them on the same launcher (bench/peers):
 *
 *   mpirun -n 2 pingpong [SAMPLES]
 *
 *   latency    an 8-byte MPI_Send / MPI_Recv ping-pong, one way (half a
 *              round trip), us
 *   rate       a stream of 8-byte MPI_Send, acknowledged at the end, Mmsg/s
 *   bandwidth  a stream of 1 MiB MPI_Send, acknowledged at the end, GB/s
 * Each the median of SAMPLES blocks (default 31, quick 9); prints "name
 * value unit" lines (mpi_latency_8B, mpi_rate_8B, mpi_bandwidth_1MiB).
 */
#include "../bench.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define SMALL 8
#define BIG (1 << 20)
#define ROUNDS 2000     /* ping-pong rounds per latency block */
#define RATE 20000      /* 8-byte messages per rate block */
#define STREAM 16       /* 1 MiB messages per bandwidth block */
#define MAX_SAMPLES 101

/* 'count' messages of n bytes from rank 0 to rank 1, then a 0-byte ack:
 * seconds. */
static double stream(char *buf, int n, int count, int me)
{
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    if (me == 0) {
        for (int i = 0; i < count; i++)
            MPI_Send(buf, n, MPI_BYTE, 1, 2, MPI_COMM_WORLD);
        MPI_Recv(NULL, 0, MPI_BYTE, 1, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        for (int i = 0; i < count; i++)
            MPI_Recv(buf, n, MPI_BYTE, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(NULL, 0, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
    }
    return MPI_Wtime() - t;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int p, me;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    int samples = argc > 1 ? atoi(argv[1]) : bench_quick() ? 9 : 31;
    samples = samples < 1 ? 1 : samples > MAX_SAMPLES ? MAX_SAMPLES : samples;
    char *buf = calloc(1, BIG);
    if (p != 2 || !buf) {
        if (me == 0)
            fprintf(stderr, "pingpong: runs on 2 ranks\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double lat[MAX_SAMPLES], rate[MAX_SAMPLES], bw[MAX_SAMPLES];
    for (int s = 0; s < samples; s++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t = MPI_Wtime();
        for (int r = 0; r < ROUNDS; r++) {
            if (me == 0) {
                MPI_Send(buf, SMALL, MPI_BYTE, 1, 1, MPI_COMM_WORLD);
                MPI_Recv(buf, SMALL, MPI_BYTE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else {
                MPI_Recv(buf, SMALL, MPI_BYTE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(buf, SMALL, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
            }
        }
        lat[s] = (MPI_Wtime() - t) / ROUNDS / 2 * 1e6;
    }
    for (int s = 0; s < samples; s++)
        rate[s] = RATE / stream(buf, SMALL, RATE, me) / 1e6;
    for (int s = 0; s < samples; s++)
        bw[s] = (double)STREAM * BIG / stream(buf, BIG, STREAM, me) / 1e9;
    if (me == 0) {
        bench_result("mpi_latency_8B", bench_median(lat, samples), "us");
        bench_result("mpi_rate_8B", bench_median(rate, samples), "Mmsg/s");
        bench_result("mpi_bandwidth_1MiB", bench_median(bw, samples), "GB/s");
    }
    free(buf);
    MPI_Finalize();
    return 0;
}
