/*
 * coll.h - the collectives layer: the machine parameters (cached bspbench
 * measurement, settings, defaults), BSPonMPI's delayed-request engine
 * (bsc.h) and the collective algorithms with their BSP costs, which both
 * bsc.h and the Oxford level-1 library (bsp_level1.h) use.
 *
 * Built on the BSP layer's entry points only (bsp_impl_put, bsp_impl_get,
 * bsp_sync, registrations), so it runs unchanged on every device.
 */
#ifndef SUPERSTEP_COLL_H
#define SUPERSTEP_COLL_H

#include <bsc.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- machine parameters (machine.c) ------------------------------------- */

/* The BSP machine: a superstep in which every processor sends and receives
 * at most h messages of m bytes costs l + h (o + m G) seconds. */
struct machine {
    double l;          /* seconds per superstep */
    double G;          /* seconds per byte of large messages */
    double o;          /* seconds per message beyond its bytes */
    double r;          /* flop/s of one processor (0: unknown) */
    double noise;      /* bspbench's relative residual of the fit (-1: none) */
    enum { FIT_UNKNOWN, FIT_GOOD, FIT_POOR } fit; /* bspbench's judgement */
    uint32_t p;        /* the p measured (0: not measured) */
    char source[256];  /* where l and g come from, in words */
};

/* This process's parameters for p processors on the current device: the
 * settings, else the cache's line for the device and p (else the nearest
 * p), else the defaults.  Read at first need; never negative. */
const struct machine *machine_get(void);
/* Replace them (the collectives share processor 0's, coll_begin). */
void machine_set(const struct machine *m);
/* g for messages of m bytes (at least 1): seconds per byte. */
double machine_g(const struct machine *m, double bytes);
/* p of this run, or what bsp_begin would start. */
uint32_t machine_nprocs(void);

/* The cache file bspbench writes: its path (malloc'd, NULL: none); store
 * m as the line for device and p, replacing an older one unless m's fit is
 * poor and the older one's is not, or is poor with less noise.  Returns 0,
 * EEXIST when it kept the older line, or an errno value. */
char *machine_path(void);
const char *machine_device(void);   /* the current device's name */
int machine_store(const char *device, const struct machine *m);

/* ---- the engine (engine.c) ---------------------------------------------- */

struct group;

/* A local step of an algorithm, run after the communication of its step. */
typedef void (*coll_call_fn)(void *ctx);

/* Queue a put, a get or a local call for step 'step' of the epoch; 'call'
 * names the public call in errors.  Returns step + 1. */
unsigned coll_put(unsigned step, uint32_t pid, const void *src, void *dst, size_t offset, size_t size,
                  const char *call);
unsigned coll_get(unsigned step, uint32_t pid, const void *src, size_t offset, void *dst, size_t size,
                  const char *call);
unsigned coll_call(unsigned step, coll_call_fn fn, void *ctx);
/* A local step run at the start of 'step', before its puts and gets (an
 * algorithm's own values are computed then, not when it is queued). */
unsigned coll_pre(unsigned step, coll_call_fn fn, void *ctx);

/* The library's start in a run: registers its area and makes every
 * processor use processor 0's machine parameters (two supersteps, the
 * first time in a run; nothing later).  Every processor calls it in the
 * same superstep.  'call' names the public call in errors. */
void coll_begin(const char *call);
/* The library area's p words (after coll_begin), and a put of 'value' into
 * processor pid's word for this processor (a plain store for itself). */
uint64_t *coll_words(void);
void coll_word_put(uint32_t pid, uint64_t value, const char *call);
/* Run the queued steps until the epoch's step 'until' in lockstep (one
 * bsp_sync per step); every processor does the same. */
void coll_run(unsigned until);
unsigned coll_now(void);

/* Checks shared by bsc.h and bsp_level1.h: one error line each. */
void coll_check_size(const char *call, const char *what, size_t v);
void coll_check_ptr(const char *call, const char *what, const void *p, size_t size);

/* ---- groups (group.c) --------------------------------------------------- */

/* A group as one member sees it: its members in order, and where this
 * processor's data lands on each (its index in that member's list).
 * Partitions and bsc_all are symmetric (every member lists the same
 * members in the same order); a neighbourhood is not, so only the
 * one-phase algorithms apply to it. */
struct group {
    uint32_t n;          /* members */
    uint32_t *member;    /* their pids, in order */
    uint32_t *at;        /* at[k]: this processor's index in member k's list */
    int32_t *index;      /* pid -> index here, -1: not a member (p entries) */
    bool symmetric;
};
/* The group behind a handle (NULL: every processor). */
const struct group *group_of(const void *handle);

/* ---- algorithms and costs (collectives.c, bcast.c, move.c, reduce.c, scan.c) ---- */

/* The variants of a collective, in the order of its bsc_collective_t. */
enum variant { V_1PHASE, V_2PHASE, V_TREE, V_COUNT };
extern const char *const variant_name[V_COUNT];
/* SUPERSTEP_COLL_ALG: a variant to force, or -1 (auto). */
int variant_forced(void);

/* What a variant costs on this machine for n members and one element of
 * 'bytes' bytes: seconds of communication, and supersteps (each l). */
enum collective { C_BCAST, C_REDUCE, C_ALLREDUCE, C_SCAN, C_MOVE };
struct cost {
    double comm;
    unsigned steps;
};
struct cost coll_cost(enum collective c, enum variant v, uint32_t n, double bytes);
double cost_seconds(struct cost c);
/* The cheapest variant, or SUPERSTEP_COLL_ALG's; one phase for a
 * neighbourhood (not symmetric) and for the data movers. */
enum variant variant_pick(enum collective c, uint32_t n, double bytes, bool symmetric);
/* A table of collectives.c (where SUPERSTEP_COLL_ALG applies). */
bool coll_builtin(const bsc_collective_t *c);

/* Supersteps of a q-ary tree over n members: ceil(log_q n). */
unsigned tree_levels(uint32_t n, uint32_t q);
/* ceil(sqrt(n)): the fan-out of the two-phase (two-level) variants. */
uint32_t two_level_q(uint32_t n);

/* The checks of the public calls: one error line naming the call. */
void coll_check_bcast(const char *call, long long root, bsc_group_t group, const void *src, const void *dst,
                      size_t size);
void coll_check_reduce(const char *call, long long root, bsc_group_t group, const void *src, const void *dst,
                       const void *tmp, bsc_reduce_t reducer, const void *zero, size_t nmemb, size_t size);

/* The algorithms (bsc_coll_alg_t) behind the tables. */
bsc_step_t scatter_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t gather_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t allgather_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t alltoall_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t bcast_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t bcast_tree(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t reduce_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t reduce_2level(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t reduce_tree(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t allreduce_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t allreduce_2level(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t allreduce_tree(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t scan_1phase(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t scan_2level(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);
bsc_step_t scan_tree(bsc_step_t, bsc_pid_t, bsc_group_t, bsc_coll_params_t *, bsc_size_t);

#endif
