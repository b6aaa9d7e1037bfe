/*
 * e-lib.h - the part of the Epiphany SDK's core library (e-lib) that has a
 * meaning on a CPU, for Epiphany BSP kernels (e_bsp.h) run by Superstep.
 *
 * A kernel that includes <e-lib.h> and uses only what is here builds and
 * behaves as on the board.  Everything else of e-lib (DMA registers,
 * interrupts, mutexes in core memory, the memory-mapped registers) is about
 * the Epiphany hardware and is not declared: a program that uses it fails
 * to compile, naming the call, instead of running something that pretends.
 *
 * Cores.  Processor s of p is the core at row s / w, column s % w of a
 * w-column group (w = the smallest w with w * w >= p: 4 x 4 for 16, as on
 * the board's E16), placed like the E16 at chip row 32, column 8: its core
 * id is ((32 + row) << 6) | (8 + column).  Valid between bsp_begin and
 * bsp_end.
 *
 * Timers.  Each processor has two count-down timers, E_CTIMER_0 and
 * E_CTIMER_1, of a 600 MHz clock (the E16's): e_ctimer_set loads a value,
 * e_ctimer_start(t, E_CTIMER_CLK) makes it count down one per cycle,
 * e_ctimer_get reads it (0 once it has run out), e_ctimer_stop freezes it.
 * Only E_CTIMER_CLK counts something here; starting a timer on another
 * event (stalls, instruction counts) is an error.
 */
#ifndef SUPERSTEP_E_LIB_H
#define SUPERSTEP_E_LIB_H

#ifdef __cplusplus
extern "C" {
#endif

typedef unsigned int e_coreid_t;

/* The group the kernel runs on (e-lib's e_group_config): its size in rows
 * and columns, and this core's row and column in it. */
typedef struct {
    unsigned group_row, group_col;    /* the group's first core on the chip */
    unsigned group_rows, group_cols;
    unsigned core_row, core_col;      /* this core, within the group */
} e_group_config_t;

extern e_group_config_t e_group_config;

/* This core's id (see the top of this file). */
e_coreid_t e_get_coreid(void);

/* The chip row and column of a core id, and back. */
void e_coords_from_coreid(e_coreid_t coreid, unsigned *row, unsigned *col);
e_coreid_t e_coreid_from_coords(unsigned row, unsigned col);

/* ---- timers --------------------------------------------------------------- */

typedef enum { E_CTIMER_0 = 0, E_CTIMER_1 = 1 } e_ctimer_id_t;

typedef enum {
    E_CTIMER_OFF = 0x0,
    E_CTIMER_CLK = 0x1,
    E_CTIMER_IDLE = 0x2,
    E_CTIMER_IALU_INST = 0x4,
    E_CTIMER_FPU_INST = 0x5,
    E_CTIMER_DUAL_INST = 0x6,
    E_CTIMER_E1_STALLS = 0x7,
    E_CTIMER_RA_STALLS = 0x8,
    E_CTIMER_EXT_FETCH_STALLS = 0xc,
    E_CTIMER_EXT_LOAD_STALLS = 0xd
} e_ctimer_config_t;

#define E_CTIMER_MAX (~0u)

/* Load 'val' into the timer; returns it. */
unsigned e_ctimer_set(e_ctimer_id_t timer, unsigned val);

/* The timer's value now. */
unsigned e_ctimer_get(e_ctimer_id_t timer);

/* Start counting: E_CTIMER_CLK (count down per cycle) or E_CTIMER_OFF
 * (stop); returns the value. */
unsigned e_ctimer_start(e_ctimer_id_t timer, e_ctimer_config_t config);

/* Stop counting; returns the value. */
unsigned e_ctimer_stop(e_ctimer_id_t timer);

/* Wait 'clicks' cycles of the 600 MHz clock (the timer is used up, as on
 * the board). */
void e_wait(e_ctimer_id_t timer, unsigned clicks);

#ifdef __cplusplus
}
#endif

#endif /* SUPERSTEP_E_LIB_H */
