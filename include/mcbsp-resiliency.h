/*
 * mcbsp-resiliency.h - MulticoreBSP for C's checkpointing interface, for
 * Superstep.
 *
 * Superstep has no checkpoint engine (MulticoreBSP uses DMTCP when built
 * with it), so programs that use this header build and run, and the
 * settings behave as documented, but a checkpoint that is actually
 * requested stops the job with one line, as MulticoreBSP built without
 * DMTCP stops at bsp_abort:
 *   - mcbsp_checkpoint() (collective in MulticoreBSP), on any processor;
 *   - an automatic checkpoint: with checkpoints enabled (the default) and a
 *     frequency C > 0, at every C-th bsp_sync (the safe frequency instead
 *     while /etc/bsp_failure exists, looked at by bsp_begin).
 * The frequency is, in order: the last mcbsp_set_checkpoint_frequency
 * call, the `checkpoint_frequency` key of a machine.info file in the
 * working directory, MCBSP_DEFAULT_CHECKPOINT_FREQUENCY (0: no automatic
 * checkpoints).  The safe frequency: its setter, `safe_checkpoint_frequency`,
 * else the frequency.  Each processor keeps its own settings (they are
 * copied at bsp_begin).
 */
#ifndef SUPERSTEP_MCBSP_RESILIENCY_H
#define SUPERSTEP_MCBSP_RESILIENCY_H

#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The checkpoint frequency when neither a call nor machine.info sets one. */
extern size_t MCBSP_DEFAULT_CHECKPOINT_FREQUENCY;

void mcbsp_checkpoint(void);
void mcbsp_enable_checkpoints(void);
void mcbsp_disable_checkpoints(void);
void mcbsp_set_checkpoint_frequency(size_t _cp_f);
size_t mcbsp_get_checkpoint_frequency(void);
void mcbsp_set_safe_checkpoint_frequency(size_t _safe_cp_f);
size_t mcbsp_get_safe_checkpoint_frequency(void);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_MCBSP_RESILIENCY_H */
