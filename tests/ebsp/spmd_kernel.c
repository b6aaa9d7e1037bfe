/* spmd_kernel.c - kernel of spmd_host: reads the host's message and local
 * memory, meets the others and the host, reports back with ebsp_send_up.
 * Run on its own it must refuse to start. */
// RUN: n=2 fail="^superstep: bsp_begin: this kernel was not started by a host program"
#include <e_bsp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"

/* SPMD_KERNEL_START_DELAY=S: sleep S seconds before main (before MPI
 * starts), a spawn slower than SUPERSTEP_SPAWN_TIMEOUT (ehost.sh slowspawn). */
__attribute__((constructor)) static void start_delay(void)
{
    const char *d = getenv("SPMD_KERNEL_START_DELAY");
    if (d && *d)
        sleep((unsigned)atoi(d));
}

int main(void)
{
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(ebsp_get_tagsize() == 0, "processor %d: tag size %d", s, ebsp_get_tagsize());

    /* The host's message: its run number. */
    int n, bytes, run = -1;
    bsp_qsize(&n, &bytes);
    CHECK(n == 1 && bytes == (int)sizeof(int), "processor %d: qsize %d %d", s, n, bytes);
    bsp_move(&run, sizeof run);

    /* Local memory persists over the runs of a session: the host wrote the
     * run number at offset 4, the counter at 0 is ours. */
    int *counter = ebsp_local_address(0), *hostrun = ebsp_local_address(4);
    CHECK(counter && hostrun && *hostrun == run, "processor %d: host wrote %d, run %d", s, *hostrun, run);
    CHECK(*counter == run * (s + 1), "processor %d: counter %d in run %d", s, *counter, run);
    *counter += s + 1;

    /* Timers. */
    float t0 = bsp_time(), h0 = ebsp_host_time();
    (void)ebsp_raw_time();
    usleep(3000);
    unsigned cycles = ebsp_raw_time();
    float t1 = bsp_time(), h1 = ebsp_host_time();
    CHECK(t0 >= 0 && t1 - t0 >= 0.0025f && h1 - h0 >= 0.0025f, "processor %d: times %g %g %g %g", s, t0, t1, h0, h1);
    CHECK(cycles >= 1500000u && cycles < 600000000u, "processor %d: %u cycles in 3 ms", s, cycles);

    /* ebsp_barrier keeps the communication queued, on mpi too (a superstep
     * there only when an hp transfer is buffered: docs/mpi.md, "Epiphany
     * host programs"). */
    int got = -1;
    bsp_push_reg(&got, sizeof got);
    bsp_sync();
    bsp_put((s + 1) % p, &s, &got, 0, sizeof s);
    ebsp_barrier();
    CHECK(got == -1, "processor %d: put landed at ebsp_barrier", s);
    bsp_sync();
    CHECK(got == (s + p - 1) % p, "processor %d: got %d", s, got);
    int fetched = -1;
    bsp_get((s + 1) % p, &got, 0, &fetched, sizeof fetched);
    bsp_sync();
    CHECK(fetched == s, "processor %d: bsp_get gave %d", s, fetched);
    bsp_pop_reg(&got);

    /* Twice with the host: the callback writes its call count at offset 8. */
    int *cb = ebsp_local_address(8);
    ebsp_host_sync();
    int first = *cb;
    ebsp_host_sync();
    CHECK(*cb == first + 1, "processor %d: callback count %d then %d", s, first, *cb);

    int out[4] = { run, s, p, *counter };
    ebsp_send_up(NULL, out, sizeof out);
    bsp_end();
    return 0;
}
