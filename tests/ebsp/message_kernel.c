/* message_kernel.c - kernel of message_host: many ebsp_message lines (far
 * more than the ring between a processor and the host holds), long ones,
 * multi-line ones.  Arguments: COUNT. */
// NORUN: the kernel of message_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    bsp_begin();
    int s = bsp_pid(), n = argc > 1 ? atoi(argv[1]) : 1000;
    char pad[201];
    memset(pad, 'x', 200);
    pad[200] = 0;
    for (int i = 0; i < n; i++)
        ebsp_message("line %d of %d %s", i, s, pad + (i % 200));
    ebsp_message("first\nsecond of %d", s);
    bsp_sync();
    char *big = malloc(100000);
    memset(big, 'y', 99999);
    big[99999] = 0;
    ebsp_message("long %s", big); /* cut to the longest line kept */
    free(big);
    ebsp_message("done %d", s);
    bsp_end();
    return 0;
}
