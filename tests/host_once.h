/* host_once.h - the host of a kernel test: one run of 'kernel' on
 * bsp_nprocs() processors, with the host's arguments (the kernel gets
 * them); returns what ebsp_spmd returned (1: the run succeeded, 0: it
 * failed). */
#ifndef SUPERSTEP_TEST_HOST_ONCE_H
#define SUPERSTEP_TEST_HOST_ONCE_H
#include <host_bsp.h>

#include "check.h"

static inline int host_run_once(const char *kernel, int argc, char **argv)
{
    CHECK(bsp_init(kernel, argc, argv) == 1, "bsp_init");
    CHECK(bsp_begin(bsp_nprocs()) == 1, "bsp_begin");
    int ok = ebsp_spmd();
    bsp_end();
    return ok;
}
#endif
