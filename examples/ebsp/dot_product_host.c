/* dot_product_host.c - the dot product of two integer vectors, with the
 * data sent down as messages and the result sent up.
 *     bsprun -n 4 ./dot_product_host [n]      (n = 100000 by default) */
#include <host_bsp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    if (n < 0) {
        fprintf(stderr, "usage: %s [n]\n", argv[0]);
        return 2;
    }
    int *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
    long long expected = 0;
    for (int i = 0; i < n; i++) {
        a[i] = i % 10;
        b[i] = i % 7 - 3;
        expected += (long long)a[i] * b[i];
    }

    bsp_init("dot_product_kernel", argc, argv);
    int p = bsp_nprocs();
    bsp_begin(p);
    int tagsize = sizeof(int);
    ebsp_set_tagsize(&tagsize);
    for (int s = 0; s < p; s++) {
        int lo = (int)((long long)n * s / p), hi = (int)((long long)n * (s + 1) / p);
        int tag = 0;
        ebsp_send_down(s, &tag, a + lo, (hi - lo) * (int)sizeof(int));
        tag = 1;
        ebsp_send_down(s, &tag, b + lo, (hi - lo) * (int)sizeof(int));
    }
    if (!ebsp_spmd())
        return 1;
    int packets, bytes, status, tag;
    ebsp_qsize(&packets, &bytes);
    ebsp_get_tag(&status, &tag);
    long long result = 0;
    if (packets != 1 || status != (int)sizeof result) {
        fprintf(stderr, "expected one result, got %d messages\n", packets);
        return 1;
    }
    ebsp_move(&result, sizeof result);
    bsp_end();
    printf("dot product of two vectors of length %d on %d processors = %lld (expected %lld)\n", n, p, result,
           expected);
    free(a);
    free(b);
    return result == expected ? 0 : 1;
}
