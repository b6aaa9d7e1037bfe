/* low_kernel.c - kernel of low_host: local and external memory lie below
 * 4 GiB, so a pointer kept in a 32-bit unsigned int, as Epiphany kernels
 * do, still works; also for a neighbour's memory reached directly. */
// NORUN: the kernel of low_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <stdint.h>

#include "check.h"

int main(void)
{
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs();
    int *local = ebsp_malloc(4 * sizeof(int));
    int *ext = ebsp_ext_malloc(4 * sizeof(int));
    CHECK(local && ext, "allocation failed");
    CHECK((uintptr_t)local < (1ull << 32) && (uintptr_t)ext < (1ull << 32), "processor %d: memory at %p and %p", s,
          (void *)local, (void *)ext);
    CHECK((uintptr_t)ebsp_local_address(0) < (1ull << 32), "local memory at %p", ebsp_local_address(0));
    unsigned u = (unsigned)(uintptr_t)local; /* what a 32-bit kernel does */
    *(int *)(uintptr_t)(u + sizeof(int)) = 7 + s;
    CHECK(local[1] == 7 + s, "through the int: %d", local[1]);
    bsp_push_reg(local, 4 * sizeof(int));
    bsp_sync();
    int *next = ebsp_get_direct_address((s + 1) % p, local);
    CHECK(next && (uintptr_t)next < (1ull << 32), "direct address %p", (void *)next);
    bsp_sync();
    CHECK(next[1] == 7 + (s + 1) % p, "neighbour's value %d", next[1]);
    ebsp_message("low ok");
    bsp_end();
    return 0;
}
