/* resiliency.c - MulticoreBSP's mcbsp-resiliency.h without a checkpoint
 * engine: the settings are kept and read back; a checkpoint actually
 * requested (mcbsp_checkpoint, or an automatic one falling due) stops the
 * job with one line; disabled or at frequency 0 nothing is requested.
 * Usage: resiliency MODE. */
// RUN: n=2 args="settings" out="^settings ok$"
// RUN: n=3 args="explicit" fail="^superstep: mcbsp_checkpoint: processor 1, superstep 2: Superstep has no checkpoint engine, so it cannot write a checkpoint \(MulticoreBSP built without DMTCP stops here too\)$"
// RUN: n=2 args="auto" fail="^superstep: bsp_sync: processor [01], superstep 3: an automatic checkpoint is due \(checkpoint frequency 3\), but Superstep has no checkpoint engine"
// RUN: n=2 args="disabled" out="^disabled ok$"
// RUN: n=2 args="default" out="^default ok$"
#include <bsp.h>
#include <mcbsp-resiliency.h>
#include <stdio.h>
#include <string.h>

#include "check.h"

static void steps(int n)
{
    for (int i = 0; i < n; i++)
        bsp_sync();
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: resiliency MODE");
    const char *mode = argv[1];
    if (!strcmp(mode, "settings")) {
        CHECK(MCBSP_DEFAULT_CHECKPOINT_FREQUENCY == 0, "default %zu", MCBSP_DEFAULT_CHECKPOINT_FREQUENCY);
        CHECK(mcbsp_get_checkpoint_frequency() == 0, "frequency %zu", mcbsp_get_checkpoint_frequency());
        mcbsp_set_checkpoint_frequency(7);
        CHECK(mcbsp_get_checkpoint_frequency() == 7 && mcbsp_get_safe_checkpoint_frequency() == 7,
              "frequency %zu, safe %zu", mcbsp_get_checkpoint_frequency(), mcbsp_get_safe_checkpoint_frequency());
        mcbsp_set_safe_checkpoint_frequency(2);
        CHECK(mcbsp_get_safe_checkpoint_frequency() == 2, "safe %zu", mcbsp_get_safe_checkpoint_frequency());
        mcbsp_disable_checkpoints();
        CHECK(mcbsp_get_checkpoint_frequency() == 7, "disabling changed the frequency");
        bsp_begin(bsp_nprocs());
        steps(8); /* disabled: superstep 7 passes */
        mcbsp_set_checkpoint_frequency(0);
        mcbsp_enable_checkpoints();
        steps(3);
        bsp_end();
        printf("settings ok\n");
        return 0;
    }
    if (!strcmp(mode, "default"))
        MCBSP_DEFAULT_CHECKPOINT_FREQUENCY = 4; /* no call, no machine.info: this one */
    if (!strcmp(mode, "auto"))
        mcbsp_set_checkpoint_frequency(3);
    bsp_begin(bsp_nprocs());
    if (!strcmp(mode, "default")) {
        CHECK(mcbsp_get_checkpoint_frequency() == 4, "frequency %zu", mcbsp_get_checkpoint_frequency());
        mcbsp_disable_checkpoints();
        steps(9);
        printf("default ok\n");
    } else if (!strcmp(mode, "explicit")) {
        steps(2);
        if (bsp_pid() == 1)
            mcbsp_checkpoint();
        steps(1);
    } else if (!strcmp(mode, "auto")) {
        steps(2);
        CHECK(bsp_pid() >= 0, "still running after superstep 2");
        steps(1); /* ends superstep 3: due */
        CHECK(0, "passed the sync where a checkpoint was due");
    } else if (!strcmp(mode, "disabled")) {
        mcbsp_set_checkpoint_frequency(1);
        mcbsp_disable_checkpoints();
        steps(5);
        printf("disabled ok\n");
    }
    bsp_end();
    return 0;
}
