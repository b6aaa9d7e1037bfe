/* mcbsp_machine.c - prints what mcbsp.h's getters and bsp_nprocs() say
 * before bsp_begin, and runs a superstep on that many processors; with
 * "expect N" it checks that bsprun -n N (SUPERSTEP_NPROCS) gives N cores
 * and N processors.  machine_info.sh runs it beside machine.info files. */
// RUN: n=2 args="expect 2" out="^threads 2 cores 2 "
// RUN: n=3 args="expect 3" out="^threads 3 cores 3 "
#include <mcbsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    size_t *pin = mcbsp_get_pinning(), *res = mcbsp_get_reserved_cores();
    printf("threads %u cores %zu per_core %zu unused %zu numbering %s affinity %d pinning %zu reserved %zu first %zu\n",
           (unsigned)bsp_nprocs(), mcbsp_get_available_cores(), mcbsp_get_threads_per_core(),
           mcbsp_get_unused_threads_per_core(), mcbsp_get_thread_numbering() == WRAPPED ? "wrapped" : "consecutive",
           (int)mcbsp_get_affinity_mode(), pin ? pin[0] : 0, mcbsp_get_reserved_cores_number(), res ? res[0] : 0);
    free(pin);
    free(res);
    if (argc == 3 && !strcmp(argv[1], "expect")) {
        size_t n = (size_t)atoi(argv[2]);
        CHECK(mcbsp_get_available_cores() == n && (size_t)bsp_nprocs() == n, "bsprun -n %zu not honoured", n);
    }
    fflush(stdout);
    bsp_begin(bsp_nprocs());
    bsp_sync();
    bsp_end();
    return 0;
}
