/* dot_product_kernel.c - kernel of the dot product example.
 *
 * The host sent this processor two messages: its pieces of the vectors a
 * (tag 0) and b (tag 1).  They are in the queue from bsp_begin until the
 * first bsp_sync.  Each processor computes its partial sum, puts it into an
 * array on processor 0, which adds them up and sends the result up. */
#include <e_bsp.h>

int main(void)
{
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs();

    int nmsg, nbytes;
    bsp_qsize(&nmsg, &nbytes);
    const int *v[2] = { 0, 0 };
    int len = 0;
    for (int i = 0; i < nmsg; i++) {
        int *tag, *payload;
        int n = bsp_hpmove((void **)&tag, (void **)&payload); /* valid until the sync */
        v[*tag] = payload;
        len = n / (int)sizeof(int);
    }
    long long partial = 0;
    for (int i = 0; i < len; i++)
        partial += (long long)v[0][i] * v[1][i];

    long long *sums = ebsp_malloc(p * sizeof *sums);
    bsp_push_reg(sums, p * sizeof *sums);
    bsp_sync();
    bsp_put(0, &partial, sums, s * sizeof partial, sizeof partial);
    bsp_sync();
    if (s == 0) {
        long long total = 0;
        for (int q = 0; q < p; q++)
            total += sums[q];
        ebsp_message("sum of %d partial sums: %lld", p, total);
        int tag = 0;
        ebsp_send_up(&tag, &total, sizeof total);
    }
    bsp_end();
    return 0;
}
