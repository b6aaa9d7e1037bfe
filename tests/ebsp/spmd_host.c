/* spmd_host.c - the host lifecycle: sessions on p = 1..16 processors, each
 * with several ebsp_spmd runs; bsp_init again; messages down and up, local
 * memory kept over the runs, the sync and end callbacks.
 * Usage: spmd_host [PMIN PMAX RUNS] (default: SUPERSTEP_NPROCS, 3 runs). */
// RUN: n=1
// RUN: n=4
// RUN: n=3 args="1 16 2" timeout=240 nompi="p = 1..16 twice: 32 spawns take minutes on mpi"
#include <host_bsp.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int p_now, cb_calls, end_calls;

static void on_sync(void)
{
    cb_calls++;
    for (int q = 0; q < p_now; q++)
        ebsp_write(q, &cb_calls, 8, sizeof cb_calls);
}

static void on_end(void)
{
    end_calls++;
}

static void session(int p, int runs)
{
    CHECK(bsp_begin(p) == 1, "bsp_begin(%d)", p);
    p_now = p;
    ebsp_set_sync_callback(on_sync);
    ebsp_set_end_callback(on_end);
    int zero = 0;
    for (int q = 0; q < p; q++)
        ebsp_write(q, &zero, 0, sizeof zero);
    for (int run = 0; run < runs; run++) {
        for (int q = 0; q < p; q++) {
            ebsp_send_down(q, NULL, &run, sizeof run);
            ebsp_write(q, &run, 4, sizeof run);
        }
        int ends = end_calls, cbs = cb_calls;
        CHECK(ebsp_spmd() == 1, "p %d run %d failed", p, run);
        CHECK(end_calls == ends + 1, "end callback not called once");
        CHECK(cb_calls == cbs + 2, "sync callback called %d times, expected 2", cb_calls - cbs);
        int n, bytes;
        ebsp_qsize(&n, &bytes);
        CHECK(n == p && bytes == p * 4 * (int)sizeof(int), "p %d run %d: qsize %d %d", p, run, n, bytes);
        CHECK(ebsp_get_tagsize() == 0, "tag size %d", ebsp_get_tagsize());
        for (int q = 0; q < p; q++) {
            int status, out[4];
            ebsp_get_tag(&status, NULL);
            CHECK(status == sizeof out, "status %d", status);
            ebsp_move(out, sizeof out);
            CHECK(out[0] == run && out[1] == q && out[2] == p && out[3] == (run + 1) * (q + 1),
                  "p %d run %d: message %d is %d %d %d %d", p, run, q, out[0], out[1], out[2], out[3]);
            int counter;
            ebsp_read(q, 0, &counter, sizeof counter);
            CHECK(counter == out[3], "counter %d", counter);
        }
        ebsp_qsize(&n, &bytes);
        CHECK(n == 0 && bytes == 0, "queue not empty");
    }
    CHECK(bsp_end() == 1, "bsp_end");
}

int main(int argc, char **argv)
{
    int pmin = bsp_nprocs(), pmax = pmin, runs = 3;
    if (argc == 4) {
        pmin = atoi(argv[1]);
        pmax = atoi(argv[2]);
        runs = atoi(argv[3]);
    }
    CHECK(bsp_init("spmd_kernel", 0, NULL) == 1, "bsp_init");
    for (int p = pmin; p <= pmax; p++)
        session(p, runs);
    /* bsp_init again, and a session after it. */
    CHECK(bsp_init("spmd_kernel", argc, argv) == 1, "second bsp_init");
    session(pmin, 1);
    return 0;
}
