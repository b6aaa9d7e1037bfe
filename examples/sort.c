/* sort.c - parallel sorting by regular sampling (PSRS).
 *
 * Usage: sort [N]   (default N = 1000000)
 *
 *  1. every processor makes N/p random integers and sorts them locally;
 *  2. it picks p regular samples and puts them to every processor;
 *  3. every processor sorts the p*p samples and picks the same p-1
 *     splitters, which cut its local array into p buckets;
 *  4. bucket t is sent to processor t with bsp_send: bulk synchronous
 *     message passing suits data whose size the receiver does not know;
 *  5. every processor sorts what it received.
 * The result is checked: the counts and sums of all numbers are unchanged,
 * each processor's part is sorted, and the parts are in order. */
#include <bsp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static void *xmalloc(size_t nbytes)
{
    void *q = malloc(nbytes > 0 ? nbytes : 1);
    if (q == NULL)
        bsp_abort("out of memory (%zu bytes)", nbytes);
    return q;
}

/* What each processor reports to processor 0 for the final check. */
struct summary {
    uint64_t sum_before, sum_after; /* of its numbers before and after */
    long count;                     /* how many it holds after sorting */
    int min, max;                   /* its smallest and largest, if any */
};

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    if (n < 1) {
        fprintf(stderr, "usage: %s [N >= 1]\n", argv[0]);
        return 1;
    }

    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid();

    /* 1. Local data: a block of N/p pseudo-random numbers, sorted. */
    long nlocal = (s + 1) * n / p - s * n / p;
    int *a = xmalloc(nlocal * sizeof *a);
    struct summary mine = {0};
    uint64_t state = 88172645463325252u + s;
    for (long i = 0; i < nlocal; i++) {
        state ^= state << 13, state ^= state >> 7, state ^= state << 17;
        a[i] = (int)(state % 1000000007u);
        mine.sum_before += a[i];
    }
    qsort(a, nlocal, sizeof *a, cmp_int);

    /* 2. p regular samples from every processor, gathered everywhere. */
    int *samples = xmalloc(p * p * sizeof *samples);
    bsp_push_reg(samples, p * p * sizeof *samples);
    bsp_sync();

    int mysamples[p];
    for (int i = 0; i < p; i++)
        mysamples[i] = nlocal > 0 ? a[i * nlocal / p] : 0;
    for (int t = 0; t < p; t++)
        bsp_put(t, mysamples, samples, s * p * sizeof(int), p * sizeof(int));
    bsp_sync();

    /* 3. The same splitters on every processor. */
    qsort(samples, p * p, sizeof *samples, cmp_int);
    int splitter[p];             /* bucket t holds values <= splitter[t] */
    for (int t = 0; t < p - 1; t++)
        splitter[t] = samples[(t + 1) * p + p / 2 - 1];

    /* 4. Send bucket t to processor t; a bucket may be empty. */
    long start = 0;
    for (int t = 0; t < p; t++) {
        long end = start;
        while (end < nlocal && (t == p - 1 || a[end] <= splitter[t]))
            end++;
        if (end > start)
            bsp_send(t, NULL, a + start, (end - start) * sizeof *a);
        start = end;
    }
    bsp_sync();

    /* 5. Receive and sort. */
    int nmessages, nbytes;
    bsp_qsize(&nmessages, &nbytes);
    int *b = xmalloc(nbytes);
    long nb = 0;
    for (int m = 0; m < nmessages; m++) {
        int len;
        bsp_get_tag(&len, NULL);
        bsp_move(b + nb, len);
        nb += len / sizeof *b;
    }
    qsort(b, nb, sizeof *b, cmp_int);

    /* Check: the parts are sorted, in order, and hold the same numbers. */
    mine.count = nb;
    mine.min = nb > 0 ? b[0] : 0;
    mine.max = nb > 0 ? b[nb - 1] : 0;
    for (long i = 0; i < nb; i++) {
        mine.sum_after += b[i];
        if (i > 0 && b[i - 1] > b[i])
            bsp_abort("not sorted at position %ld", i);
    }
    struct summary *all = xmalloc(p * sizeof *all);
    bsp_push_reg(all, p * sizeof *all);
    bsp_sync();
    bsp_put(0, &mine, all, s * sizeof mine, sizeof mine);
    bsp_sync();

    if (s == 0) {
        long count = 0;
        uint64_t before = 0, after = 0;
        int have_last = 0, last = 0;
        for (int t = 0; t < p; t++) {
            count += all[t].count;
            before += all[t].sum_before;
            after += all[t].sum_after;
            if (all[t].count == 0)
                continue;
            if (have_last && last > all[t].min)
                bsp_abort("processor %d starts below the end of the one before", t);
            have_last = 1, last = all[t].max;
        }
        if (count != n || before != after)
            bsp_abort("lost numbers: %ld of %ld left", count, n);
        printf("sorted %ld numbers on %d processors\n", n, p);
    }

    bsp_pop_reg(all);
    bsp_pop_reg(samples);
    bsp_end();
    free(all);
    free(b);
    free(samples);
    free(a);
    return 0;
}
