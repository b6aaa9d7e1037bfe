/* superstep_barriers.c - the superstep protocol's cost in barriers, read
 * from the barrier's generation counter: one barrier for an empty superstep
 * and for puts, sends and registrations; two as soon as any processor issued
 * a get (or an hp transfer done directly).  Between two of a processor's
 * syncs the generation cannot move: nobody completes a barrier without it. */
// RUN: n=1
// RUN: n=2
// RUN: n=5
// RUN: n=3 env="SUPERSTEP_NO_DIRECT=1"
#include <bsp.h>
#include <stdlib.h>

#include "check.h"
#include "launch/launch.h"

static unsigned barriers_of(void (*superstep)(int, int))
{
    int s = bsp_pid(), p = bsp_nprocs();
    unsigned before = atomic_load(&job.ls->barrier.gen);
    superstep(s, p);
    bsp_sync();
    return atomic_load(&job.ls->barrier.gen) - before;
}

static int cell, other;

static void empty(int s, int p) { (void)s, (void)p; }
static void puts_only(int s, int p) { bsp_put((s + 1) % p, &s, &cell, 0, sizeof s); }
static void sends_only(int s, int p) { bsp_send((s + 1) % p, NULL, &s, sizeof s); }
static void one_get(int s, int p) { if (s == p - 1) bsp_get(0, &cell, 0, &other, sizeof other); }
static void one_hpget(int s, int p) { if (s == 0) bsp_hpget(p - 1, &cell, 0, &other, sizeof other); }
static int hp_source; /* an hp source must live until the sync */
static void one_hpput(int s, int p) { hp_source = s; if (s == 0) bsp_hpput(p - 1, &hp_source, &cell, 0, sizeof s); }
static void registration(int s, int p) { (void)s, (void)p; bsp_push_reg(&other, sizeof other); }

int main(void)
{
    bsp_begin(bsp_nprocs());
    bsp_push_reg(&cell, sizeof cell);
    bsp_sync();
    bool direct = getenv("SUPERSTEP_NO_DIRECT") == NULL;
    CHECK(barriers_of(empty) == 1, "empty superstep: %u barriers", barriers_of(empty));
    unsigned n;
    CHECK((n = barriers_of(puts_only)) == 1, "puts only: %u barriers", n);
    CHECK((n = barriers_of(sends_only)) == 1, "sends only: %u barriers", n);
    CHECK((n = barriers_of(registration)) == 1, "registration: %u barriers", n);
    CHECK((n = barriers_of(one_get)) == 2, "one get on one processor: %u barriers", n);
    CHECK((n = barriers_of(one_hpget)) == 2, "one hpget: %u barriers", n);
    CHECK((n = barriers_of(one_hpput)) == (direct ? 2u : 1u), "one hpput (direct %d): %u barriers", direct, n);
    bsp_end();
    return 0;
}
