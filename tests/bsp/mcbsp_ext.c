/* mcbsp_ext.c - MulticoreBSP for C's extensions through mcbsp.h:
 * mcbsp_set_maximum_threads sets what bsp_nprocs() says before bsp_begin;
 * bsp_direct_get reads a peer's registered memory at once, inside the
 * superstep; bsp_hpsend delivers like bsp_send; the affinity settings are
 * kept and read back. */
// RUN: n=1 nompi="bsp_direct_get needs the shm device (documented difference)"
// RUN: n=4 nompi="bsp_direct_get needs the shm device (documented difference)"
#include <mcbsp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static uint64_t area[8];

int main(void)
{
    mcbsp_set_maximum_threads(3);
    CHECK(bsp_nprocs() == 3 && mcbsp_get_maximum_threads() == 3, "nprocs %d", bsp_nprocs());
    mcbsp_set_maximum_threads(0); /* back to the default */
    bsp_nprocs_t avail = bsp_nprocs();
    size_t pin[2] = { 0, 0 };
    mcbsp_set_pinning(pin, 2);
    CHECK(mcbsp_get_affinity_mode() == MANUAL, "mode %d", (int)mcbsp_get_affinity_mode());
    size_t *back = mcbsp_get_pinning();
    CHECK(back && back[0] == 0 && back[1] == 0, "pinning read back");
    free(back);
    mcbsp_set_affinity_mode(COMPACT);
    mcbsp_set_threads_per_core(1);
    CHECK(mcbsp_get_threads_per_core() == 1 && mcbsp_get_reserved_cores_number() == 0, "machine");

    bsp_begin(avail);
    bsp_pid_t s = bsp_pid();
    bsp_nprocs_t p = bsp_nprocs();
    for (int i = 0; i < 8; i++)
        area[i] = 1000u * s + (unsigned)i;
    bsp_push_reg(area, sizeof area);
    bsp_sync();
    /* Nobody writes area in this superstep: a direct get sees the values. */
    uint64_t got[2] = { 0, 0 };
    bsp_pid_t right = (s + 1) % p;
    bsp_direct_get(right, area, 3 * sizeof(uint64_t), got, sizeof got);
    CHECK(got[0] == 1000u * right + 3 && got[1] == 1000u * right + 4, "direct get %llu %llu",
          (unsigned long long)got[0], (unsigned long long)got[1]);
    uint64_t msg = 77 + s;
    bsp_hpsend(right, NULL, &msg, sizeof msg);
    bsp_sync();
    bsp_nprocs_t n;
    bsp_size_t bytes;
    bsp_qsize(&n, &bytes);
    CHECK(n == 1 && bytes == sizeof msg, "qsize %u %zu", n, bytes);
    bsp_move(&msg, sizeof msg);
    CHECK(msg == 77 + (s + p - 1) % p, "hpsend payload %llu", (unsigned long long)msg);
    bsp_end();
    return 0;
}
