/*
 * load.c - loading a device plug-in and handing it the core's services
 * (struct plugin_services, src/mpi/plugin.h: the one header of the plug-in
 * that the core includes).
 *
 * The plug-in of device NAME is the file device-NAME.so in the folder
 *   - SUPERSTEP_PLUGIN_DIR, when set;
 *   - else, when the core is the shared library, superstep/ beside it
 *     (PREFIX/lib/superstep for PREFIX/lib/libsuperstep.so.1, lib/superstep
 *     in the build tree), so an installed tree may be moved as a whole;
 *   - else (the core linked into the program from libsuperstep.a, which
 *     leaves no file to look beside) the folder compiled in,
 *     SUPERSTEP_PLUGIN_DIR_BUILTIN: the build tree's lib/superstep in the
 *     build tree's archives, PREFIX/lib/superstep in the installed
 *     libsuperstep.a (make install compiles this file again for it).
 * It is loaded with RTLD_GLOBAL: an MPI's own components may use libmpi's
 * symbols without linking it (docs/mpi.md, "Vendor notes", rtld-global).  A plug-in is never
 * unloaded (its constructors may have registered handlers).
 */
#include "mpi/plugin.h"

#include <dlfcn.h>
#include <limits.h>
#include <stdbool.h>
#include <link.h>
#include <stdio.h>
#include <string.h>

#ifndef SUPERSTEP_PLUGIN_DIR_BUILTIN
#error "load.c: SUPERSTEP_PLUGIN_DIR_BUILTIN comes from the Makefile"
#endif

static const struct plugin_services services = {
    .setting_given = setting_given,
    .setting_num = setting_num,
    .seg_create = seg_create,
    .seg_attach = seg_attach,
    .seg_detach = seg_detach,
    .seg_alloc = seg_alloc,
    .seg_size_from_env = seg_size_from_env,
    .now_ns = now_ns,
    .late_arm = late_arm,
    .late_start = late_start,
    .late_due = late_due,
    .late_check = late_check,
    .job = &job,
    .launch_words = &launch_words,
    .launch_setup = launch_setup,
    .launch_fail = launch_fail,
    .launch_fail_hook = &launch_fail_hook,
    .launch_failed_hook = &launch_failed_hook,
    .launch_claimed_hook = &launch_claimed_hook,
    .launch_keep_failure = launch_keep_failure,
    .launch_catch_fatal_signals = launch_catch_fatal_signals,
    .supervise_proc_stat = supervise_proc_stat,
    .supervise_close_all_but = supervise_close_all_but,
    .supervise_report = supervise_report,
    .supervise_zombie_status = supervise_zombie_status,
    .supervise_page_new = supervise_page_new,
    .supervise_page_arm = supervise_page_arm,
    .supervise_page_report = supervise_page_report,
    .supervise_page_report_end = supervise_page_report_end,
    .put_killed = put_killed,
    .launch_put_where = launch_put_where,
    .launch_put_str = launch_put_str,
    .launch_put_u64 = launch_put_u64,
    .launch_output_until = launch_output_until,
    .dev = &dev,
    .device_choose = device_choose,
    .device_started_by_mpi = device_started_by_mpi,
    .device_launched = device_launched,
    .bsp = &bsp,
    .bsp_error = bsp_error,
    .bsp_set_call = bsp_set_call,
    .bsp_collective_mismatch = bsp_collective_mismatch,
    .mp_words = &mp_words,
    .mp_error = mp_error,
    .mp_deadlock_line = mp_deadlock_line,
    .mp_sync_stalled = mp_sync_stalled,
    .hs = &hs,
    .host_error = host_error,
    .host_print_line = host_print_line,
    .ek = &ek,
};

/* The folder to look in (above), into dir[cap]. */
static void plugin_folder(char *dir, size_t cap)
{
    const char *set = setting_str(SET_PLUGIN_DIR);
    Dl_info info;
    struct link_map *map = NULL;
    if (set)
        snprintf(dir, cap, "%s", set);
    else if (dladdr1(&services, &info, (void **)&map, RTLD_DL_LINKMAP) && map && map->l_name[0]) {
        const char *slash = strrchr(map->l_name, '/'); /* the main program's l_name is "" */
        if (slash)
            snprintf(dir, cap, "%.*s/superstep", (int)(slash - map->l_name), map->l_name);
        else
            snprintf(dir, cap, "superstep");
    } else
        snprintf(dir, cap, "%s", SUPERSTEP_PLUGIN_DIR_BUILTIN);
}

/* dl_iterate_phdr's callback: whether the program, the first object it
 * reports, names a dynamic loader (PT_INTERP). */
static int program_dynamic(struct dl_phdr_info *info, size_t size, void *dynamic)
{
    (void)size;
    for (size_t i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_INTERP)
            *(bool *)dynamic = true;
    return 1;
}

const struct device_plugin *plugin_load(const char *name, char *why, size_t cap)
{
    /* A static program (bspcc -static) would get a second C library with
     * the plug-in, and libmpi crashes in it. */
    bool dynamic = false;
    dl_iterate_phdr(program_dynamic, &dynamic);
    if (!dynamic) {
        snprintf(why, cap, "cannot load its plug-in into a statically linked program: link it without -static");
        return NULL;
    }
    char dir[PATH_MAX], path[PATH_MAX + 64];
    plugin_folder(dir, sizeof dir);
    snprintf(path, sizeof path, "%s/device-%s.so", dir, name);
    void *h = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
    if (!h) {
        snprintf(why, cap, "cannot load its plug-in: %s", dlerror());
        return NULL;
    }
    const uint32_t *version = dlsym(h, PLUGIN_VERSION_SYMBOL);
    const uint64_t *abi = dlsym(h, PLUGIN_ABI_SYMBOL);
    plugin_entry_fn *entry = (plugin_entry_fn *)dlsym(h, PLUGIN_ENTRY_SYMBOL);
    if (!version || !abi || !entry) {
        snprintf(why, cap, "its plug-in %s is not one (no %s)", path,
                 !version ? PLUGIN_VERSION_SYMBOL : !abi ? PLUGIN_ABI_SYMBOL : PLUGIN_ENTRY_SYMBOL);
        return NULL;
    }
    if (*version != PLUGIN_VERSION) {
        snprintf(why, cap,
                 "its plug-in %s takes version %u of the core's services, this library gives version %u: "
                 "rebuild or reinstall both, or set SUPERSTEP_PLUGIN_DIR",
                 path, (unsigned)*version, (unsigned)PLUGIN_VERSION);
        return NULL;
    }
    if (*abi != PLUGIN_ABI) {
        snprintf(why, cap,
                 "its plug-in %s was built from other sources than this library (interface %llu, the library's %llu): "
                 "rebuild or reinstall both, or set SUPERSTEP_PLUGIN_DIR",
                 path, (unsigned long long)*abi, (unsigned long long)PLUGIN_ABI);
        return NULL;
    }
    return entry(&services);
}

/* The device layer loads through this hook (it sits above this layer). */
__attribute__((constructor)) static void plugin_install(void)
{
    device_plugin_load = plugin_load;
}
