/*
 * import.h - in a source of a plug-in, the core's names mapped to the
 * table the core hands the plug-in (plugin.h), so that the source's code
 * calls launch_fail(...), reads job.me or sets launch_fail_hook unchanged.
 *
 * Include it last, after every other header: the layers' headers must
 * still declare the real names.  (A static inline function of a layer's
 * header is compiled before this mapping, so one that uses a name of
 * PLUGIN_CORE cannot be called from a plug-in: the plug-in's link, with
 * --no-undefined, names it.)  A struct tag spelled as a mapped variable
 * (struct job, struct launch_words) cannot be named after this header:
 * use __typeof__(job).  One line per name of PLUGIN_CORE; entry.c checks
 * that none is missing.
 */
#ifndef SUPERSTEP_PLUGIN_IMPORT_H
#define SUPERSTEP_PLUGIN_IMPORT_H

#ifndef SUPERSTEP_PLUGIN
#error "import.h is for the sources of a plug-in (built with -DSUPERSTEP_PLUGIN)"
#endif

#include "plugin/plugin.h"

/* Set by the entry point (entry.c) before anything else of the plug-in runs. */
extern const struct plugin_core *plugin_core __attribute__((visibility("hidden")));

#define setting_given (*plugin_core->setting_given)
#define setting_num (*plugin_core->setting_num)
#define seg_create (*plugin_core->seg_create)
#define seg_attach (*plugin_core->seg_attach)
#define seg_detach (*plugin_core->seg_detach)
#define seg_alloc (*plugin_core->seg_alloc)
#define seg_size_from_env (*plugin_core->seg_size_from_env)
#define now_ns (*plugin_core->now_ns)
#define late_arm (*plugin_core->late_arm)
#define late_start (*plugin_core->late_start)
#define late_due (*plugin_core->late_due)
#define late_check (*plugin_core->late_check)
#define job (*plugin_core->job)
#define launch_words (*plugin_core->launch_words)
#define launch_setup (*plugin_core->launch_setup)
#define launch_fail (*plugin_core->launch_fail)
#define launch_fail_hook (*plugin_core->launch_fail_hook)
#define launch_failed_hook (*plugin_core->launch_failed_hook)
#define launch_claimed_hook (*plugin_core->launch_claimed_hook)
#define launch_keep_failure (*plugin_core->launch_keep_failure)
#define launch_catch_fatal_signals (*plugin_core->launch_catch_fatal_signals)
#define supervise_drop_handlers (*plugin_core->supervise_drop_handlers)
#define supervise_proc_stat (*plugin_core->supervise_proc_stat)
#define launch_put_str (*plugin_core->launch_put_str)
#define launch_put_u64 (*plugin_core->launch_put_u64)
#define dev (*plugin_core->dev)
#define device_choose (*plugin_core->device_choose)
#define device_started_by_mpi (*plugin_core->device_started_by_mpi)
#define device_launched (*plugin_core->device_launched)
#define bsp (*plugin_core->bsp)
#define bsp_error (*plugin_core->bsp_error)
#define bsp_set_call (*plugin_core->bsp_set_call)
#define bsp_collective_mismatch (*plugin_core->bsp_collective_mismatch)
#define mp_words (*plugin_core->mp_words)
#define mp_error (*plugin_core->mp_error)
#define mp_deadlock_line (*plugin_core->mp_deadlock_line)
#define mp_sync_stalled (*plugin_core->mp_sync_stalled)
#define hs (*plugin_core->hs)
#define host_error (*plugin_core->host_error)
#define host_print_line (*plugin_core->host_print_line)
#define ek (*plugin_core->ek)

#endif
