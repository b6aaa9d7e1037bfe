/*
 * master_worker.c - a master-worker program written against mp.h alone.
 *
 * Counts the primes below LIMIT.  The main node is the master: it cuts the
 * range into tasks and hands one to each worker that asks, collecting the
 * results as they come; a worker asks again by returning a result.  When
 * every task is done the master prints the count and quits, which tells the
 * workers to stop.  With one node the master does the work itself.
 *
 *   bsprun -n 4 ./master_worker [LIMIT [TASKS]]
 *   (or SUPERSTEP_NPROCS=4 ./master_worker)
 */
#include <mp.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { TAG_READY = 1, TAG_TASK = 2, TAG_RESULT = 3 };

struct task { uint64_t lo, hi; };       /* count the primes in [lo, hi) */

static int is_prime(uint64_t n)
{
    if (n < 2)
        return 0;
    for (uint64_t d = 2; d * d <= n; d++)
        if (n % d == 0)
            return 0;
    return 1;
}

static uint64_t count_primes(struct task t)
{
    uint64_t c = 0;
    for (uint64_t n = t.lo; n < t.hi; n++)
        c += (uint64_t)is_prime(n);
    return c;
}

static void master(uint64_t limit, uint64_t ntasks)
{
    int workers = mp_npes() - 1;
    uint64_t step = limit ? (limit + ntasks - 1) / ntasks : 1, next = 0, total = 0, done = 0;
    ntasks = (limit + step - 1) / step; /* what cutting by 'step' makes */
    if (workers == 0) { /* nobody to hand work to */
        struct task all = { 0, limit };
        total = count_primes(all);
        done = ntasks;
    }
    while (done < ntasks) {
        int tag, worker;
        uint64_t count;
        size_t len = mp_recv(sizeof count, &count, &tag, &worker);
        if (tag == TAG_RESULT && len == sizeof count) {
            total += count;
            done++;
        }
        if (next < limit) { /* a task for the worker that just reported */
            struct task t = { next, next + step < limit ? next + step : limit };
            next = t.hi;
            mp_send(worker, TAG_TASK, &t, sizeof t);
        }
    }
    printf("primes below %llu: %llu (%llu tasks, %d workers)\n", (unsigned long long)limit,
           (unsigned long long)total, (unsigned long long)ntasks, workers);
}

static void worker(void)
{
    mp_send(1, TAG_READY, NULL, 0);
    for (;;) {
        int tag, from;
        struct task t;
        size_t len = mp_recv(sizeof t, &t, &tag, &from);
        if (tag == MP_QUIT) /* the master is done */
            break;
        if (tag != TAG_TASK || len != sizeof t) {
            fprintf(stderr, "worker %d: unexpected message (tag %d, %zu bytes)\n", mp_this_pe(), tag, len);
            mp_quit(1);
        }
        uint64_t count = count_primes(t);
        mp_send(1, TAG_RESULT, &count, sizeof count);
    }
}

int main(int argc, char **argv)
{
    uint64_t limit = argc > 1 ? strtoull(argv[1], NULL, 10) : 2000000;
    uint64_t ntasks = argc > 2 ? strtoull(argv[2], NULL, 10) : 100;
    if (ntasks == 0)
        ntasks = 1;
    if (ntasks > limit)
        ntasks = limit ? limit : 1;
    if (!mp_start(&argc, &argv))
        return 1;
    mp_sync();
    if (mp_is_main())
        master(limit, ntasks);
    else
        worker();
    mp_quit(0);
    return 0;
}
