/* dep_host.c - Epiphany BSP's deprecated streams, host side: makes three
 * streams per core (see dep_kernel.c), runs the kernel with MODE and
 * checks what came up.  Modes starting with h_ are host errors.  Mode
 * "adjacent" is "ok" with every core's up stream made first, side by side,
 * 80 bytes each: on the mpi device, kernels that keep a copy of the segment
 * each (as on several machines) send back what they wrote there, and the
 * host must get every core's chunks (a kernel's copy of its neighbours'
 * bytes overwrote them where streams shared a 64-byte block). */
// RUN: n=3 out="^ok$"
// RUN: n=8 args="adjacent" env="SUPERSTEP_MPI_NO_SHARE=1" out="^ok$" timeout=120
// RUN: n=1 out="^[$]00: BSP ERROR: mixed up and down streams$"
// RUN: n=1 out="^[$]00: BSP ERROR: stream does not exist$"
// RUN: n=1 out="^[$]00: BSP ERROR: tried to close closed stream$"
// RUN: n=1 out="^[$]00: BSP ERROR: tried creating opened stream$"
// RUN: n=1 out="^[$]00: BSP ERROR: tried jumping past bounds of stream$"
// RUN: n=1 out="^[$]00: BSP ERROR: tried to open opened stream$"
// RUN: n=2 args="chunk_size" fail="^superstep: ebsp_set_up_chunk_size: processor 0, superstep 0: chunk size 17 out of range \(0..16\)$"
// RUN: n=2 args="not_open" fail="^superstep: ebsp_move_chunk_down: processor 0, superstep 0: stream 1 is not open"
// RUN: n=1 args="null" fail="^superstep: ebsp_open_down_stream: processor 0, superstep 0: NULL address pointer$"
// RUN: n=1 args="up_full" fail="^superstep: ebsp_move_chunk_up: processor 0, superstep 0: chunk of 16 bytes at byte 64 does not fit in stream 0 \(64 bytes\)$"
// RUN: n=1 args="strict" env="SUPERSTEP_STRICT=1" fail="^superstep: ebsp_open_up_stream: processor 0, superstep 0: stream 9 does not exist \(this processor has 3\)$"
// RUN: n=2 args="h_chunk" fail="^superstep: ebsp_create_down_stream: host: chunk size 8 is below the minimum of 16 bytes$"
// RUN: n=2 args="h_pid" fail="^superstep: ebsp_create_up_stream: host: pid 2 out of range \(nprocs 2\)$"
// RUN: n=2 args="h_early" fail="^superstep: ebsp_create_up_stream: host: called before bsp_begin$"
#include <host_bsp.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "ok";
    int p = bsp_nprocs();
    bsp_init("dep_kernel", argc, argv);
    if (!strcmp(mode, "h_early"))
        ebsp_create_up_stream(0, 64, 16);
    bsp_begin(p);
    if (!strcmp(mode, "h_chunk"))
        ebsp_create_down_stream("x", 0, 1, 8);
    if (!strcmp(mode, "h_pid"))
        ebsp_create_up_stream(p, 64, 16);
    int *upd[64];
    bool adjacent = !strcmp(mode, "adjacent");
    for (int s = 0; adjacent && s < p && s < 64; s++)
        upd[s] = ebsp_create_up_stream(s, 80, 16);
    for (int s = 0; s < p && s < 64; s++) {
        int data[16];
        char bytes[40];
        for (int i = 0; i < 16; i++)
            data[i] = 100 * s + i;
        memset(bytes, s, sizeof bytes);
        if (!adjacent)
            upd[s] = ebsp_create_up_stream(s, 64, 16);
        ebsp_create_down_stream(data, s, sizeof data, 16);
        ebsp_create_down_stream(bytes, s, sizeof bytes, 16);
    }
    int ok = ebsp_spmd();
    if (!ok)
        return 1;
    if (!strcmp(mode, "ok") || adjacent) {
        for (int s = 0; s < p && s < 64; s++)
            for (int i = 0; i < 14; i++) /* 3 chunks of 4 ints, then 8 bytes */
                CHECK(upd[s][i] == 1000 * s + i, "core %d: int %d went up as %d", s, i, upd[s][i]);
        printf("ok\n");
    }
    bsp_end();
    return 0;
}
