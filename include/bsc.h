/*
 * bsc.h - bulk synchronous collectives, source-compatible with BSPonMPI's
 * bsc.h: the same names, types, argument order and semantics.
 *
 * Communication is requested for a later superstep of an *epoch* (step 0,
 * bsc_start, begins after each bsc_sync(bsc_flush)): bsc_put, bsc_get and
 * bsc_exec_reduce take the step they run in and return the step they are
 * complete by; a collective takes the step it starts in and returns the
 * step it is complete by, so collectives given the same step run side by
 * side and one given another's result runs after it.  bsc_sync(until) runs
 * the requests of each step and one bsp_sync per step until step 'until';
 * bsc_sync(bsc_flush) runs until no processor has a request left and every
 * processor is in bsc_sync(bsc_flush), then starts a new epoch.
 *
 * Superstep picks each collective's algorithm (one-phase, two-phase, tree)
 * by its BSP cost w + g h + l per superstep with this machine's g and l
 * (bsc_g, bsc_L; bspbench measures them, see bsp_probe(3)); the cost
 * formulas are in each collective's man page, bsc(3).
 *
 * Differences from BSPonMPI (see docs/compatibility.md):
 *   - the first bsc_sync of a run registers the library's area and makes
 *     two supersteps: every processor makes it in the same superstep;
 *   - bsc_size_t is size_t in every dialect (BSPonMPI: int), so one
 *     library serves the 1998 and the MulticoreBSP dialects alike.
 */
#ifndef SUPERSTEP_BSC_H
#define SUPERSTEP_BSC_H

#include <bsp.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- elementary types ---------------------------------------------------- */

typedef unsigned bsc_step_t;   /* a superstep of the epoch */
typedef size_t bsc_size_t;     /* bytes */
typedef bsp_pid_t bsc_pid_t;   /* a processor */

/* ---- groups ------------------------------------------------------------------ */

typedef void *bsc_group_t;
/* Every processor, in pid order. */
extern const bsc_group_t bsc_all;
/* Collective, synchronising: processors that give the same symbol form one
 * group, in pid order. */
bsc_group_t bsc_group_create_partition(unsigned symbol);
/* Collective, synchronising: this processor's neighbours (itself among
 * them), in the order the collectives use; a neighbour that does not list
 * this processor in turn is left out. */
bsc_group_t bsc_group_create_neighbourhood(bsc_pid_t *neighbours, bsc_size_t size);
void bsc_group_destroy(bsc_group_t group);

/* ---- the machine ----------------------------------------------------------------- */

typedef enum bsc_request { BSC_PUT, BSC_HPPUT, BSC_GET, BSC_HPGET, BSC_SEND, BSC_N_REQUEST_TYPES } bsc_request_t;
/* g: seconds per byte for requests of word_size bytes. */
double bsc_g(bsc_request_t type, int word_size);
/* l: seconds per superstep. */
double bsc_L(bsc_request_t type);

/* ---- delayed requests ----------------------------------------------------------- */

/* The step that ends the epoch (bsc_sync) and the epoch's first step. */
extern const bsc_step_t bsc_flush;
extern const bsc_step_t bsc_start;
bsc_step_t bsc_current(void);
bsc_step_t bsc_sync(bsc_step_t until);

bsc_step_t bsc_put(bsc_step_t depends, bsc_pid_t dst_pid, const void *src, void *dst, bsc_size_t offset,
                   bsc_size_t size);
bsc_step_t bsc_get(bsc_step_t depends, bsc_pid_t src_pid, const void *src, bsc_size_t offset, void *dst,
                   bsc_size_t size);

/* An associative operator: a = a0 (+) xs[0] (+) ... over the 'size' bytes
 * of xs (a prefix array for bsc_scan); a, a0 and xs do not overlap. */
typedef void (*bsc_reduce_t)(void *a, const void *a0, const void *xs, bsc_size_t size);
bsc_step_t bsc_exec_reduce(bsc_step_t depends, bsc_reduce_t reducer, void *a, const void *a0, const void *xs,
                           bsc_size_t size);

/* ---- collectives as sets of algorithms --------------------------------------- */

typedef struct bsc_coll_params {
    const void *src;
    void *dst;
    void *tmp;
    bsc_reduce_t reducer;
    const void *zero;
    bsc_size_t nmemb;
    bsc_size_t size;
} bsc_coll_params_t;

typedef bsc_step_t (*bsc_coll_alg_t)(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, bsc_coll_params_t *set,
                                     bsc_size_t n);
typedef double (*bsc_coll_cost_t)(bsc_group_t group, bsc_coll_params_t *set, bsc_size_t n);
typedef bsc_step_t (*bsc_coll_steps_t)(bsc_group_t group);

#define BSC_MAX_COLL_ALGS 10

typedef struct bsc_collective {
    bsc_coll_alg_t algorithms[BSC_MAX_COLL_ALGS];
    bsc_coll_cost_t costfuncs[BSC_MAX_COLL_ALGS];
    bsc_coll_steps_t maxsteps[BSC_MAX_COLL_ALGS];
    bsc_size_t n_algs;
} bsc_collective_t;

/* Run the cheapest algorithm of 'collective' at step 'depends' (calls with
 * the same step, collective, root and group are run as one set). */
bsc_step_t bsc_collective(bsc_step_t depends, const bsc_collective_t *collective, bsc_pid_t root,
                          bsc_group_t group, bsc_coll_params_t params);

/* ---- the collectives --------------------------------------------------------------- */

bsc_step_t bsc_scatter(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, const void *src, void *dst,
                       bsc_size_t size);
bsc_step_t bsc_gather(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src, void *dst,
                      bsc_size_t size);
bsc_step_t bsc_allgather(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, bsc_size_t size);
bsc_step_t bsc_alltoall(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, bsc_size_t size);
bsc_step_t bsc_bcast(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src, void *dst,
                     bsc_size_t size);
bsc_step_t bsc_reduce(bsc_step_t depends, bsc_pid_t root, bsc_group_t group, const void *src, void *dst,
                      void *tmp_space, bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb, bsc_size_t size);
bsc_step_t bsc_allreduce(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, void *tmp_space,
                         bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb, bsc_size_t size);
bsc_step_t bsc_scan(bsc_step_t depends, bsc_group_t group, const void *src, void *dst, void *tmp_space,
                    bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb, bsc_size_t size);

extern const bsc_collective_t *const bsc_coll_scatter;
extern const bsc_collective_t *const bsc_coll_gather;
extern const bsc_collective_t *const bsc_coll_allgather;
extern const bsc_collective_t *const bsc_coll_alltoall;
extern const bsc_collective_t *const bsc_coll_bcast;
extern const bsc_collective_t *const bsc_coll_reduce;
extern const bsc_collective_t *const bsc_coll_allreduce;
extern const bsc_collective_t *const bsc_coll_scan;

/* ---- single algorithms (BSPonMPI's library has them; its tests call them) ---- */

/* Broadcast in two phases: scatter, then all-gather (two supersteps). */
bsc_step_t bsc_bcast_2phase(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, bsc_coll_params_t *params,
                            bsc_size_t n);
/* On a q-ary tree: ceil(log_q p) supersteps (q >= 2). */
bsc_step_t bsc_bcast_qtree_single(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src,
                                  void *dst, bsc_size_t size, bsc_pid_t q);
bsc_step_t bsc_reduce_qtree_single(bsc_step_t depends, bsp_pid_t root, bsc_group_t group, const void *src,
                                   void *dst, void *tmp_space, bsc_reduce_t reducer, const void *zero,
                                   bsc_size_t nmemb, bsc_size_t size, bsc_pid_t q);
bsc_step_t bsc_allreduce_qtree_single(bsc_step_t depends, bsc_group_t group, const void *src, void *dst,
                                      void *tmp_space, bsc_reduce_t reducer, const void *zero,
                                      bsc_size_t nmemb, bsc_size_t size, bsc_pid_t q);
bsc_step_t bsc_scan_qtree_single(bsc_step_t depends, bsc_group_t group, const void *src, void *dst,
                                 void *tmp_space, bsc_reduce_t reducer, const void *zero, bsc_size_t nmemb,
                                 bsc_size_t size, bsc_pid_t q);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_BSC_H */
