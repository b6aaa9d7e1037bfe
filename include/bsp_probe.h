/*
 * bsp_probe.h - the BSP machine parameters at run time, after LPF's
 * lpf_probe: g and l of this machine for the current device, from the
 * measurement bspbench caches (or the settings SUPERSTEP_G and SUPERSTEP_L,
 * or defaults); the same values the collectives of bsc.h and
 * bsp_level1.h choose their algorithms with.  Man page: bsp_probe(3).
 */
#ifndef SUPERSTEP_BSP_PROBE_H
#define SUPERSTEP_BSP_PROBE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct bsp_machine {
    unsigned int p;   /* processors of this run (outside one, what bsp_begin would start) */
    /* g: seconds per byte for messages of at least min_msg_size bytes;
     * l: seconds per superstep.  p: as measured for the nearest p cached
     * (source says which p, and how good bspbench's fit was). */
    double (*g)(unsigned int p, size_t min_msg_size);
    double (*l)(unsigned int p, size_t min_msg_size);
    double r;            /* flop/s of one processor; 0 when not measured */
    const char *source;  /* where g and l come from, in words: the p measured, the fit, the p used for */
} bsp_machine_t;

/* Fill *machine: 0, or -1 when machine is NULL. */
int bsp_probe(bsp_machine_t *machine);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_BSP_PROBE_H */
