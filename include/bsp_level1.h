/*
 * bsp_level1.h - the Oxford BSP toolset's level-1 library: collectives
 * every processor calls together (each synchronises), with the toolset's
 * names, signatures and semantics, linked by bspcc like the rest of
 * Superstep.  Broadcast, fold and scan pick their algorithm by the BSP
 * cost model (bsp_bcast(3) has the formulas).
 *
 *   bsp_bcast   the pid's nbytes at src into every processor's registered dst
 *   bsp_gather  every processor's src into the pid's registered dst, at
 *               offset bsp_pid() * nbytes
 *   bsp_scatter piece bsp_pid() of the pid's registered src into dst
 *   bsp_fold    op over every processor's src, in pid order, into every dst
 *   bsp_scan    op over the src of processors 0..bsp_pid() into dst
 *   op(res, left, right, &nbytes) stores left (+) right in res; the three
 *   never overlap.
 */
#ifndef SUPERSTEP_BSP_LEVEL1_H
#define SUPERSTEP_BSP_LEVEL1_H

#include <bsp.h>

#ifdef __cplusplus
extern "C" {
#define SUPERSTEP_L1_OP void (*)(void *, void *, void *, int *)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 202311L
#define SUPERSTEP_L1_OP void (*)(void *, void *, void *, int *)
#else /* any function of four pointers, as the toolset's programs pass them */
#define SUPERSTEP_L1_OP void (*)()
#endif

void bsp_bcast(int pid, void *src, void *dst, int nbytes);
void bsp_bcast_cpp(int pid, void *src, void *dst, int nbytes, int lineno, char *filename);
void bsp_gather(int pid, void *src, void *dst, int nbytes);
void bsp_scatter(int pid, void *src, void *dst, int nbytes);
void bsp_fold(SUPERSTEP_L1_OP, void *src, void *dst, int nbytes);
void bsp_fold_cpp(SUPERSTEP_L1_OP, void *src, void *dst, int nbytes, int lineno, char *filename);
void bsp_scan(SUPERSTEP_L1_OP, void *src, void *dst, int nbytes);

int bsp_all(int x);
int bsp_any(int x);
int bsp_constantI(int x);
int bsp_sumI(int x);
float bsp_sumR(float x);
double bsp_sumD(double x);
int bsp_sumI_prefix(int x);
float bsp_sumR_prefix(float x);
double bsp_sumD_prefix(double x);
int bsp_productI(int x);
float bsp_productR(float x);
double bsp_productD(double x);
int bsp_productI_prefix(int x);
float bsp_productR_prefix(float x);
double bsp_productD_prefix(double x);
int bsp_minI(int x);
float bsp_minR(float x);
double bsp_minD(double x);
int bsp_maxI(int x);
float bsp_maxR(float x);
double bsp_maxD(double x);
int bsp_minI_prefix(int x);
float bsp_minR_prefix(float x);
double bsp_minD_prefix(double x);
int bsp_maxI_prefix(int x);
float bsp_maxR_prefix(float x);
double bsp_maxD_prefix(double x);
int bsp_sortI(int x);
float bsp_sortR(float x);
double bsp_sortD(double x);
char bsp_sortC(char x);

/* The machine: s in flop/s; l and g (per 8-byte word) in flops; n_1/2 in
 * words.  From the cached bspbench measurement (bsp_probe(3)). */
double bsp_s(void);
double bsp_l(void);
double bsp_g(void);
int bsp_nhalf(void);

/* As the toolset: errors name the caller's file and line. */
#define bsp_bcast(p, s, d, n) bsp_bcast_cpp(p, s, d, n, __LINE__, (char *)__FILE__)
#define bsp_fold(f, s, d, n) bsp_fold_cpp(f, s, d, n, __LINE__, (char *)__FILE__)

#undef SUPERSTEP_L1_OP
#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_BSP_LEVEL1_H */
