/*
 * probe.c - bsp_probe (bsp_probe.h): this process's machine parameters
 * (machine.c), as LPF's lpf_probe gives them.
 */
#include "coll/coll.h"

#include <bsp_probe.h>

static double probe_g(unsigned int p, size_t min_msg_size)
{
    (void)p;
    return machine_g(machine_get(), (double)min_msg_size);
}

static double probe_l(unsigned int p, size_t min_msg_size)
{
    (void)p, (void)min_msg_size;
    return machine_get()->l;
}

int bsp_probe(bsp_machine_t *machine)
{
    if (!machine)
        return -1;
    const struct machine *m = machine_get();
    *machine = (bsp_machine_t){ (unsigned)machine_nprocs(), probe_g, probe_l, m->r, m->source };
    return 0;
}
