/*
 * entry.c - the mpi plug-in's entry point (plugin.h): it keeps the core's
 * services that the plug-in's sources reach through `core`, and gives the
 * core the mpi device with the parts of mp.h, the Epiphany host and the
 * kernel that run on it.
 */
#include "ebsp/ebsp_mpi.h"
#include "host/host.h"
#include "mp/mp_impl.h"
#include "mpi/plugin.h"

const struct plugin_services *core;

__attribute__((visibility("default"))) const uint32_t superstep_plugin_version = PLUGIN_VERSION;
__attribute__((visibility("default"))) const uint64_t superstep_plugin_abi = PLUGIN_ABI;

plugin_entry_fn superstep_plugin_entry; /* the type the core calls it by */

__attribute__((visibility("default"))) const struct device_plugin *superstep_plugin_entry(const struct plugin_services *services)
{
    static const struct host_mpi host = { hmpi_on, hmpi_init, hmpi_run };
    static const struct kernel_mpi kernel = {
        kmpi_spawned, kmpi_begin, kmpi_line, kmpi_host_sync, kmpi_end, kmpi_abort,
    };
    static const struct device_plugin mpi = { &device_mpi, &mp_transport_mpi, &host, &kernel, mpi_on_exit };
    core = services;
    return &mpi;
}
