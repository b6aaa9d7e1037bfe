/* elib_kernel.c - kernel of elib_host: e-lib's core ids, coordinates and
 * timers.  Mode "ok" checks them and reports this core's id; the other
 * modes commit one bad call each. */
// NORUN: the kernel of elib_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <e-lib.h>
#include <string.h>
#include <time.h>

#include "check.h"

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void check_timers(void)
{
    e_ctimer_set(E_CTIMER_0, E_CTIMER_MAX);
    CHECK(e_ctimer_get(E_CTIMER_0) == E_CTIMER_MAX, "a stopped timer moved");
    e_ctimer_start(E_CTIMER_0, E_CTIMER_CLK);
    double t0 = seconds();
    while (seconds() - t0 < 0.002)
        ;
    unsigned v = e_ctimer_stop(E_CTIMER_0);
    /* at least 2 ms of a 600 MHz clock counted down */
    CHECK(E_CTIMER_MAX - v >= 1200000u, "only %u cycles counted in 2 ms", E_CTIMER_MAX - v);
    CHECK(e_ctimer_get(E_CTIMER_0) == v, "a stopped timer moved");
    e_ctimer_set(E_CTIMER_1, 100);
    e_ctimer_start(E_CTIMER_1, E_CTIMER_CLK);
    t0 = seconds();
    while (e_ctimer_get(E_CTIMER_1) && seconds() - t0 < 1)
        ;
    CHECK(e_ctimer_get(E_CTIMER_1) == 0, "a timer did not run out");
    t0 = seconds();
    e_wait(E_CTIMER_0, 600000); /* 1 ms */
    CHECK(seconds() - t0 >= 0.001, "e_wait returned after %g s", seconds() - t0);
}

int main(int argc, char **argv)
{
    bsp_begin();
    const char *mode = argc > 1 ? argv[1] : "ok";
    if (!strcmp(mode, "ok")) {
        e_coreid_t id = e_get_coreid();
        unsigned row, col;
        e_coords_from_coreid(id, &row, &col);
        CHECK(e_coreid_from_coords(row, col) == id, "coordinates do not give the id back");
        CHECK(row == 32 + e_group_config.core_row && col == 8 + e_group_config.core_col, "row %u col %u", row, col);
        CHECK(e_group_config.core_row * e_group_config.group_cols + e_group_config.core_col == (unsigned)bsp_pid(),
              "core %u,%u is not processor %d", e_group_config.core_row, e_group_config.core_col, bsp_pid());
        check_timers();
        ebsp_message("core %u rows %u cols %u", id, e_group_config.group_rows, e_group_config.group_cols);
    } else if (bsp_pid() == 0) {
        if (!strcmp(mode, "event"))
            e_ctimer_start(E_CTIMER_0, E_CTIMER_IDLE);
        if (!strcmp(mode, "timer"))
            e_ctimer_get((e_ctimer_id_t)2);
        if (!strcmp(mode, "coords"))
            e_coreid_from_coords(64, 0);
    }
    bsp_end();
    return 0;
}
