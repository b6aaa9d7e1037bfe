/*
 * checkpoint.c - MulticoreBSP's resiliency interface (mcbsp-resiliency.h)
 * without a checkpoint engine.
 *
 * The settings are kept and read back as documented; a checkpoint that is
 * actually requested (mcbsp_checkpoint, or an automatic one falling due at
 * a bsp_sync) stops the job with one line, as MulticoreBSP built without
 * DMTCP stops at bsp_abort.  Automatic checkpoints cost bsp_sync one test
 * of bsp.checkpoint_every, which is 0 unless enabled with a frequency.
 */
#include "bsp/bsp_impl.h"

#include "mcbsp-resiliency.h"

#include <unistd.h>

size_t MCBSP_DEFAULT_CHECKPOINT_FREQUENCY = 0;

static struct {
    bool disabled;
    bool cp_f_set, safe_set;       /* by a call */
    size_t cp_f, safe_cp_f;
} cp;

size_t mcbsp_get_checkpoint_frequency(void)
{
    const struct machine_info *mi;
    if (cp.cp_f_set)
        return cp.cp_f;
    mi = machine_info();
    return mi->cp_f_set ? mi->cp_f : MCBSP_DEFAULT_CHECKPOINT_FREQUENCY;
}

size_t mcbsp_get_safe_checkpoint_frequency(void)
{
    const struct machine_info *mi = machine_info();
    if (cp.safe_set)
        return cp.safe_cp_f;
    return mi->safe_cp_f_set ? mi->safe_cp_f : mcbsp_get_checkpoint_frequency();
}

/* What bsp_sync tests: the frequency in force while checkpoints are on (the
 * safe one while MulticoreBSP's failure file /etc/bsp_failure exists). */
void checkpoint_arm(void)
{
    size_t every = access("/etc/bsp_failure", F_OK) == 0 ? mcbsp_get_safe_checkpoint_frequency()
                                                         : mcbsp_get_checkpoint_frequency();
    bsp.checkpoint_every = cp.disabled ? 0 : every;
}

void mcbsp_set_checkpoint_frequency(size_t f)
{
    cp.cp_f = f;
    cp.cp_f_set = true;
    if (bsp.begun)
        checkpoint_arm();
}

void mcbsp_set_safe_checkpoint_frequency(size_t f)
{
    cp.safe_cp_f = f;
    cp.safe_set = true;
    if (bsp.begun)
        checkpoint_arm();
}

void mcbsp_enable_checkpoints(void)
{
    cp.disabled = false;
    if (bsp.begun)
        checkpoint_arm();
}

void mcbsp_disable_checkpoints(void)
{
    cp.disabled = true;
    bsp.checkpoint_every = 0;
}

void mcbsp_checkpoint(void)
{
    bsp_require_begun("mcbsp_checkpoint");
    bsp_error("mcbsp_checkpoint", "Superstep has no checkpoint engine, so it cannot write a checkpoint "
              "(MulticoreBSP built without DMTCP stops here too)");
}

void checkpoint_due(void)
{
    bsp_error("bsp_sync", "an automatic checkpoint is due (checkpoint frequency %llu), but Superstep has no "
              "checkpoint engine (mcbsp_disable_checkpoints, or frequency 0, turns them off)",
              (unsigned long long)bsp.checkpoint_every);
}
