/* early_kernel.c - kernel of early_host: with EARLY_MODE=WHAT or WHAT:PID,
 * every processor (or only processor PID) fails before bsp_begin:
 *   dma:     ebsp_dma_push with valid buffers;  dma_null: with a NULL handle;
 *   malloc:  ebsp_malloc;  exit: exit(4);  segv: raise(SIGSEGV);
 * the others (and every processor without EARLY_MODE) run a superstep. */
// NORUN: the kernel of early_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static const char *mode;
static size_t len;

static int is(const char *what)
{
    return strlen(what) == len && !strncmp(mode, what, len);
}

int main(void)
{
    mode = getenv("EARLY_MODE");
    const char *id = getenv("SUPERSTEP_PROC_ID"); /* the runtime's: who this kernel is, before bsp_begin */
    const char *only = mode ? strchr(mode, ':') : NULL;
    len = mode ? (only ? (size_t)(only - mode) : strlen(mode)) : 0;
    if (mode && (!only || (id && atoi(only + 1) == atoi(id)))) {
        static int a = 1, b;
        ebsp_dma_handle h;
        if (is("dma"))
            ebsp_dma_push(&h, &b, &a, sizeof a);
        if (is("dma_null"))
            ebsp_dma_push(NULL, &b, &a, sizeof a);
        if (is("malloc"))
            ebsp_malloc(16);
        if (is("exit"))
            exit(4);
        if (is("segv"))
            raise(SIGSEGV);
    }
    bsp_begin();
    bsp_sync();
    bsp_end();
    return 0;
}
