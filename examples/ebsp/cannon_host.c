/* cannon_host.c - C = A B for N x N matrices by Cannon's algorithm on a
 * q x q grid of processors, the blocks streamed down (see cannon_kernel.c).
 *     bsprun -n 4 ./cannon_host [b [m]]
 * b: block size (default 16), m: outer blocks per dimension (default 2);
 * N = m * q * b.  Uses the largest square number of processors available.
 * The entries are small integers, so the product is exact and is checked
 * against a direct computation. */
#include <host_bsp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    int bs = argc > 1 ? atoi(argv[1]) : 16, m = argc > 2 ? atoi(argv[2]) : 2;
    if (bs <= 0 || m <= 0) {
        fprintf(stderr, "usage: %s [b [m]]\n", argv[0]);
        return 2;
    }
    int q = (int)sqrt(bsp_nprocs()), p = q * q, n = m * q * bs;
    float *A = malloc(sizeof(float) * n * n), *B = malloc(sizeof(float) * n * n);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            A[r * n + c] = (float)((r + 2 * c) % 7 - 3);
            B[r * n + c] = (float)((3 * r + c) % 5 - 2);
        }
    char bstr[16], mstr[16];
    snprintf(bstr, sizeof bstr, "%d", bs);
    snprintf(mstr, sizeof mstr, "%d", m);
    char *kargv[] = { argv[0], bstr, mstr, NULL };
    bsp_init("cannon_kernel", 3, kargv);
    bsp_begin(p);

    /* Block (br, bc) of the b x b block grid of M, copied out row by row. */
    size_t bytes = sizeof(float) * bs * bs;
    float *tmp = malloc(bytes * m * m * m);
    for (int s = 0; s < p; s++) {
        int i = s / q, j = s % q, k0 = (i + j) % q; /* Cannon's skew */
        for (int which = 0; which < 2; which++) {
            const float *M = which ? B : A;
            float *t = tmp;
            for (int I = 0; I < m; I++)
                for (int J = 0; J < m; J++)
                    for (int K = 0; K < m; K++, t += bs * bs) {
                        /* A_IK block (i, k0); B_KJ block (k0, j) */
                        int br = which ? K * q + k0 : I * q + i, bc = which ? J * q + j : K * q + k0;
                        for (int r = 0; r < bs; r++)
                            memcpy(t + r * bs, M + (size_t)(br * bs + r) * n + bc * bs, sizeof(float) * bs);
                    }
            bsp_stream_create((int)(bytes * m * m * m), (int)bytes, tmp); /* stream 2s + which */
        }
    }
    float **up = malloc(p * sizeof *up);
    for (int s = 0; s < p; s++) /* stream 2p + s: the C blocks of processor s */
        up[s] = bsp_stream_create((int)(bytes * m * m), (int)bytes, NULL);
    if (!ebsp_spmd())
        return 1;

    /* Gather C from the up streams (8-byte header before every block). */
    float *C = malloc(sizeof(float) * n * n);
    for (int s = 0; s < p; s++) {
        int i = s / q, j = s % q;
        const char *cur = (const char *)up[s];
        for (int I = 0; I < m; I++)
            for (int J = 0; J < m; J++, cur += 8 + bytes) {
                const float *blk = (const float *)(cur + 8);
                for (int r = 0; r < bs; r++)
                    memcpy(C + (size_t)((I * q + i) * bs + r) * n + (J * q + j) * bs, blk + r * bs,
                           sizeof(float) * bs);
            }
    }
    bsp_end();
    double maxerr = 0;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            double want = 0;
            for (int k = 0; k < n; k++)
                want += (double)A[r * n + k] * B[k * n + c];
            double e = fabs(want - C[r * n + c]);
            if (e > maxerr)
                maxerr = e;
        }
    printf("cannon: C = A B for N = %d on %d x %d processors (%d x %d outer blocks of %d x %d): max error %g %s\n", n,
           q, q, m, m, bs, bs, maxerr, maxerr == 0 ? "OK" : "WRONG");
    free(A);
    free(B);
    free(C);
    free(tmp);
    free(up);
    return maxerr == 0 ? 0 : 1;
}
