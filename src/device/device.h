/*
 * device.h - what a superstep needs from the machine that carries it.
 *
 * The BSP layer encodes its traffic as one byte stream per destination and
 * asks a device to deliver them: 'write' appends to the stream towards a
 * processor; 'exchange' ends a phase (every processor calls it, it acts as
 * a barrier and sums the callers' flags); after it, 'incoming' says how many
 * bytes each source sent before the exchange, and 'peek'/'consume' (or
 * 'scan', which reads without consuming) take them.  Devices: shm (local
 * processes and the shared segment), built in, and mpi, a plug-in loaded
 * when it is chosen (src/mpi, loaded by src/plugin).
 */
#ifndef SUPERSTEP_DEVICE_H
#define SUPERSTEP_DEVICE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

/* Fields of an exchange's sum (each 16 bits; field 0 counts callers). */
enum { XF_COUNT = 0, XF_SLOW = 1, XF_END = 2, XF_REGS = 3 };
#define XFLAG(f) (1ull << (16 * (f)))
#define XGET(sum, f) (((sum) >> (16 * (f))) & 0xffff)

struct segment;
struct late_watch;
struct counted_word;

/* Contiguous free room at the end of the stream towards one destination,
 * which the caller may fill directly: advancing 'at' appends the bytes to the
 * stream.  The device keeps each window valid until the caller's next device
 * call, and takes in what was appended at every call. */
struct stream_window {
    char *at, *end;
};

struct device {
    const char *name;
    /* Start the job's processors; returns this processor's id in *me.
     * 'setup' lays out the caller's tables in a fresh segment first. */
    int (*begin)(uint32_t nprocs, uint32_t *me, void (*setup)(struct segment *));
    /* End this processor's part of the job (after a final exchange). */
    void (*end)(void);
    bool (*write)(uint32_t dst, const void *buf, size_t n);
    /* Claim contiguous room for n bytes at the end of the stream towards
     * dst and return it for the caller to fill before the next exchange;
     * NULL when there is none (then use write).  For small records. */
    void *(*claim)(uint32_t dst, size_t n);
    /* One window per destination, or NULL when the device has none. */
    struct stream_window *windows;
    uint64_t (*exchange)(uint64_t flags);
    /* SUPERSTEP_STALL_TIMEOUT's watch over the waits in exchange and
     * 'meet' (not begin's), set by the BSP layer at each bsp_begin, before
     * 'begin' (src/bsp/stall.c); NULL: none. */
    const struct late_watch *late;
    uint64_t (*incoming)(uint32_t src);
    const void *(*peek)(uint32_t src, uint64_t limit, size_t *len);
    void (*consume)(uint32_t src, size_t n);
    /* Pre-scan of what incoming() reported, without consuming it. */
    void (*scan_begin)(uint32_t src);
    void (*scan_read)(uint32_t src, void *buf, size_t n);
    void (*scan_skip)(uint32_t src, uint64_t n);
    /* Direct transfers into / out of another processor's memory (hpput,
     * hpget): 'direct', done at the call (shm); 'direct_at_sync', queued by
     * the call and done in the next exchange (mpi), so only between a
     * sync's exchanges, and only from 'direct_min' bytes.  Neither: the
     * caller falls back to the streams. */
    bool direct, direct_at_sync;
    uint64_t direct_min;
    bool (*direct_write)(uint32_t dst, const struct iovec *local, const struct iovec *remote, size_t n);
    bool (*direct_read)(uint32_t src, const struct iovec *local, const struct iovec *remote, size_t n);
    /* Where peers' registered memory is read through the device, not
     * mapped (mpi: MPI one-sided reads; bsp_direct_get); NULL on shm.
     * 'expose' and 'withdraw': the areas a sync registers and pops, at that
     * sync (no peer reads this processor's memory until it has applied the
     * sync).  'remote_read': n bytes at processor src's address 'at', once
     * src has applied superstep 'step' (its 'applied' word); false with the
     * reason in why[cap] when the device cannot. */
    void (*expose)(const void *addr, uint64_t size);
    void (*withdraw)(const void *addr, uint64_t size);
    bool (*remote_read)(uint32_t src, void *dst, uint64_t at, uint64_t n, uint32_t step, char *why, size_t cap);
    /* This processor's 'applied' word (the superstep whose sync it has
     * applied) where peers read it through the device; NULL: in the
     * segment (struct bsp_proc). */
    struct counted_word *applied;
    /* Every processor maps the job's segment and peers' direct transfers
     * reach a range of it by memcpy (shm): the BSP layer may then move
     * registered areas into the segment (src/bsp/mirror.c). */
    bool segment_shared;
    /* Epiphany hosts: start nprocs copies of the executable 'path' on a
     * fresh job ('setup' as for begin), the caller staying outside it, and
     * return at once; spawn_wait waits until every one has ended, releases
     * the job and returns 0 when all ended cleanly, else the exit status. */
    int (*spawn)(uint32_t nprocs, const char *path, char *const argv[], void (*setup)(struct segment *));
    int (*spawn_wait)(void);
    /* Devices whose processors are all started from outside (mpirun):
     * the job's size and this processor's id, before begin; NULL where the
     * device starts them at begin (shm forks them). */
    bool (*world)(uint32_t *nprocs, uint32_t *me);
    /* Where peers cannot read the segment (mpi): make every processor's n
     * bytes at base + pid * n visible to all (collective).  NULL on shm. */
    void (*share)(void *base, size_t n);
    /* Where every processor runs main (mpi): the processor count that
     * processor 0 passed to bsp_begin, returned on every processor (the
     * others may have entered bsp_begin from bsp_init's spmd without it).
     * A count processor 0 cannot start comes back unchanged, for bsp_begin
     * to report.  NULL on shm. */
    int64_t (*agree)(int64_t nprocs);
    /* Where the exchange is a blocking collective (mpi): only its first
     * round, flags and no data (what is queued stays queued), so that
     * another collective call (an Epiphany kernel's ebsp_host_sync) meets
     * bsp_sync and bsp_end there and a mismatch shows on both sides.
     * Returns the sum of the flags; *other is the lowest processor whose
     * flags differ from 'flags' (nprocs when none), *theirs its flags.
     * NULL on shm. */
    uint64_t (*meet)(uint64_t flags, uint32_t *other, uint64_t *theirs);
    /* Nested runs (shm): set the running job's state of this device aside,
     * leaving the device fresh for an inner job, and give it back after
     * the inner job ended; NULL where the inner job needs nothing saved. */
    void *(*nest_save)(void);
    void (*nest_restore)(void *saved);
};

extern struct device device_shm;

/* The device in use (chosen at bsp_begin).  Hidden: the library's -fPIC
 * code reaches it without the GOT. */
extern struct device *dev __attribute__((visibility("hidden")));

/* Choose the device on first use (SUPERSTEP_DEVICE, select.c), set dev,
 * and return it; later calls return the same. */
struct device *device_choose(void);

/* What a device plug-in gives (src/mpi/plugin.h): the device, and the parts of
 * the layers above that depend on the same library: mp.h's transport
 * (mp_impl.h), the Epiphany host's and kernel's sides (host.h, ebsp_mpi.h). */
struct mp_transport;
struct host_mpi;
struct kernel_mpi;
struct device_plugin {
    struct device *device;
    const struct mp_transport *mp;
    const struct host_mpi *host;
    const struct kernel_mpi *kernel;
    /* Every way out of a process that may be a processor of this device
     * (an on_exit handler): select.c calls it from a handler registered
     * when the program starts, so that it runs after the program's own. */
    void (*at_exit)(int status, void *arg);
};

#ifdef SUPERSTEP_PLUGIN /* the mpi plug-in's device and exit handler (mpi.c) */
extern struct device device_mpi;
void mpi_on_exit(int status, void *arg);
#endif

/* Choose the device (device_choose); the plug-in it came from, or NULL
 * when it is built in (shm). */
const struct device_plugin *device_plugin(void);

/* Load the plug-in of device 'name'; NULL with the reason in why[cap] when
 * it cannot be loaded.  Set by src/plugin (a lower layer) at start. */
extern const struct device_plugin *(*device_plugin_load)(const char *name, char *why, size_t cap);

/* Was this process started by an MPI launcher (mpirun, srun)? */
bool device_started_by_mpi(void);

/* How many processes the launcher started, and this one's rank among them
 * (rank may be NULL), as its environment says: 1 and 0 when it says
 * nothing. */
long device_launched(long *rank);

#endif
