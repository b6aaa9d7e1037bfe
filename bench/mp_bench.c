/*
 * mp_bench.c - mp.h between two nodes, next to a plain pipe and memcpy.
 *
 * One-way latency of an 8-byte message (half a ping-pong round trip), the
 * rate of a stream of 8-byte messages (acknowledged at the end; mp only) and
 * bandwidth of 1 MiB messages (a stream of them, acknowledged at the end),
 * each the median of many short blocks; then the same measured, in the same
 * run, with a pipe pair between two forked processes and with memcpy in one
 * process; and the ratios.  Prints a table, then "name value unit" lines
 * for bench/run.  Bandwidths are GB/s (10^9 bytes per second).
 *
 *   mp_bench [SAMPLES]   (runs on two nodes whatever SUPERSTEP_NPROCS says)
 */
#include <mp.h>

#include "bench.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SMALL 8
#define BIG (1u << 20)
#define ROUNDS 2000        /* ping-pong rounds per latency block */
#define STREAM 16          /* 1 MiB messages per bandwidth block */
#define RATE 20000         /* 8-byte messages per rate block */
#define MAX_SAMPLES 101

#define now bench_now
#define median bench_median

struct result { double lat_us, bw_gbs, rate_mmsg; };

/* ---- mp ------------------------------------------------------------------ */

/* 'count' messages of n bytes from node 1 to node 2, acknowledged at the
 * end: seconds. */
static double mp_stream(char *buf, size_t n, int count)
{
    int me = mp_this_pe(), peer = 3 - me, tag, from;
    mp_sync();
    double t = now();
    if (me == 1) {
        for (int i = 0; i < count; i++)
            mp_send(peer, 2, buf, n);
        mp_recv(0, NULL, &tag, &from);
    } else {
        for (int i = 0; i < count; i++)
            mp_recv(n, buf, &tag, &from);
        mp_send(peer, 3, NULL, 0);
    }
    return now() - t;
}

static struct result bench_mp(int samples, char *buf)
{
    double lat[MAX_SAMPLES], bw[MAX_SAMPLES], rate[MAX_SAMPLES];
    int me = mp_this_pe(), peer = 3 - me, tag, from;
    for (int s = 0; s < samples; s++) {
        mp_sync();
        double t = now();
        for (int r = 0; r < ROUNDS; r++) {
            if (me == 1) {
                mp_send(peer, 1, buf, SMALL);
                mp_recv(SMALL, buf, &tag, &from);
            } else {
                mp_recv(SMALL, buf, &tag, &from);
                mp_send(peer, 1, buf, SMALL);
            }
        }
        lat[s] = (now() - t) / ROUNDS / 2 * 1e6;
    }
    for (int s = 0; s < samples; s++)
        bw[s] = (double)STREAM * BIG / mp_stream(buf, BIG, STREAM) / 1e9;
    for (int s = 0; s < samples; s++)
        rate[s] = RATE / mp_stream(buf, SMALL, RATE) / 1e6;
    return (struct result){ median(lat, samples), median(bw, samples), median(rate, samples) };
}

/* ---- pipe ----------------------------------------------------------------- */

static void full_read(int fd, char *p, size_t n)
{
    while (n) {
        ssize_t k = read(fd, p, n);
        if (k <= 0)
            exit(1);
        p += k;
        n -= (size_t)k;
    }
}

static void full_write(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k <= 0)
            exit(1);
        p += k;
        n -= (size_t)k;
    }
}

static struct result bench_pipe(int samples, char *buf)
{
    int there[2], back[2];
    if (pipe(there) || pipe(back))
        exit(1);
    pid_t pid = fork();
    if (pid == 0) { /* the echoing side */
        close(there[1]);
        close(back[0]);
        for (int s = 0; s < samples; s++)
            for (int r = 0; r < ROUNDS; r++) {
                full_read(there[0], buf, SMALL);
                full_write(back[1], buf, SMALL);
            }
        for (int s = 0; s < samples; s++) {
            for (int i = 0; i < STREAM; i++)
                full_read(there[0], buf, BIG);
            full_write(back[1], buf, 1);
        }
        _exit(0);
    }
    close(there[0]);
    close(back[1]);
    double lat[MAX_SAMPLES], bw[MAX_SAMPLES];
    for (int s = 0; s < samples; s++) {
        double t = now();
        for (int r = 0; r < ROUNDS; r++) {
            full_write(there[1], buf, SMALL);
            full_read(back[0], buf, SMALL);
        }
        lat[s] = (now() - t) / ROUNDS / 2 * 1e6;
    }
    for (int s = 0; s < samples; s++) {
        double t = now();
        for (int i = 0; i < STREAM; i++)
            full_write(there[1], buf, BIG);
        full_read(back[0], buf, 1);
        bw[s] = (double)STREAM * BIG / (now() - t) / 1e9;
    }
    close(there[1]);
    close(back[0]);
    waitpid(pid, NULL, 0);
    return (struct result){ median(lat, samples), median(bw, samples), 0 };
}

/* ---- memcpy --------------------------------------------------------------- */

static struct result bench_memcpy(int samples, char *src, char *dst)
{
    double lat[MAX_SAMPLES], bw[MAX_SAMPLES];
    for (int s = 0; s < samples; s++) {
        double t = now();
        for (int r = 0; r < ROUNDS * 10; r++) {
            memcpy(dst + (r & 63), src + (r & 31), SMALL);
            __asm__ __volatile__("" ::"r"(dst) : "memory"); /* keep every copy */
        }
        lat[s] = (now() - t) / (ROUNDS * 10) * 1e6;
    }
    for (int s = 0; s < samples; s++) {
        double t = now();
        for (int i = 0; i < STREAM; i++) {
            memcpy(dst, src, BIG);
            __asm__ __volatile__("" ::"r"(dst) : "memory");
        }
        bw[s] = (double)STREAM * BIG / (now() - t) / 1e9;
    }
    return (struct result){ median(lat, samples), median(bw, samples), 0 };
}

int main(int argc, char **argv)
{
    int samples = argc > 1 ? atoi(argv[1]) : bench_quick() ? 9 : 31;
    if (samples < 1)
        samples = 1;
    if (samples > MAX_SAMPLES)
        samples = MAX_SAMPLES;
    char *buf = calloc(1, BIG), *other = calloc(1, BIG);
    if (!buf || !other)
        return 1;
    setenv("SUPERSTEP_NPROCS", "2", 1);
    if (!mp_start(&argc, &argv))
        return 1;
    mp_sync();
    struct result m = bench_mp(samples, buf);
    mp_quit(0);
    if (!mp_is_main()) {
        free(buf);
        free(other);
        return 0;
    }
    struct result p = bench_pipe(samples, buf);
    struct result c = bench_memcpy(samples, buf, other);
    printf("mp_bench: medians of %d blocks; latency one-way (half a round trip), bandwidth streaming\n", samples);
    printf("  %-8s %14s %18s\n", "", "latency 8 B", "bandwidth 1 MiB");
    printf("  %-8s %11.3f us %14.2f GB/s\n", "mp", m.lat_us, m.bw_gbs);
    printf("  %-8s %11.3f us %14.2f GB/s\n", "pipe", p.lat_us, p.bw_gbs);
    printf("  %-8s %11.4f us %14.2f GB/s\n", "memcpy", c.lat_us, c.bw_gbs);
    printf("  ratios: latency mp/pipe %.2f, mp/memcpy %.0f; bandwidth mp/pipe %.2f, mp/memcpy %.2f\n",
           m.lat_us / p.lat_us, m.lat_us / c.lat_us, m.bw_gbs / p.bw_gbs, m.bw_gbs / c.bw_gbs);
    bench_result("mp_latency_8B", m.lat_us, "us");
    bench_result("mp_bandwidth_1MiB", m.bw_gbs, "GB/s");
    bench_result("mp_rate_8B", m.rate_mmsg, "Mmsg/s");
    bench_result("pipe_latency_8B", p.lat_us, "us");
    bench_result("pipe_bandwidth_1MiB", p.bw_gbs, "GB/s");
    bench_result("memcpy_latency_8B", c.lat_us, "us");
    bench_result("memcpy_bandwidth_1MiB", c.bw_gbs, "GB/s");
    free(buf);
    free(other);
    return 0;
}
