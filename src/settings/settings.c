/*
 * settings.c - the table of SUPERSTEP_* settings and their one parser.
 */
#include "settings/settings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum kind {
    COUNT, /* a whole number in [min, max] */
    SIZE,  /* bytes: a whole number with an optional K, M, G or T, in [min, max] */
    FLAG,  /* 0 or 1 */
    WORD,  /* one of the words in 'words' */
    TEXT,  /* anything (a path, a command) */
    REAL   /* a decimal number (digits, an optional fraction) in [min, max] */
};

struct row {
    struct setting_info info;
    enum kind kind;
    uint64_t min, max, def;
    const char *const *words;
};

#define KiB(n) ((uint64_t)(n) << 10)
#define MiB(n) ((uint64_t)(n) << 20)
#define GiB(n) ((uint64_t)(n) << 30)
#define TiB(n) ((uint64_t)(n) << 40)

static const char *const devices[] = { "shm", "mpi", "auto", NULL };
static const char *const affinities[] = { "scatter", "compact", "none", NULL };
static const char *const coll_algs[] = { "auto", "1phase", "2phase", "tree", NULL };

/* The default of SUPERSTEP_NPROCS (the number of CPUs) is computed, so the
 * row's 'def' is 0 and setting_num fills it in. */
static const struct row rows[SET_COUNT] = {
    [SET_NPROCS] = { { "SUPERSTEP_NPROCS", "processors (BSPlib, Epiphany host) or nodes (mp.h) to start; bsprun -n sets it",
                       "the number of online CPUs", "a whole number from 1 to 65535" },
                     COUNT, 1, 65535, 0, NULL },
    [SET_SEGMENT_SIZE] = { { "SUPERSTEP_SEGMENT_SIZE", "size of the shared segment reserved for a job (sparse: only what is used takes memory)",
                             "16G", "a size from 64M to 64T: digits with an optional K, M, G or T (powers of 1024)" },
                           SIZE, MiB(64), TiB(64), GiB(16), NULL },
    [SET_DEVICE] = { { "SUPERSTEP_DEVICE", "the device BSPlib programs run on",
                       "auto (mpi under an MPI launcher, else shm)", "shm, mpi or auto" },
                     WORD, 0, 0, 0, devices },
    [SET_DEVICE_MANDATORY] = { { "SUPERSTEP_DEVICE_MANDATORY", "1: a requested device that cannot be used is an error instead of a fallback to shm (bsprun --mandatory)",
                                 "0", "0 or 1" },
                               FLAG, 0, 1, 0, NULL },
    [SET_PROFILE] = { { "SUPERSTEP_PROFILE", "write a Chrome trace of the run to this file (bsprun --profile)",
                        "not set: no profile", "a file name" },
                      TEXT, 0, 0, 0, NULL },
    [SET_NO_DIRECT] = { { "SUPERSTEP_NO_DIRECT", "1: bsp_hpput and bsp_hpget go through the channels instead of process_vm_readv/writev (mpi: instead of straight from memory to memory), and bsp_direct_get fails (on mpi too: no MPI window)",
                          "0", "0 or 1" },
                        FLAG, 0, 1, 0, NULL },
    [SET_LOCAL_MEMORY] = { { "SUPERSTEP_LOCAL_MEMORY", "Epiphany host: bytes of local memory per processor",
                             "32M", "a size from 4K to 64G (rounded up to a multiple of 4K)" },
                           SIZE, KiB(4), GiB(64), MiB(32), NULL },
    [SET_EXT_MEMORY] = { { "SUPERSTEP_EXT_MEMORY", "Epiphany host: bytes of external memory per processor",
                           "64M", "a size from 4K to 64G (rounded up to a multiple of 4K)" },
                         SIZE, KiB(4), GiB(64), MiB(64), NULL },
    [SET_MPI_ONESIDED] = { { "SUPERSTEP_MPI_ONESIDED", "mpi device: 0 sends every stream two-sided; Epiphany kernels send two-sided unless it is set",
                             "1 (one-sided up to the slice size)", "0 or 1" },
                           FLAG, 0, 1, 1, NULL },
    [SET_MPI_WINDOW] = { { "SUPERSTEP_MPI_WINDOW", "mpi device: bytes of one-sided receive window per rank (2P slices, at most 4 MiB each)",
                           "64M", "a size from 0 to 64G" },
                         SIZE, 0, GiB(64), MiB(64), NULL },
    [SET_MPIRUN] = { { "SUPERSTEP_MPIRUN", "the launcher bsprun --device mpi runs",
                       "the build's MPI's launcher, else mpirun", "a command, with options" },
                     TEXT, 0, 0, 0, NULL },
    [SET_PROFILE_STEPS] = { { "SUPERSTEP_PROFILE_STEPS", "supersteps traced slice by slice, from the first; the totals cover all",
                              "1000", "a whole number from 0 to 4294967295" },
                            COUNT, 0, 4294967295u, 1000, NULL },
    [SET_STRICT] = { { "SUPERSTEP_STRICT", "1: in Epiphany BSP kernels the errors upstream survives are fatal, bsp_push_reg sizes bound puts and gets, registrations must match per superstep",
                       "0", "0 or 1" },
                     FLAG, 0, 1, 0, NULL },
    [SET_AFFINITY] = { { "SUPERSTEP_AFFINITY", "shm device: how processors are pinned to CPUs at bsp_begin (mcbsp.h calls override it)",
                         "scatter", "scatter, compact or none" },
                       WORD, 0, 0, 0, affinities },
    [SET_STALL_TIMEOUT] = { { "SUPERSTEP_STALL_TIMEOUT", "seconds processors may wait in a collective call (bsp_sync, bsp_end, ebsp_barrier, ebsp_host_sync, mp_sync) for one still computing before the job stops with a line naming it",
                              "0 (off: wait for ever)", "a whole number of seconds from 0 to 4294967295" },
                            COUNT, 0, 4294967295u, 0, NULL },
    [SET_HP_MOVE_MIN] = { { "SUPERSTEP_HP_MOVE_MIN", "shm device, p >= 2: a registered area with at least this many bytes of whole private anonymous pages (heap, mmap) is moved into the shared segment at the owner's sync after the first bsp_hpput, bsp_hpget or bsp_direct_get of a peer into it, so the later ones reach those pages with memcpy; 0: never move",
                            "256K", "a size from 0 to 64T: digits with an optional K, M, G or T (powers of 1024)" },
                          SIZE, 0, TiB(64), 256 << 10, NULL },
    [SET_SPAWN_TIMEOUT] = { { "SUPERSTEP_SPAWN_TIMEOUT", "mpi device, Epiphany host: seconds ebsp_spmd may wait for MPI_Comm_spawn to start the kernels before the job stops with a line naming the spawn and the limit (Open MPI 4.1 with PMIx 4 hangs in about 1 spawn of 500)",
                              "60", "a whole number of seconds from 0 (no limit) to 4294967295" },
                            COUNT, 0, 4294967295u, 60, NULL },
    [SET_MPIRUN_HANG_TIMEOUT] = { { "SUPERSTEP_MPIRUN_HANG_TIMEOUT", "bsprun --device mpi: after a job's failure (a superstep: line), seconds its mpirun may go on silent with no process of the job left before bsprun ends it (its own child) with a line saying the limit expired (Open MPI 4.1's mpirun hangs in PMIx_server_finalize after a failed job with spawned kernels); a job without a failure is never ended",
                                    "5", "a whole number of seconds from 0 (never kill) to 2000000" },
                                  COUNT, 0, 2000000, 5, NULL },
    [SET_ABORT_TIMEOUT] = { { "SUPERSTEP_ABORT_TIMEOUT", "after a failure, seconds a process waits for another to act on it (mpi device and mp.h over MPI: a failing rank for the rank that prints the job's line to stop the job, or, with MPICH, a rank killed by a signal for its own MPI_Abort; an Epiphany host for its kernels to stop at their next call; a failed kernel for its host to stop the run; a failing rank for its launcher to read its last lines; shm: the job's end for processor 0's profile written at the failure, and a failed job's standard output and error for the output the library writes there: its line, the program's output it flushes) before it says that the limit expired and ends the job (a launcher or MPI whose abort never comes; a kernel that computes on; a host that is stopped or hung; a profile that cannot be written; output to a pipe that nobody reads, then skipped: the exit status says that the job failed)",
                              "30", "a whole number of seconds from 0 (no limit) to 4294967295" },
                            COUNT, 0, 4294967295u, 30, NULL },
    [SET_STOP_GRACE] = { { "SUPERSTEP_STOP_GRACE", "shm device (BSPlib, Epiphany kernels, mp.h): after a job failed, seconds the processors still computing have to come to a Superstep call, where they leave with their output flushed, before they are killed (those already in a call leave at once); 0: kill them at once",
                           "0.5", "a decimal number of seconds from 0 to 1000000" },
                         REAL, 0, 1000000, 0, NULL },
    [SET_MPI_NO_SHARE] = { { "SUPERSTEP_MPI_NO_SHARE", "mpi device, Epiphany kernels: 1: do not share one session segment even when all kernels are on one machine (as on several machines: ebsp_get_direct_address of another kernel is an error)",
                             "0", "0 or 1" },
                           FLAG, 0, 1, 0, NULL },
    [SET_PLUGIN_DIR] = { { "SUPERSTEP_PLUGIN_DIR", "the folder holding the device plug-ins (device-mpi.so), read when the mpi device is chosen",
                           "superstep/ beside libsuperstep.so; for programs linked with libsuperstep.a, the folder compiled into it (PREFIX/lib/superstep when installed)",
                           "a folder" },
                         TEXT, 0, 0, 0, NULL },
    [SET_MACHINE_FILE] = { { "SUPERSTEP_MACHINE_FILE", "the machine parameters cache: bspbench writes its g, l and r there, one line per device and p; bsp_probe, bsc_g, bsc_L, the collectives and the level-1 library read it at first need",
                             "$XDG_CACHE_HOME/superstep/machine, else ~/.cache/superstep/machine", "a file name" },
                           TEXT, 0, 0, 0, NULL },
    [SET_G] = { { "SUPERSTEP_G", "the BSP parameter g the runtime uses, in nanoseconds per byte (then with no cost per message), instead of the cached measurement",
                  "not set: the cache, else 0.5 (shm) or 2 (mpi)", "a decimal number from 0 to 1000000000" },
                REAL, 0, 1000000000u, 0, NULL },
    [SET_L] = { { "SUPERSTEP_L", "the BSP parameter l the runtime uses, in microseconds, instead of the cached measurement",
                  "not set: the cache, else 5 (shm) or 50 (mpi)", "a decimal number from 0 to 1000000000" },
                REAL, 0, 1000000000u, 0, NULL },
    [SET_COLL_ALG] = { { "SUPERSTEP_COLL_ALG", "the variant every collective of bsc.h and bsp_level1.h uses: auto picks the cheapest by the BSP cost model; the others force one where the collective has it",
                         "auto", "auto, 1phase, 2phase or tree" },
                       WORD, 0, 0, 0, coll_algs },
    [SET_MPI_PIECE] = { { "SUPERSTEP_MPI_PIECE", "mp.h over MPI: a message longer than 4072 bytes goes to MPI as its header, then its payload in pieces of at most this many bytes (an MPI count is an int); small pieces let tests send many-piece messages with little memory",
                          "1G", "a size from 64K to 1G: digits with an optional K, M, G or T (powers of 1024)" },
                        SIZE, KiB(64), GiB(1), GiB(1), NULL },
};

const struct setting_info *setting_info(enum setting s)
{
    return (unsigned)s < SET_COUNT ? &rows[s].info : NULL;
}

/* Digits only (no sign, space, exponent), without overflow. */
static bool parse_whole(const char **v, uint64_t *n)
{
    const char *p = *v;
    uint64_t x = 0;
    if (*p < '0' || *p > '9')
        return false;
    for (; *p >= '0' && *p <= '9'; p++) {
        if (x > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
            return false;
        x = x * 10 + (uint64_t)(*p - '0');
    }
    *v = p;
    *n = x;
    return true;
}

static bool parse_size(const char *v, uint64_t *n)
{
    if (!parse_whole(&v, n))
        return false;
    int shift = 0;
    switch (*v) {
    case 0: return true;
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: return false;
    }
    if (v[1] != 0 || *n > (UINT64_MAX >> shift))
        return false;
    *n <<= shift;
    return true;
}

/* Digits with an optional fraction ("12", "0.5", "3."): no sign, no
 * exponent, no space.  *x its value. */
static bool parse_real(const char *v, double *x)
{
    const char *p = v;
    while (*p >= '0' && *p <= '9')
        p++;
    bool whole = p > v;
    if (*p == '.') {
        const char *f = ++p;
        while (*p >= '0' && *p <= '9')
            p++;
        whole = whole || p > f;
    }
    if (!whole || *p)
        return false;
    *x = strtod(v, NULL);
    return true;
}

/* Is the value accepted?  Sets *n for numbers. */
static bool parse(const struct row *r, const char *v, uint64_t *n)
{
    switch (r->kind) {
    case COUNT:
        return parse_whole(&v, n) && *v == 0 && *n >= r->min && *n <= r->max;
    case SIZE:
        return parse_size(v, n) && *n >= r->min && *n <= r->max;
    case FLAG:
        *n = (uint64_t)(v[0] - '0');
        return (v[0] == '0' || v[0] == '1') && v[1] == 0;
    case WORD:
        for (const char *const *w = r->words; *w; w++)
            if (!strcmp(v, *w))
                return true;
        return false;
    case TEXT:
        return true;
    case REAL: {
        double x;
        return parse_real(v, &x) && x >= (double)r->min && x <= (double)r->max;
    }
    }
    return false;
}

/* Under an MPI launcher every rank checks; only rank 0 (or a process that
 * is no rank) prints, so the job says it once. */
static bool quiet_rank(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK" };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v && strcmp(v, "0") != 0)
            return true;
    }
    return false;
}

static void reject(const struct row *r, const char *v) __attribute__((noreturn));
void (*settings_reject_hook)(const char *line);

static void reject(const struct row *r, const char *v)
{
    char line[512];
    snprintf(line, sizeof line, "%s='%.64s'%s is not accepted: expected %s", r->info.name, v,
             strlen(v) > 64 ? "..." : "", r->info.accepted);
    if (settings_reject_hook)
        settings_reject_hook(line);
    if (!quiet_rank()) {
        fflush(stdout);
        fprintf(stderr, "superstep: %s\n", line);
        fflush(stderr);
    }
    exit(1);
}

/* The variable's value, NULL when not set or empty; exits when not accepted. */
static const char *value(enum setting s, uint64_t *n)
{
    const struct row *r = &rows[s];
    const char *v = getenv(r->info.name);
    if (!v || !*v)
        return NULL;
    if (!parse(r, v, n))
        reject(r, v);
    return v;
}

void settings_check(void)
{
    for (int s = 0; s < SET_COUNT; s++) {
        uint64_t n;
        value((enum setting)s, &n);
    }
}

bool setting_given(enum setting s)
{
    uint64_t n;
    return value(s, &n) != NULL;
}

uint64_t setting_num(enum setting s)
{
    uint64_t n = 0;
    if (value(s, &n))
        return n;
    if (s == SET_NPROCS) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        return c < 1 ? 1 : c > 65535 ? 65535 : (uint64_t)c;
    }
    return rows[s].def;
}

const char *setting_str(enum setting s)
{
    uint64_t n;
    return value(s, &n);
}

double setting_real(enum setting s)
{
    uint64_t n;
    const char *v = value(s, &n);
    double x = NAN;
    if (v)
        parse_real(v, &x);
    return x;
}
