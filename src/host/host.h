/*
 * host.h - the Epiphany BSP host layer's internal interface.
 *
 * The host keeps one session (bsp_begin .. bsp_end) at a time.  Its session
 * segment (see session/session.h) is made at the first call that needs it; the
 * kernel processes exist only inside ebsp_spmd.  Messages sent down wait in
 * private buffers and are copied into the segment when a run starts; what
 * the kernels sent up is indexed when it ends.
 */
#ifndef SUPERSTEP_HOST_H
#define SUPERSTEP_HOST_H

#include "device/device.h"
#include "session/session.h"
#include "segment/segment.h"

#include <stdbool.h>
#include <stdint.h>

enum host_phase { H_NONE, H_INIT, H_BEGUN, H_RUNNING };

struct host_buf {         /* records (struct ebsp_rec) for one processor */
    char *data;
    uint64_t len, cap, count;
};

struct host_state {
    enum host_phase phase;
    char *name;                    /* as given to bsp_init */
    char *path[2];                 /* where to look for it */
    char **kargv;                  /* the kernel's argv; [0] set at each run */
    uint32_t p;
    bool have_seg;
    struct segment seg;            /* the session segment */
    struct ebsp_shared *sh;
    uint32_t tagsize;              /* for messages sent down */
    uint64_t ndown;                /* messages sent down since the last run */
    struct host_buf *down;         /* p */
    bool ran;                      /* a run ended in this session */
    uint64_t *up, nup, capup, uphead, up_bytes_left;   /* offsets of records sent up */
    void (*sync_cb)(void);
    void (*end_cb)(void);
};

extern struct host_state hs;

void host_error(const char *call, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
/* Between bsp_begin and bsp_end (the sync callback included, unless
 * between_runs): otherwise an error naming the call. */
void host_require_session(const char *call, bool between_runs);
struct ebsp_shared *host_segment(const char *call);
uint32_t host_check_pid(const char *call, int pid);

/* Messages (hmsg.c): put the ones sent down in the segment before a run,
 * index the ones sent up after it, free everything at bsp_end. */
void host_msgs_prepare(void);
void host_msgs_collect(void);
void host_msgs_free(void);

/* ebsp_message lines (hprint.c): reset the rings before a run; print
 * what is waiting, in ticket order (final: after the run, when a ticket
 * missing for good is skipped). */
void host_print_reset(void);
void host_print(bool final);

/* Streams (hstream.c): hand every stream back before a run; lay a stream
 * out in the session segment (returns its offset, *nbytes its size). */
void host_streams_prepare(void);
uint64_t host_stream_layout(const char *call, int stream_size, int token_size, const void *initial_data,
                            uint64_t *nbytes);

/* One line of processor pid's ebsp_message output (hprint.c). */
void host_print_line(uint32_t pid, const char *s, uint32_t n);

/* The host on the mpi device (hmpi.c, in the mpi plug-in): is it in use;
 * at bsp_init (ranks other than 0 leave); one run (spawn, serve, take
 * back), 0 when clean, HMPI_RUN_HERE when this MPI cannot start processes
 * and the kernels are to run on this machine instead.  The core reaches
 * them through the plug-in's table (struct device_plugin). */
#define HMPI_RUN_HERE (-1)
struct host_mpi {
    bool (*on)(void);
    void (*init)(void);
    int (*run)(const char *path, char *const argv[]);
};
#ifdef SUPERSTEP_PLUGIN
bool hmpi_on(void);
void hmpi_init(void);
int hmpi_run(const char *path, char *const argv[]);
#else
static inline bool hmpi_on(void)
{
    const struct device_plugin *p = device_plugin();
    return p && p->host->on();
}
static inline void hmpi_init(void) { device_plugin()->host->init(); }
static inline int hmpi_run(const char *path, char *const argv[]) { return device_plugin()->host->run(path, argv); }
#endif
#endif
