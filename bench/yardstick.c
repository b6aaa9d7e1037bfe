/*
 * yardstick.c - what the machine itself can do, measured beside Superstep.
 *
 *   yardstick memcpy MIB...   single-core memcpy of MIB MiB, GB/s
 *   yardstick flag            two processes bounce a flag through shared
 *                             memory (spinning): one round trip, us
 *   yardstick futex           two processes bounce a flag with FUTEX_WAKE /
 *                             FUTEX_WAIT (each sleeps): one round trip, us
 *   yardstick yield N         a counter barrier of N forked processes that
 *                             sched_yield() while waiting: one barrier, us
 *   yardstick memcpy2 MIB...  the same memcpy in two processes at once (the
 *                             two cores share the memory system): GB/s of
 *                             one of them
 *   yardstick pvm MIB...      process_vm_writev of MIB MiB into a forked
 *                             child (the single copy bsp_hpput uses), GB/s
 *
 * No BSP here; processes are forked and share an anonymous mapping, not
 * pinned to cores (neither are BSP processors).
 */
#include "bench.h"

#include <linux/futex.h>
#include <sched.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Spin; but a peer that shares our core (the machine is busy) can only
 * answer if we give the core up now and then. */
static inline void relax_or_yield(unsigned n)
{
    if (n < 2000)
        relax();
    else
        sched_yield();
}

struct shared {
    _Alignas(64) _Atomic uint32_t ping;
    _Alignas(64) _Atomic uint32_t pong;
    _Alignas(64) _Atomic uint32_t count;
    _Alignas(64) _Atomic uint32_t gen;
    _Alignas(64) _Atomic uint32_t go;
};

static struct shared *map_shared(void)
{
    void *m = mmap(NULL, sizeof(struct shared), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    memset(m, 0, sizeof(struct shared));
    return m;
}

static void futex_wait(_Atomic uint32_t *w, uint32_t v)
{
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT, v, NULL, NULL, 0);
}

static void futex_wake(_Atomic uint32_t *w)
{
    syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE, 1, NULL, NULL, 0);
}

/* Round trips in blocks; the median block's time per round trip. */
static double ping_pong(bool futex, int per_block, int blocks)
{
    struct shared *sh = map_shared();
    long total = (long)per_block * (blocks + 1);
    pid_t child = fork();
    if (child == 0) {
        for (long i = 1; i <= total; i++) {
            uint32_t want = (uint32_t)i;
            if (futex) {
                while (atomic_load_explicit(&sh->ping, memory_order_acquire) != want)
                    futex_wait(&sh->ping, want - 1);
                atomic_store_explicit(&sh->pong, want, memory_order_release);
                futex_wake(&sh->pong);
            } else {
                for (unsigned n = 0; atomic_load_explicit(&sh->ping, memory_order_acquire) != want; n++)
                    relax_or_yield(n);
                atomic_store_explicit(&sh->pong, want, memory_order_release);
            }
        }
        _exit(0);
    }
    double *t = malloc((size_t)blocks * sizeof *t);
    long i = 0;
    for (int b = -1; b < blocks; b++) { /* block -1 warms up */
        double t0 = bench_now();
        for (int k = 0; k < per_block; k++) {
            uint32_t v = (uint32_t)++i;
            atomic_store_explicit(&sh->ping, v, memory_order_release);
            if (futex) {
                futex_wake(&sh->ping);
                while (atomic_load_explicit(&sh->pong, memory_order_acquire) != v)
                    futex_wait(&sh->pong, v - 1);
            } else {
                for (unsigned n = 0; atomic_load_explicit(&sh->pong, memory_order_acquire) != v; n++)
                    relax_or_yield(n);
            }
        }
        if (b >= 0)
            t[b] = (bench_now() - t0) / per_block;
    }
    waitpid(child, NULL, 0);
    double m = bench_median(t, blocks);
    free(t);
    munmap(sh, sizeof *sh);
    return m;
}

/* Counter barrier: the last arrival bumps the generation; the others
 * sched_yield() until it changes. */
static void yield_barrier(struct shared *sh, uint32_t n)
{
    uint32_t g = atomic_load_explicit(&sh->gen, memory_order_acquire);
    if (atomic_fetch_add(&sh->count, 1) + 1 == n) {
        atomic_store_explicit(&sh->count, 0, memory_order_relaxed);
        atomic_store_explicit(&sh->gen, g + 1, memory_order_release);
        return;
    }
    while (atomic_load_explicit(&sh->gen, memory_order_acquire) == g)
        sched_yield();
}

static double yield_bench(uint32_t n, int per_block, int blocks)
{
    struct shared *sh = map_shared();
    long total = (long)per_block * (blocks + 1);
    pid_t *kids = calloc(n, sizeof *kids);
    for (uint32_t q = 1; q < n; q++) {
        kids[q] = fork();
        if (kids[q] == 0) {
            for (long i = 0; i < total; i++)
                yield_barrier(sh, n);
            _exit(0);
        }
    }
    double *t = malloc((size_t)blocks * sizeof *t);
    for (int b = -1; b < blocks; b++) {
        double t0 = bench_now();
        for (int k = 0; k < per_block; k++)
            yield_barrier(sh, n);
        if (b >= 0)
            t[b] = (bench_now() - t0) / per_block;
    }
    for (uint32_t q = 1; q < n; q++)
        waitpid(kids[q], NULL, 0);
    double m = bench_median(t, blocks);
    free(t);
    free(kids);
    munmap(sh, sizeof *sh);
    return m;
}

/* memcpy in this process while a forked twin does the same. */
static double memcpy2_gbps(size_t n, int reps)
{
    int go[2];
    if (pipe(go)) {
        perror("pipe");
        exit(1);
    }
    pid_t twin = fork();
    if (twin == 0) {
        close(go[1]);
        char c;
        (void)!read(go[0], &c, 1);
        bench_memcpy_gbps(n, reps + 2);
        _exit(0);
    }
    close(go[0]);
    close(go[1]); /* both start now */
    double g = bench_memcpy_gbps(n, reps);
    waitpid(twin, NULL, 0);
    return g;
}

/* process_vm_writev from this process into a child's copy of a buffer that
 * the child has touched (so no copy-on-write fault is timed). */
static double pvm_gbps(size_t n, int reps)
{
    char *a = malloc(n), *b = malloc(n);
    if (!a || !b) {
        fprintf(stderr, "yardstick: out of memory\n");
        exit(1);
    }
    memset(a, 1, n);
    memset(b, 2, n);
    int ready[2], done[2];
    if (pipe(ready) || pipe(done)) {
        perror("pipe");
        exit(1);
    }
    pid_t child = fork();
    if (child == 0) {
        close(ready[0]);
        close(done[1]);
        memset(b, 3, n);
        char c = 1;
        (void)!write(ready[1], &c, 1);
        (void)!read(done[0], &c, 1);
        _exit(0);
    }
    close(ready[1]);
    close(done[0]);
    char c;
    (void)!read(ready[0], &c, 1);
    double *t = malloc((size_t)reps * sizeof *t);
    struct iovec l = { a, n }, r = { b, n };
    for (int i = -1; i < reps; i++) {
        double t0 = bench_now();
        if (process_vm_writev(child, &l, 1, &r, 1, 0) != (ssize_t)n) {
            perror("process_vm_writev");
            exit(1);
        }
        if (i >= 0)
            t[i] = bench_now() - t0;
    }
    close(done[1]);
    close(ready[0]);
    waitpid(child, NULL, 0);
    double m = bench_median(t, reps);
    free(t);
    free(a);
    free(b);
    return (double)n / m / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: yardstick memcpy MIB... | memcpy2 MIB... | flag | futex | yield N | pvm MIB...\n");
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    int quick = bench_quick();
    char name[64];
    if (!strcmp(argv[1], "memcpy")) {
        if (argc < 3)
            usage();
        for (int i = 2; i < argc; i++) {
            size_t mib = (size_t)atoi(argv[i]);
            int reps = mib >= 64 ? 11 : mib >= 16 ? 21 : 41;
            snprintf(name, sizeof name, "memcpy_%zuMiB", mib);
            bench_result(name, bench_memcpy_gbps(mib << 20, quick ? reps / 2 + 1 : reps), "GB/s");
        }
    } else if (!strcmp(argv[1], "memcpy2")) {
        if (argc < 3)
            usage();
        for (int i = 2; i < argc; i++) {
            size_t mib = (size_t)atoi(argv[i]);
            int reps = mib >= 64 ? 11 : mib >= 16 ? 21 : 41;
            snprintf(name, sizeof name, "memcpy2_%zuMiB", mib);
            bench_result(name, memcpy2_gbps(mib << 20, quick ? reps / 2 + 1 : reps), "GB/s");
        }
    } else if (!strcmp(argv[1], "pvm")) {
        if (argc < 3)
            usage();
        for (int i = 2; i < argc; i++) {
            size_t mib = (size_t)atoi(argv[i]);
            int reps = mib >= 64 ? 11 : mib >= 16 ? 21 : 41;
            snprintf(name, sizeof name, "pvm_%zuMiB", mib);
            bench_result(name, pvm_gbps(mib << 20, quick ? reps / 2 + 1 : reps), "GB/s");
        }
    } else if (!strcmp(argv[1], "flag")) {
        bench_result("flag_roundtrip", 1e6 * ping_pong(false, 2000, quick ? 21 : 101), "us");
    } else if (!strcmp(argv[1], "futex")) {
        bench_result("futex_roundtrip", 1e6 * ping_pong(true, 100, quick ? 11 : 31), "us");
    } else if (!strcmp(argv[1], "yield")) {
        if (argc < 3)
            usage();
        uint32_t n = (uint32_t)atoi(argv[2]);
        if (n < 2)
            usage();
        snprintf(name, sizeof name, "yield_barrier_%u", n);
        bench_result(name, 1e6 * yield_bench(n, 200, quick ? 11 : 41), "us");
    } else {
        usage();
    }
    return 0;
}
