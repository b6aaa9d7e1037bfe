/*
 * ebsp_mpi.h - an Epiphany kernel on the mpi device (kmpi.c): its side of
 * the protocol of session/session_mpi.h.
 */
#ifndef SUPERSTEP_EBSP_MPI_H
#define SUPERSTEP_EBSP_MPI_H

#include "device/device.h"

#include <stdbool.h>
#include <stdint.h>

/* The kernel's side (kmpi.c, in the mpi plug-in), which the core reaches
 * through the plug-in's table (struct device_plugin): without the mpi
 * device no kernel is spawned, and only kmpi_spawned is called. */
struct kernel_mpi {
    bool (*spawned)(void);
    int (*begin)(void);
    void (*line)(const char *text, uint32_t len);
    void (*host_sync)(void);
    void (*end)(void);
    void (*abort)(void) __attribute__((noreturn));
};
#ifdef SUPERSTEP_PLUGIN
bool kmpi_spawned(void);          /* started by a host's ebsp_spmd on mpi */
int kmpi_begin(void);             /* receive the session; returns p */
void kmpi_line(const char *text, uint32_t len);
void kmpi_host_sync(void);
void kmpi_end(void);
void kmpi_abort(void) __attribute__((noreturn));
#else
static inline bool kmpi_spawned(void)
{
    const struct device_plugin *p = device_plugin();
    return p && p->kernel->spawned();
}
static inline int kmpi_begin(void) { return device_plugin()->kernel->begin(); }
static inline void kmpi_line(const char *text, uint32_t len) { device_plugin()->kernel->line(text, len); }
static inline void kmpi_host_sync(void) { device_plugin()->kernel->host_sync(); }
static inline void kmpi_end(void) { device_plugin()->kernel->end(); }
static inline __attribute__((noreturn)) void kmpi_abort(void) { device_plugin()->kernel->abort(); }
#endif

#endif
