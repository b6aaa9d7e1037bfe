/*
 * empty.c - the time of an empty superstep (bsp_sync with nothing queued).
 *
 *   bsprun -n P empty
 *
 * Blocks of K back-to-back bsp_syncs, timed by processor 0; K is chosen so a
 * block lasts about 200 us.  Prints the median block's time per superstep
 * and the quartiles.
 *
 * At P = 2 the yardstick of the target, the round trip of a flag between
 * the same two processes through shared memory, is measured here too, in
 * blocks interleaved with the superstep blocks (a page mapped shared before
 * bsp_begin forks): on a virtual machine the latency between the two cores
 * changes with where the host places them, so only a yardstick measured
 * beside the figure makes a fair ratio.
 */
#include <bsp.h>

#include "bench.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/mman.h>

struct flags {
    _Alignas(64) _Atomic uint32_t ping;
    _Alignas(64) _Atomic uint32_t pong;
};

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

static struct flags *fl;

/* n round trips: processor 0 sets ping, processor 1 answers on pong. */
static double flag_block(struct flags *f, int s, uint32_t *seq, int n)
{
    double t0 = bench_now();
    for (int i = 0; i < n; i++) {
        uint32_t v = ++*seq;
        if (s == 0) {
            atomic_store_explicit(&f->ping, v, memory_order_release);
            for (unsigned n = 0; atomic_load_explicit(&f->pong, memory_order_acquire) != v; n++)
                relax_or_yield(n);
        } else {
            for (unsigned n = 0; atomic_load_explicit(&f->ping, memory_order_acquire) != v; n++)
                relax_or_yield(n);
            atomic_store_explicit(&f->pong, v, memory_order_release);
        }
    }
    return (bench_now() - t0) / n;
}

/* Whether the page mapped before bsp_begin is shared by processors 0 and 1:
 * it is where bsp_begin forked them, not between ranks that a launcher
 * started (mpirun, the mpi device, another BSP library over MPI), where a
 * flag round trip would wait for ever.  Processor 1 marks the page;
 * processor 0 tells everyone whether it saw the mark. */
static bool page_shared(int s)
{
    enum { MARK = 0x5eed };
    int shared = 0;
    bsp_push_reg(&shared, sizeof shared);
    bsp_sync();
    if (s == 1)
        atomic_store(&fl->pong, MARK);
    bsp_sync();
    if (s == 0) {
        int seen = atomic_load(&fl->pong) == MARK;
        atomic_store(&fl->pong, 0);
        for (int q = 0; q < bsp_nprocs(); q++)
            bsp_put(q, &seen, &shared, 0, sizeof seen);
    }
    bsp_sync();
    bsp_pop_reg(&shared);
    return shared;
}

/* The SPMD part, entered through bsp_init (see puts.c). */
static void spmd(void)
{
    bsp_begin(bench_nprocs(bsp_nprocs()));
    int p = bsp_nprocs(), s = bsp_pid();
    bool flag = p == 2 && page_shared(s);
    for (int i = 0; i < 1000; i++) /* warm up */
        bsp_sync();
    /* Size the block: every processor must agree on K, so processor 0
     * decides and puts it everywhere. */
    int k = 0;
    bsp_push_reg(&k, sizeof k);
    bsp_sync();
    if (s == 0) {
        double t0 = bench_now();
        for (int i = 0; i < 200; i++)
            bsp_sync();
        double per = (bench_now() - t0) / 200;
        int kk = (int)(200e-6 / per);
        kk = kk < 20 ? 20 : kk > 20000 ? 20000 : kk;
        for (int q = 0; q < p; q++)
            bsp_put(q, &kk, &k, 0, sizeof kk);
    } else {
        for (int i = 0; i < 200; i++)
            bsp_sync();
    }
    bsp_sync();
    int blocks = bench_quick() ? 31 : 151;
    double *t = malloc((size_t)blocks * sizeof *t), *rt = malloc((size_t)blocks * sizeof *rt);
    uint32_t seq = 0;
    for (int b = 0; b < blocks; b++) {
        if (flag) {
            flag_block(fl, s, &seq, 100); /* warm the lines */
            rt[b] = flag_block(fl, s, &seq, 1000);
            bsp_sync();
        }
        double t0 = bench_now();
        for (int i = 0; i < k; i++)
            bsp_sync();
        t[b] = (bench_now() - t0) / k;
    }
    if (s == 0) {
        char name[64];
        double m = bench_median(t, blocks);
        snprintf(name, sizeof name, "empty_p%d", p);
        bench_result(name, m * 1e6, "us");
        snprintf(name, sizeof name, "empty_p%d_q1", p);
        bench_result(name, bench_q1(t, blocks) * 1e6, "us");
        snprintf(name, sizeof name, "empty_p%d_q3", p);
        bench_result(name, bench_q3(t, blocks) * 1e6, "us");
        if (flag) {
            double f = bench_median(rt, blocks);
            bench_result("empty_p2_flag", f * 1e6, "us");
            bench_result("empty_p2_over_flag", m / f, "x");
        }
    }
    free(t);
    free(rt);
    bsp_pop_reg(&k);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    fl = mmap(NULL, sizeof *fl, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (fl == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    memset(fl, 0, sizeof *fl);
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
