/* phase_kernel.c - kernel of phase_host: reports the tag size it starts
 * with and the first message's tag. */
// NORUN: the kernel of phase_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>

int main(void)
{
    bsp_begin();
    int tag = -1, status = -1;
    bsp_get_tag(&status, &tag);
    ebsp_message("tagsize %d, tag %d", ebsp_get_tagsize(), status >= 0 ? tag : -1);
    bsp_end();
    return 0;
}
