/*
 * plugin.h - the mpi plug-in's interface with the core: the one header of
 * src/mpi that the core includes (src/plugin/load.c).
 *
 * The mpi device, with every part of Superstep that calls MPI (mp.h's MPI
 * transport, the Epiphany host's and kernel's sides on mpi), is a shared
 * object of its own, lib/superstep/device-mpi.so, that the core loads only
 * when that device is chosen: a program that runs on shm neither links nor
 * loads libmpi.  The plug-in exports three symbols only: PLUGIN_VERSION_SYMBOL
 * (the PLUGIN_VERSION it was built for), PLUGIN_ABI_SYMBOL (the checksum of
 * the headers it was built from: the state views below are the core's own
 * structs) and PLUGIN_ENTRY_SYMBOL, a function that takes the core's
 * services below and returns what the plug-in gives (struct device_plugin,
 * device.h).  The core refuses a plug-in of another version or checksum
 * with a line that says so.
 *
 * The plug-in reaches the core through `core` (set by its entry point,
 * entry.c) and nothing else: core->launch_fail(...), core->job->me.  The
 * core exports nothing but the public API, and the plug-in is linked with
 * --no-undefined, so a core name used directly fails its link.  A core
 * function or variable that the plug-in starts to use is a new field here
 * (load.c fills it; the compiler checks its type there), and PLUGIN_VERSION
 * goes up by one.
 */
#ifndef SUPERSTEP_MPI_PLUGIN_H
#define SUPERSTEP_MPI_PLUGIN_H

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

/* One more at each change of struct plugin_services or struct device_plugin. */
#define PLUGIN_VERSION 5u

#ifndef SUPERSTEP_PLUGIN_ABI
#error "plugin.h: SUPERSTEP_PLUGIN_ABI comes from the Makefile (a checksum of the headers)"
#endif
#define PLUGIN_ABI ((uint64_t)SUPERSTEP_PLUGIN_ABI)

#define PLUGIN_VERSION_SYMBOL "superstep_plugin_version"
#define PLUGIN_ABI_SYMBOL "superstep_plugin_abi"
#define PLUGIN_ENTRY_SYMBOL "superstep_plugin_entry"

#define PLUGIN_FAILS(fmt, args) __attribute__((noreturn, format(printf, fmt, args)))

/* What the core hands the plug-in: its functions, by layer, and views of
 * the state the plug-in reads or sets. */
struct plugin_services {
    /* settings, segment, clock, the late watch (barrier.h) */
    bool (*setting_given)(enum setting s);
    uint64_t (*setting_num)(enum setting s);
    int (*seg_create)(struct segment *s, size_t size, uint32_t nprocs);
    int (*seg_attach)(struct segment *s, int fd);
    void (*seg_detach)(struct segment *s);
    uint64_t (*seg_alloc)(struct segment *s, size_t n, size_t align);
    size_t (*seg_size_from_env)(void);
    int64_t (*now_ns)(void);
    void (*late_arm)(struct late_watch *w, void (*late)(int64_t waited_ns));
    void (*late_start)(struct late_timer *t, const struct late_watch *w, int64_t now);
    bool (*late_due)(struct late_timer *t, int64_t now);
    void (*late_check)(struct late_timer *t, int64_t now);
    /* launch: the job, its failure and its hooks (launch.h, supervise.h) */
    struct job *job;
    struct launch_words *launch_words;
    struct launch_shared *(*launch_setup)(struct segment *seg, uint32_t nprocs);
    void (*launch_fail)(uint32_t code, const char *fmt, ...) PLUGIN_FAILS(2, 3);
    void (**launch_fail_hook)(uint32_t code, const char *msg);
    void (**launch_failed_hook)(void);
    bool (**launch_claimed_hook)(void);
    void (*launch_keep_failure)(const char *line);
    void (*launch_catch_fatal_signals)(void (*handler)(int));
    bool (*supervise_proc_stat)(pid_t pid, int field, char *state, uint64_t *value);
    void (*supervise_close_all_but)(const int *keep, int n);
    void (*supervise_report)(const char *who, const char *what, bool steps, uint64_t step, const char *where,
                             const char *end_call);
    int (*supervise_zombie_status)(pid_t pid);
    struct watch_page *(*supervise_page_new)(void);
    _Atomic uint64_t *(*supervise_page_arm)(struct watch_page *pg, const char *who, const char *end_call,
                                            const char *where, bool steps);
    void (*supervise_page_report)(const struct watch_page *pg, const char *what, bool without);
    void (*supervise_page_report_end)(const struct watch_page *pg, int status);
    size_t (*launch_put_str)(char *buf, size_t at, size_t cap, const char *s);
    size_t (*launch_put_u64)(char *buf, size_t at, size_t cap, uint64_t v);
    bool (*launch_output_until)(int fd, int64_t until);
    size_t (*put_killed)(char *buf, size_t at, size_t cap, int sig);
    size_t (*launch_put_where)(char *buf, size_t at, size_t cap, const char *lead, const struct launch_proc *proc,
                               uint32_t n, uint64_t step);
    /* device (device.h) */
    struct device **dev;
    struct device *(*device_choose)(void);
    bool (*device_started_by_mpi)(void);
    long (*device_launched)(long *rank);
    /* BSP (bsp_impl.h) */
    struct bsp_state *bsp;
    void (*bsp_error)(const char *call, const char *fmt, ...) PLUGIN_FAILS(2, 3);
    void (*bsp_set_call)(uint32_t call);
    void (*bsp_collective_mismatch)(void) __attribute__((noreturn));
    /* mp.h (mp_impl.h) */
    const struct launch_words *mp_words;
    void (*mp_error)(const char *call, const char *fmt, ...) PLUGIN_FAILS(2, 3);
    void (*mp_deadlock_line)(char *msg, size_t size, int n, uint32_t (*state)(int k));
    void (*mp_sync_stalled)(const struct late_watch *w, int64_t waited_ns, int n, bool (*computing)(uint32_t k));
    /* the Epiphany host and kernel (host.h, ebsp.h) */
    struct host_state *hs;
    void (*host_error)(const char *call, const char *fmt, ...) PLUGIN_FAILS(2, 3);
    void (*host_print_line)(uint32_t pid, const char *s, uint32_t n);
    struct ebsp_kernel *ek;
};

/* The plug-in's entry point (PLUGIN_ENTRY_SYMBOL); its PLUGIN_VERSION_SYMBOL
 * is a const uint32_t, its PLUGIN_ABI_SYMBOL a const uint64_t. */
typedef const struct device_plugin *plugin_entry_fn(const struct plugin_services *core);

#ifdef SUPERSTEP_PLUGIN
/* In the plug-in: the core's services, set by the entry point before
 * anything else of the plug-in runs. */
extern const struct plugin_services *core __attribute__((visibility("hidden")));
#endif

/* The core's side (load.c): load the plug-in of device 'name' and hand it
 * the core's services; NULL with the reason in why[cap] when it cannot.
 * Installed at start as the device layer's device_plugin_load. */
const struct device_plugin *plugin_load(const char *name, char *why, size_t cap);

#endif
