/*
 * memory.c - does the segment's resident size follow the largest superstep
 * or the total traffic?
 *
 *   bsprun -n P memory [TOTAL_MIB] [STEP_KIB]     (default 10240 1024)
 *
 * Every processor puts STEP_KIB KiB to its right neighbour in every
 * superstep (one bsp_put), until TOTAL_MIB MiB have moved in all (summed
 * over processors).  Resident size of the segment: the shared memfd's
 * allocated pages, fstat(fd).st_blocks * 512 (a memfd is a tmpfs file: a
 * page is allocated when first touched by any processor, and stays until
 * the file is gone; there is no swap here), read after the first superstep
 * and at the end.  Also processor 0's Rss from /proc/self/smaps_rollup,
 * which counts its private buffers and the segment pages it mapped.
 */
#include <bsp.h>

#include "launch/launch.h"

#include "bench.h"

#include <sys/stat.h>

static double seg_resident_mib(void)
{
    struct stat st;
    if (fstat(job.seg.fd, &st) != 0)
        return -1;
    return (double)st.st_blocks * 512 / (1 << 20);
}

static double rss_mib(void)
{
    FILE *f = fopen("/proc/self/smaps_rollup", "r");
    if (!f)
        return -1;
    char line[256];
    double kb = -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "Rss:", 4))
            kb = atof(line + 4);
    fclose(f);
    return kb / 1024;
}

int main(int argc, char **argv)
{
    long total_mib = argc > 1 ? atol(argv[1]) : 10240;
    long step_kib = argc > 2 ? atol(argv[2]) : 1024;
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid(), right = (s + 1) % p;
    size_t step = (size_t)step_kib << 10;
    char *src = malloc(step), *dst = malloc(step);
    memset(src, s, step);
    memset(dst, 0, step);
    bsp_push_reg(dst, (int)step);
    bsp_sync();
    long steps = (long)(((double)total_mib * (1 << 20)) / ((double)step * p));
    if (steps < 2)
        steps = 2;
    double first = 0, t0 = bench_now();
    for (long k = 0; k < steps; k++) {
        src[k % step] = (char)k;
        bsp_put(right, src, dst, 0, (int)step);
        bsp_sync();
        if (k == 0)
            first = seg_resident_mib();
    }
    double t = bench_now() - t0;
    if (s == 0) {
        printf("memory_p%d_steps %ld supersteps\n", p, steps);
        printf("memory_p%d_traffic %.6g MiB\n", p, (double)steps * step * p / (1 << 20));
        printf("memory_p%d_seg_first %.6g MiB\n", p, first);
        printf("memory_p%d_seg_end %.6g MiB\n", p, seg_resident_mib());
        printf("memory_p%d_rss0_end %.6g MiB\n", p, rss_mib());
        printf("memory_p%d_rate %.6g GB/s\n", p, (double)steps * step / t / 1e9);
    }
    bsp_pop_reg(dst);
    bsp_sync();
    bsp_end();
    return 0;
}
