/*
 * affinity.c - pinning BSP processors to CPUs, and MulticoreBSP's machine
 * interface (mcbsp.h) that chooses how.
 *
 * Each processor pins itself at bsp_begin, once it knows its id, on the shm
 * device (under mpi, mpirun places the processes).  The CPUs to choose from
 * are those the program was allowed when it first began, less the reserved
 * ones.  Mode: a mcbsp_set_affinity_mode/pinning call, else
 * SUPERSTEP_AFFINITY=compact|scatter|none, else scatter (MulticoreBSP's
 * default, and measured faster than none: bspbench's l on a busy 2-core
 * machine, P=2: 0.3-0.5 us pinned, 300-900 us not; docs/settings.md).
 */
#include "bsp/bsp_impl.h"
#include "settings/settings.h"

#include "mcbsp.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

enum { MODE_UNSET = -1, MODE_NONE = -2 };

/* What the calls of mcbsp.h set; what they leave unset comes from
 * machine.info (machine.c), then from the defaults. */
static struct {
    int mode;                   /* enum mcbsp_affinity_mode, or MODE_* */
    size_t max_threads;         /* 0: not set */
    size_t cores, per_core;     /* 0: not set */
    size_t unused_per_core;
    bool unused_set, numbering_set, reserved_set;
    enum mcbsp_thread_numbering numbering;
    size_t *pinning, npinning;
    size_t *reserved, nreserved;
    int *cpus, ncpus;           /* allowed CPUs, as first seen */
} aff = { .mode = MODE_UNSET, .numbering = CONSECUTIVE };

static size_t *copy_sizes(const size_t *v, size_t n)
{
    if (!v || !n)
        return NULL;
    size_t *c = malloc(n * sizeof *c);
    if (!c)
        bsp_error("mcbsp", "out of memory");
    memcpy(c, v, n * sizeof *c);
    return c;
}

void mcbsp_set_maximum_threads(size_t max) { aff.max_threads = max; }
size_t mcbsp_get_maximum_threads(void) { return (size_t)bsp_impl_nprocs(); }
void mcbsp_set_affinity_mode(enum mcbsp_affinity_mode mode)
{
    if (mode != SCATTER && mode != COMPACT && mode != MANUAL)
        bsp_error("mcbsp_set_affinity_mode", "unknown mode %d (SCATTER, COMPACT or MANUAL)", (int)mode);
    aff.mode = mode;
}

static void allowed_cpus(void);

static int mode_chosen(void);

enum mcbsp_affinity_mode mcbsp_get_affinity_mode(void)
{
    int mode = mode_chosen();
    return mode >= 0 ? (enum mcbsp_affinity_mode)mode : SCATTER;
}

void mcbsp_set_available_cores(size_t num_cores) { aff.cores = num_cores; }
void mcbsp_set_threads_per_core(size_t threads_per_core) { aff.per_core = threads_per_core; }

size_t mcbsp_get_threads_per_core(void)
{
    const struct machine_info *mi = machine_info();
    if (aff.per_core)
        return aff.per_core;
    return mi->threads_per_core_set && mi->threads_per_core ? mi->threads_per_core : 1;
}

void mcbsp_set_unused_threads_per_core(size_t unused)
{
    aff.unused_per_core = unused;
    aff.unused_set = true;
}

size_t mcbsp_get_unused_threads_per_core(void)
{
    const struct machine_info *mi = machine_info();
    return aff.unused_set ? aff.unused_per_core : mi->unused_set ? mi->unused_threads_per_core : 0;
}

void mcbsp_set_thread_numbering(enum mcbsp_thread_numbering numbering)
{
    aff.numbering = numbering;
    aff.numbering_set = true;
}

enum mcbsp_thread_numbering mcbsp_get_thread_numbering(void)
{
    const struct machine_info *mi = machine_info();
    if (aff.numbering_set || !mi->numbering_set)
        return aff.numbering;
    return mi->wrapped ? WRAPPED : CONSECUTIVE;
}

/* A call, else bsprun -n (SUPERSTEP_NPROCS: one processor per core asked
 * for), else machine.info's cores, else the CPUs this program may use. */
size_t mcbsp_get_available_cores(void)
{
    const struct machine_info *mi = machine_info();
    if (aff.cores)
        return aff.cores;
    if (setting_given(SET_NPROCS))
        return (size_t)setting_num(SET_NPROCS);
    if (mi->cores_set && mi->cores)
        return mi->cores;
    allowed_cpus();
    size_t t = mcbsp_get_threads_per_core();
    return ((size_t)aff.ncpus + t - 1) / t;
}

void mcbsp_set_pinning(const size_t *pinning, size_t length)
{
    if (!pinning || !length)
        bsp_error("mcbsp_set_pinning", "no pinning given (NULL or length 0)");
    free(aff.pinning);
    aff.pinning = copy_sizes(pinning, length);
    aff.npinning = length;
    aff.mode = MANUAL;
}

/* The pinning in force: a call's, else machine.info's. */
static const size_t *pinning(size_t *n)
{
    const struct machine_info *mi = machine_info();
    *n = aff.pinning ? aff.npinning : mi->npinning;
    return aff.pinning ? aff.pinning : mi->pinning;
}

size_t *mcbsp_get_pinning(void)
{
    size_t n;
    const size_t *v = pinning(&n);
    return copy_sizes(v, n);
}

void mcbsp_set_reserved_cores(const size_t *reserved, size_t length)
{
    free(aff.reserved);
    aff.reserved = copy_sizes(reserved, length);
    aff.nreserved = aff.reserved ? length : 0;
    aff.reserved_set = true;
}

/* The reserved cores in force: a call's, else machine.info's. */
static const size_t *reserved_list(size_t *n)
{
    const struct machine_info *mi = machine_info();
    *n = aff.reserved_set ? aff.nreserved : mi->nreserved;
    return aff.reserved_set ? aff.reserved : mi->reserved;
}

size_t mcbsp_get_reserved_cores_number(void)
{
    size_t n;
    reserved_list(&n);
    return n;
}

size_t *mcbsp_get_reserved_cores(void)
{
    size_t n;
    const size_t *v = reserved_list(&n);
    return copy_sizes(v, n);
}

/* bsp_nprocs() before bsp_begin: mcbsp_set_maximum_threads, else 0 (the
 * caller's default). */
int64_t affinity_max_threads(void) { return (int64_t)aff.max_threads; }

static bool reserved(int cpu)
{
    size_t n;
    const size_t *v = reserved_list(&n);
    for (size_t i = 0; i < n; i++)
        if (v[i] == (size_t)cpu)
            return true;
    return false;
}

/* The CPUs the program may use, as at the first bsp_begin (later ones run
 * in a processor 0 that is pinned already), less the reserved ones. */
static void allowed_cpus(void)
{
    if (!aff.cpus) {
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) != 0)
            CPU_ZERO(&set);
        aff.cpus = malloc(CPU_SETSIZE * sizeof *aff.cpus);
        if (!aff.cpus)
            bsp_error("bsp_begin", "out of memory");
        for (int c = 0; c < CPU_SETSIZE; c++)
            if (CPU_ISSET(c, &set))
                aff.cpus[aff.ncpus++] = c;
    }
}

/* A call, else SUPERSTEP_AFFINITY, else machine.info (manual only with a
 * pinning), else scatter. */
static int mode_chosen(void)
{
    if (aff.mode != MODE_UNSET)
        return aff.mode;
    const char *v = setting_str(SET_AFFINITY); /* checked by the settings parser */
    if (v && !strcmp(v, "none"))
        return MODE_NONE;
    if (v)
        return !strcmp(v, "compact") ? COMPACT : SCATTER;
    const struct machine_info *mi = machine_info();
    if (mi->affinity_set && (mi->affinity != MANUAL || mi->pinning))
        return mi->affinity;
    return SCATTER;
}

/* Processor s of p: the CPU its mode gives it, or -1 for none. */
static int cpu_for(uint32_t s, uint32_t p, int mode)
{
    if (mode == MANUAL) {
        size_t np;
        const size_t *pin = pinning(&np);
        return pin ? (int)pin[s % np] : -1;
    }
    int list[CPU_SETSIZE], n = 0;
    for (int i = 0; i < aff.ncpus; i++)
        if (!reserved(aff.cpus[i]))
            list[n++] = aff.cpus[i];
    if (!n)
        return -1;
    const struct machine_info *mi = machine_info();
    size_t t = mcbsp_get_threads_per_core();
    size_t c = aff.cores ? aff.cores : mi->cores_set && mi->cores ? mi->cores : (size_t)n / t;
    if (!c)
        c = 1;
    size_t core, hw;
    if (mode == SCATTER && p <= c) {
        core = (size_t)s * c / p, hw = 0;
    } else if (mode == SCATTER) {
        core = s % c, hw = (s / c) % t;
    } else {
        core = (s / t) % c, hw = s % t;
    }
    size_t index = mcbsp_get_thread_numbering() == WRAPPED ? core + hw * c : core * t + hw;
    return list[index % (size_t)n];
}

/* A nested run's processors (copies of a pinned processor) may use every
 * CPU the program was first allowed: they would all share the caller's. */
void affinity_unpin(void)
{
    if (mode_chosen() == MODE_NONE || !aff.cpus || !aff.ncpus)
        return; /* never pinned here */
    cpu_set_t all;
    CPU_ZERO(&all);
    for (int i = 0; i < aff.ncpus; i++)
        CPU_SET(aff.cpus[i], &all);
    sched_setaffinity(0, sizeof all, &all);
}

void affinity_pin(uint32_t s, uint32_t p)
{
    int mode = mode_chosen();
    if (mode == MODE_NONE)
        return;
    allowed_cpus();
    int cpu = cpu_for(s, p, mode);
    if (cpu < 0)
        return;
    if (cpu >= CPU_SETSIZE)
        bsp_error("bsp_begin", "cannot pin processor %u to CPU %d: no such CPU", s, cpu);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0)
        bsp_error("bsp_begin", "cannot pin processor %u to CPU %d: %s", s, cpu, strerror(errno));
}
