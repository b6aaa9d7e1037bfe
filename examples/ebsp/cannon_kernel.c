/* cannon_kernel.c - kernel of the Cannon matrix multiplication example.
 *
 * The q x q processors form a torus; processor s = i*q + j holds one b x b
 * block of each of A, B and C of a (q*b) x (q*b) product.  The full
 * matrices are m x m "outer" blocks of that size: for every outer block
 * C_IJ = sum over K of A_IK B_KJ, each product done with Cannon's
 * algorithm.  The host streams every processor the blocks it starts each
 * product with (already skewed): stream 2s holds its A blocks, 2s+1 its B
 * blocks, in the order I, J, K.  With preload the next blocks come in
 * while the current ones are multiplied.  After q steps of multiply, shift
 * A left and B up, the C block is complete for this K; after all K it goes
 * up stream 2p+s.  Host arguments after argv[0]: b m. */
#include <e_bsp.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void multiply_add(float *c, const float *a, const float *b, int n)
{
    for (int i = 0; i < n; i++)
        for (int k = 0; k < n; k++) {
            float x = a[i * n + k];
            for (int j = 0; j < n; j++)
                c[i * n + j] += x * b[k * n + j];
        }
}

int main(int argc, char **argv)
{
    bsp_begin();
    if (argc < 3)
        bsp_abort("usage: cannon_host b m");
    int bs = atoi(argv[1]), m = atoi(argv[2]);
    int s = bsp_pid(), p = bsp_nprocs(), q = (int)lround(sqrt(p));
    if (q * q != p)
        bsp_abort("%d processors do not form a square grid", p);
    int i = s / q, j = s % q;
    int left = i * q + (j + q - 1) % q, up = ((i + q - 1) % q) * q + j;
    size_t bytes = (size_t)bs * bs * sizeof(float);

    float *a = ebsp_malloc(bytes), *b = ebsp_malloc(bytes), *c = ebsp_malloc(bytes);
    if (!a || !b || !c)
        bsp_abort("no local memory for three %zu-byte blocks", bytes);
    bsp_push_reg(a, (int)bytes);
    bsp_push_reg(b, (int)bytes);
    bsp_sync();

    ebsp_stream sa, sb, sc;
    bsp_stream_open(&sa, 2 * s);
    bsp_stream_open(&sb, 2 * s + 1);
    bsp_stream_open(&sc, 2 * p + s);
    for (int outer = 0; outer < m * m; outer++) { /* C_IJ */
        memset(c, 0, bytes);
        for (int k = 0; k < m; k++) {
            void *ta, *tb;
            if (bsp_stream_move_down(&sa, &ta, 1) != (int)bytes || bsp_stream_move_down(&sb, &tb, 1) != (int)bytes)
                bsp_abort("stream of blocks too short");
            ebsp_memcpy(a, ta, bytes);
            ebsp_memcpy(b, tb, bytes);
            for (int step = 0; step < q; step++) {
                multiply_add(c, a, b, bs);
                if (step == q - 1)
                    break;
                bsp_put(left, a, a, 0, (int)bytes);
                bsp_put(up, b, b, 0, (int)bytes);
                bsp_sync();
            }
        }
        bsp_stream_move_up(&sc, c, (int)bytes, 1);
    }
    bsp_stream_close(&sa);
    bsp_stream_close(&sb);
    bsp_stream_close(&sc);
    if (s == 0)
        ebsp_message("%d products of %d x %d blocks done in %.3f s", m * m * m, q, q, bsp_time());
    bsp_end();
    return 0;
}
