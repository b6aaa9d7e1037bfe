/* stream_dot_kernel.c - kernel of the streaming dot product example.
 *
 * Processor s reads its pieces of a and b from streams 2s and 2s+1 token
 * by token; with preload the next tokens are already being copied while it
 * multiplies the current ones.  Its partial sum goes up to the host. */
#include <e_bsp.h>

int main(void)
{
    bsp_begin();
    int s = bsp_pid();
    ebsp_stream sa, sb;
    bsp_stream_open(&sa, 2 * s);
    bsp_stream_open(&sb, 2 * s + 1);
    long long partial = 0;
    int *ta, *tb, n;
    while ((n = bsp_stream_move_down(&sa, (void **)&ta, 1)) > 0) {
        if (bsp_stream_move_down(&sb, (void **)&tb, 1) != n)
            bsp_abort("streams of different lengths");
        for (int i = 0; i < n / (int)sizeof(int); i++)
            partial += (long long)ta[i] * tb[i];
    }
    bsp_stream_close(&sa);
    bsp_stream_close(&sb);
    ebsp_send_up(NULL, &partial, sizeof partial);
    bsp_end();
    return 0;
}
