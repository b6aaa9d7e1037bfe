/*
 * elib.c - the CPU-meaningful part of the Epiphany SDK's e-lib (e-lib.h):
 * core ids and coordinates from the processor id, and the two count-down
 * timers from the monotonic clock (600 MHz cycles, the E16's).
 */
#include <e-lib.h>

#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "ebsp/ebsp.h"

#define CHIP_ROW 32u /* where the E16's first core sits on the chip */
#define CHIP_COL 8u

e_group_config_t e_group_config;

/* ---- cores ------------------------------------------------------------------ */

static unsigned group_cols(void)
{
    unsigned w = 1;
    while (w * w < bsp.p)
        w++;
    return w;
}

/* Fill e_group_config for this processor (at bsp_begin). */
void elib_begin(void)
{
    unsigned w = group_cols();
    e_group_config = (e_group_config_t){ CHIP_ROW, CHIP_COL, (bsp.p + w - 1) / w, w, bsp.me / w, bsp.me % w };
}

e_coreid_t e_get_coreid(void)
{
    ebsp_require_begun("e_get_coreid");
    return e_coreid_from_coords(CHIP_ROW + e_group_config.core_row, CHIP_COL + e_group_config.core_col);
}

void e_coords_from_coreid(e_coreid_t coreid, unsigned *row, unsigned *col)
{
    if (!row || !col)
        bsp_error("e_coords_from_coreid", "NULL %s pointer", row ? "col" : "row");
    *row = (coreid >> 6) & 0x3f;
    *col = coreid & 0x3f;
}

e_coreid_t e_coreid_from_coords(unsigned row, unsigned col)
{
    if (row > 0x3f || col > 0x3f)
        bsp_error("e_coreid_from_coords", "row %u, column %u out of range (0..63)", row, col);
    return (row << 6) | col;
}

/* ---- timers ----------------------------------------------------------------- */

static struct ctimer {
    unsigned value;     /* when stopped; at 'since' when running */
    int64_t since;      /* running since (ns); 0: stopped */
} ctimer[2];

static struct ctimer *timer_of(const char *call, e_ctimer_id_t t)
{
    if ((unsigned)t > 1)
        bsp_error(call, "timer %d does not exist (E_CTIMER_0 or E_CTIMER_1)", (int)t);
    return &ctimer[t];
}

static unsigned value_now(const struct ctimer *c)
{
    if (!c->since)
        return c->value;
    uint64_t cycles = (uint64_t)(now_ns() - c->since) * 3 / 5; /* 600 MHz */
    return cycles >= c->value ? 0 : c->value - (unsigned)cycles;
}

unsigned e_ctimer_set(e_ctimer_id_t timer, unsigned val)
{
    struct ctimer *c = timer_of("e_ctimer_set", timer);
    c->value = val;
    if (c->since)
        c->since = now_ns();
    return val;
}

unsigned e_ctimer_get(e_ctimer_id_t timer)
{
    return value_now(timer_of("e_ctimer_get", timer));
}

unsigned e_ctimer_stop(e_ctimer_id_t timer)
{
    struct ctimer *c = timer_of("e_ctimer_stop", timer);
    c->value = value_now(c);
    c->since = 0;
    return c->value;
}

unsigned e_ctimer_start(e_ctimer_id_t timer, e_ctimer_config_t config)
{
    struct ctimer *c = timer_of("e_ctimer_start", timer);
    if (config == E_CTIMER_OFF)
        return e_ctimer_stop(timer);
    if (config != E_CTIMER_CLK)
        bsp_error("e_ctimer_start", "timer event 0x%x counts Epiphany hardware events, which a CPU does not have "
                  "(only E_CTIMER_CLK and E_CTIMER_OFF)", (unsigned)config);
    c->value = value_now(c);
    c->since = now_ns();
    return c->value;
}

void e_wait(e_ctimer_id_t timer, unsigned clicks)
{
    e_ctimer_stop(timer);
    e_ctimer_set(timer, clicks);
    e_ctimer_start(timer, E_CTIMER_CLK);
    while (e_ctimer_get(timer))
        ;
    e_ctimer_stop(timer);
}
