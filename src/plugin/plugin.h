/*
 * plugin.h - the boundary between the core library and a device plug-in.
 *
 * The mpi device, with every part of Superstep that calls MPI (mp.h's MPI
 * transport, the Epiphany host's and kernel's sides on mpi), is a shared
 * object of its own, lib/superstep/device-mpi.so, that the core loads
 * (load.c) only when that device is chosen: a program that runs on shm
 * neither links nor loads libmpi.  The plug-in exports two symbols only:
 * PLUGIN_ABI_SYMBOL, the interface it was built for, and PLUGIN_ENTRY_SYMBOL,
 * a function that takes the table of the core's services below and returns
 * what the plug-in gives (struct device_plugin, device.h).
 *
 * The plug-in's sources call the core by the core's own names (launch_fail,
 * job, setting_num, ...): src/plugin/import.h, which each of them includes
 * last, maps every name of PLUGIN_CORE to its field in the table.  So the
 * core exports nothing but the public API, and the static and the shared
 * library load the plug-in alike.
 *
 * A core function or variable that a plug-in source starts to use is added
 * here, in PLUGIN_CORE (with __attribute__ noreturn/format where its
 * declaration has them), and in import.h (one #define); entry.c checks at
 * compile time that import.h maps every name of the list, and the plug-in
 * is linked with --no-undefined, so a name missing from either fails the
 * build.  Both sides are built from the same headers: PLUGIN_ABI (the
 * Makefile's checksum of them) tells a plug-in from another build.
 */
#ifndef SUPERSTEP_PLUGIN_H
#define SUPERSTEP_PLUGIN_H

#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "device/device.h"
#include "ebsp/ebsp.h"
#include "host/host.h"
#include "launch/launch.h"
#include "launch/supervise.h"
#include "mp/mp_impl.h"
#include "segment/segment.h"
#include "settings/settings.h"

#include <stdint.h>

#ifndef SUPERSTEP_PLUGIN_ABI
#error "plugin.h: SUPERSTEP_PLUGIN_ABI comes from the Makefile (a checksum of the headers)"
#endif
#define PLUGIN_ABI ((uint64_t)SUPERSTEP_PLUGIN_ABI)

#define PLUGIN_ABI_SYMBOL "superstep_plugin_abi"
#define PLUGIN_ENTRY_SYMBOL "superstep_plugin_entry"

#define PLUGIN_NORETURN __attribute__((noreturn))
#define PLUGIN_FAILS(fmt, args) __attribute__((noreturn, format(printf, fmt, args)))

/* The core's functions and variables that plug-ins use, by layer:
 * X(name, attributes of the function). */
#define PLUGIN_CORE(X)                                                                                      \
    X(setting_given, ) X(setting_num, )                                                                     \
    X(seg_create, ) X(seg_attach, ) X(seg_detach, ) X(seg_alloc, ) X(seg_size_from_env, )                   \
    X(now_ns, ) X(late_arm, ) X(late_start, ) X(late_due, ) X(late_check, )                                 \
    X(job, ) X(launch_words, ) X(launch_setup, ) X(launch_fail, PLUGIN_FAILS(2, 3))                         \
    X(launch_fail_hook, ) X(launch_failed_hook, ) X(launch_catch_fatal_signals, )                           \
    X(launch_claimed_hook, ) X(launch_keep_failure, ) X(supervise_drop_handlers, ) X(supervise_proc_stat, )                           \
    X(launch_put_str, ) X(launch_put_u64, )                                                                 \
    X(dev, ) X(device_choose, ) X(device_started_by_mpi, ) X(device_launched, )                                                  \
    X(bsp, ) X(bsp_error, PLUGIN_FAILS(2, 3)) X(bsp_set_call, ) X(bsp_collective_mismatch, PLUGIN_NORETURN) \
    X(mp_words, ) X(mp_error, PLUGIN_FAILS(2, 3)) X(mp_deadlock_line, ) X(mp_sync_stalled, )                \
    X(hs, ) X(host_error, PLUGIN_FAILS(2, 3)) X(host_print_line, )                                          \
    X(ek, )

/* What the core hands a plug-in: a pointer to each of them. */
struct plugin_core {
    uint64_t abi;
#define PLUGIN_FIELD(name, attributes) __typeof__(name) *name attributes;
    PLUGIN_CORE(PLUGIN_FIELD)
#undef PLUGIN_FIELD
};

/* The plug-in's entry point (PLUGIN_ENTRY_SYMBOL); its PLUGIN_ABI_SYMBOL is
 * a const uint64_t. */
typedef const struct device_plugin *plugin_entry_fn(const struct plugin_core *core);

/* The core's side (load.c): load the plug-in of device 'name' and hand it
 * the core's table; NULL with the reason in why[cap] when it cannot.
 * Installed at start as the device layer's device_plugin_load. */
const struct device_plugin *plugin_load(const char *name, char *why, size_t cap);

#endif
