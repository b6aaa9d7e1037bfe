/*
 * entry.c - the mpi plug-in's entry point (plugin.h): it keeps the table of
 * the core's services that the plug-in's sources reach through import.h,
 * and gives the core the mpi device with the parts of mp.h, the Epiphany
 * host and the kernel that run on it.  Built into the plug-in only.
 */
#include "ebsp/ebsp_mpi.h"
#include "host/host.h"
#include "mp/mp_impl.h"
#include "plugin/plugin.h"

#include "plugin/import.h"

const struct plugin_core *plugin_core;

/* import.h maps every name of PLUGIN_CORE: a name it missed would still be
 * the core's own, which the plug-in cannot reach. */
#define PLUGIN_TEXT(x) #x
#define PLUGIN_EXPANDED(x) PLUGIN_TEXT(x)
#define PLUGIN_MAPPED(name, attributes) \
    _Static_assert(sizeof PLUGIN_EXPANDED(name) > sizeof #name, "src/plugin/import.h does not map " #name);
PLUGIN_CORE(PLUGIN_MAPPED)

__attribute__((visibility("default"))) const uint64_t superstep_plugin_abi = PLUGIN_ABI;

plugin_entry_fn superstep_plugin_entry; /* the type the core calls it by */

__attribute__((visibility("default"))) const struct device_plugin *superstep_plugin_entry(const struct plugin_core *core)
{
    static const struct host_mpi host = { hmpi_on, hmpi_init, hmpi_run };
    static const struct kernel_mpi kernel = {
        kmpi_spawned, kmpi_begin, kmpi_line, kmpi_host_sync, kmpi_end, kmpi_abort,
    };
    static const struct device_plugin mpi = { &device_mpi, &mp_transport_mpi, &host, &kernel, mpi_on_exit };
    plugin_core = core;
    return &mpi;
}
