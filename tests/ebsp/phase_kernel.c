/* phase_kernel.c - kernel of phase_host: reports the tag size it starts
 * with and the first message's tag. */
// RUN: n=1 fail="^superstep: bsp_begin: this kernel was not started by a host program"
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
