/* zero_bytes.c - a bsp_put, bsp_get, bsp_hpput, bsp_hpget or
 * bsp_direct_get of 0 bytes does nothing, whatever its remote address and
 * offset (NULL, unregistered, out of range), as in LPF, MulticoreBSP and
 * BSPonMPI: the common case is a processor with no local data that
 * registered NULL.  A transfer of 1 byte to the same places is still an
 * error, and a negative size too.  Usage: zero_bytes [MODE]; without MODE
 * the no-ops run and the data must be untouched; with MODE processor 1
 * makes that erroneous transfer. */
// RUN: n=1
// RUN: n=2
// RUN: n=4
// RUN: n=2 args="null_put" fail="^superstep: bsp_put: processor 1, superstep 1: NULL registered address$"
// RUN: n=2 args="null_get" fail="^superstep: bsp_get: processor 1, superstep 1: NULL registered address$"
// RUN: n=2 args="unreg_hpput" fail="^superstep: bsp_hpput: processor 1, superstep 1: address 0x[0-9a-f]+ is not registered"
// RUN: n=2 args="range_hpget" fail="^superstep: bsp_hpget: processor 1, superstep 1: offset 8 \+ nbytes 1 exceeds the 8 bytes registered on processor 0$"
// RUN: n=3 args="pid_put" fail="^superstep: bsp_put: processor 1, superstep 1: pid 3 out of range \(nprocs 3\)$"
// RUN: n=2 args="negative_put" fail="^superstep: bsp_put: processor 1, superstep 1: negative nbytes -1$"
#include <bsp.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

static int64_t mine = 7, never, got = -5;

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs(), next = (s + 1) % p;
    bsp_push_reg(NULL, 0); /* no local data */
    bsp_push_reg(&mine, sizeof mine);
    bsp_sync(); /* superstep 1 */

    if (!*mode) {
        int64_t before = mine;
        bsp_put(next, &got, NULL, 0, 0);              /* NULL registered */
        bsp_put(next, NULL, NULL, 0, 0);              /* and no source at all */
        bsp_get(next, NULL, 0, &got, 0);
        bsp_hpput(next, &got, NULL, 123, 0);
        bsp_hpget(next, NULL, 99, &got, 0);
        bsp_put(next, &got, &never, 0, 0);            /* never registered */
        bsp_get(next, &never, 4, &got, 0);
        bsp_hpput(next, &got, &never, 0, 0);
        bsp_hpget(next, &never, 0, &got, 0);
        bsp_put(next, &got, &mine, 64, 0);            /* offset beyond the registration */
        bsp_get(next, &mine, 1000, &got, 0);
        bsp_hpput(next, &got, &mine, 9, 0);
        bsp_hpget(next, &mine, 1 << 20, &got, 0);
        bsp_direct_get(next, &never, 0, &got, 0);
        bsp_direct_get(next, NULL, 77, &got, 0);
        bsp_sync();
        CHECK(mine == before && got == -5, "processor %d: a zero-byte transfer moved data (mine %lld, got %lld)",
              s, (long long)mine, (long long)got);
        /* A real transfer still works beside them. */
        bsp_get(next, &mine, 0, &got, sizeof got);
        bsp_put(next, &got, NULL, 0, 0);
        bsp_sync();
        CHECK(got == 7, "processor %d: got %lld", s, (long long)got);
    } else if (s == 1) {
        if (!strcmp(mode, "null_put"))
            bsp_put(0, &got, NULL, 0, 1);
        else if (!strcmp(mode, "null_get"))
            bsp_get(0, NULL, 0, &got, 1);
        else if (!strcmp(mode, "unreg_hpput"))
            bsp_hpput(0, &got, &never, 0, 1);
        else if (!strcmp(mode, "range_hpget"))
            bsp_hpget(0, &mine, 8, &got, 1);
        else if (!strcmp(mode, "pid_put"))
            bsp_put(p, &got, &mine, 0, 1);
        else if (!strcmp(mode, "negative_put"))
            bsp_put(0, &got, &mine, 0, -1);
        bsp_sync();
    }
    bsp_sync();
    bsp_end();
    return 0;
}
