/* stream_dot_host.c - the dot product of two integer vectors streamed down
 * to the processors in tokens, the partial sums sent up.
 *     bsprun -n 4 ./stream_dot_host [n [token_ints]]   (1000000, 1024) */
#include <host_bsp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 1000000;
    int tok = argc > 2 ? atoi(argv[2]) : 1024;
    if (n < 0 || tok <= 0) {
        fprintf(stderr, "usage: %s [n [token_ints]]\n", argv[0]);
        return 2;
    }
    int *a = malloc((n + 1) * sizeof *a), *b = malloc((n + 1) * sizeof *b);
    long long expected = 0;
    for (int i = 0; i < n; i++) {
        a[i] = i % 10;
        b[i] = i % 7 - 3;
        expected += (long long)a[i] * b[i];
    }

    bsp_init("stream_dot_kernel", argc, argv);
    int p = bsp_nprocs();
    bsp_begin(p);
    for (int s = 0; s < p; s++) { /* streams 2s (a) and 2s+1 (b) */
        int lo = (int)((long long)n * s / p), hi = (int)((long long)n * (s + 1) / p);
        bsp_stream_create((hi - lo) * (int)sizeof(int), tok * (int)sizeof(int), a + lo);
        bsp_stream_create((hi - lo) * (int)sizeof(int), tok * (int)sizeof(int), b + lo);
    }
    if (!ebsp_spmd())
        return 1;
    long long result = 0, part;
    int packets, bytes;
    ebsp_qsize(&packets, &bytes);
    for (int i = 0; i < packets; i++) {
        ebsp_move(&part, sizeof part);
        result += part;
    }
    bsp_end();
    printf("streamed dot product of two vectors of length %d on %d processors = %lld (expected %lld)\n", n, p,
           result, expected);
    free(a);
    free(b);
    return result == expected && packets == p ? 0 : 1;
}
