/* err_mcbsp.c - bad input in the MulticoreBSP dialect, whose sizes are
 * size_t and pids unsigned: absurd sizes, offset + size that wraps around,
 * a pid of (bsp_pid_t)-1.  Usage: err_mcbsp MODE; processor 1 makes the bad
 * call in superstep 1. */
// RUN: n=2 args="put-size" fail="^superstep: bsp_put: processor 1, superstep 1: .*18446744073709551615"
// RUN: n=2 args="get-size" fail="^superstep: bsp_get: processor 1, superstep 1: .*18446744073709551615"
// RUN: n=2 args="put-wrap" fail="^superstep: bsp_put: processor 1, superstep 1: .*offset 18446744073709551612\b.*\b8\b"
// RUN: n=3 args="get-wrap" fail="^superstep: bsp_get: processor 1, superstep 1: .*offset 18446744073709551612\b.*\b8\b"
// RUN: n=2 args="hpput-wrap" fail="^superstep: bsp_hpput: processor 1, superstep 1: .*offset 18446744073709551612\b.*\b8\b"
// RUN: n=2 args="pid" fail="^superstep: bsp_put: processor 1, superstep 1: .*pid (4294967295|-1)\b"
// RUN: n=2 args="send-size" fail="^superstep: bsp_send: processor 1, superstep 1: .*9223372036854775807"
// RUN: n=2 args="qsize-null" fail="^superstep: bsp_qsize: processor 1, superstep 1: NULL packets pointer"
// RUN: n=2 args="direct-get-nodirect" env="SUPERSTEP_NO_DIRECT=1" fail="^superstep: bsp_direct_get: processor 1, superstep 1: device (shm|mpi) cannot read processor 0's memory directly"
#define SUPERSTEP_MCBSP
#include <bsp.h>
#include <stdint.h>
#include <string.h>

#include "check.h"

static char area[8], buf[8];

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_mcbsp MODE");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    bsp_push_reg(area, sizeof area);
    bsp_sync(); /* superstep 1 */

    if (bsp_pid() == 1) {
        if (strcmp(m, "put-size") == 0)
            bsp_put(0, buf, area, 0, SIZE_MAX);
        else if (strcmp(m, "get-size") == 0)
            bsp_get(0, area, 0, buf, SIZE_MAX);
        else if (strcmp(m, "put-wrap") == 0)
            bsp_put(0, buf, area, SIZE_MAX - 3, 8); /* wraps to 4 */
        else if (strcmp(m, "get-wrap") == 0)
            bsp_get(0, area, SIZE_MAX - 3, buf, 8);
        else if (strcmp(m, "hpput-wrap") == 0)
            bsp_hpput(0, buf, area, SIZE_MAX - 3, 8);
        else if (strcmp(m, "pid") == 0)
            bsp_put((bsp_pid_t)-1, buf, area, 0, 1);
        else if (strcmp(m, "send-size") == 0)
            bsp_send(0, NULL, buf, SIZE_MAX / 2);
        else if (strcmp(m, "qsize-null") == 0)
            bsp_qsize(NULL, NULL);
        else if (strcmp(m, "direct-get-nodirect") == 0)
            bsp_direct_get(0, area, 0, buf, 1);
        else
            CHECK(0, "unknown mode %s", m);
    }
    bsp_sync();
    bsp_end();
    return 0;
}
