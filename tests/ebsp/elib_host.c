/* elib_host.c - runs elib_kernel with MODE (default ok); exit status 0
 * when the run succeeded. */
// RUN: n=16 out="^[$]05: core 2121 rows 4 cols 4$" timeout=120
// RUN: n=6 out="^[$]05: core 2122 rows 2 cols 3$"
// RUN: n=2 args="event" fail="^superstep: e_ctimer_start: processor 0, superstep 0: timer event 0x2 counts Epiphany hardware events"
// RUN: n=1 args="timer" fail="^superstep: e_ctimer_get: processor 0, superstep 0: timer 2 does not exist"
// RUN: n=1 args="coords" fail="^superstep: e_coreid_from_coords: processor 0, superstep 0: row 64, column 0 out of range"
#include <host_bsp.h>

int main(int argc, char **argv)
{
    bsp_init("elib_kernel", argc, argv);
    bsp_begin(bsp_nprocs());
    int ok = ebsp_spmd();
    bsp_end();
    return ok ? 0 : 1;
}
