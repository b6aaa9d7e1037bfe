/* nested_moved.c - an inner run (MulticoreBSP's nested runs) started by a
 * processor whose registered area the outer run moved into its shared
 * segment (a peer's hp transfer asked for it, mirror.c): the inner run's
 * processors, forks of that processor, see the area's contents.  The fork
 * gives them private copies read from the segment the area was moved into,
 * the outer run's, not the inner run's (which launch_nest_enter has made
 * job.seg by then: the copies held zeros, no line, exit 0).  The inner
 * processors write their copy, and the outer processor's own area keeps
 * its contents and stays moved.
 * Usage: nested_moved Q (processors of the inner run). */
// RUN: n=2 args="2" nompi="moves pages on shm only"
// RUN: n=3 args="3" nompi="moves pages on shm only"
#include <bsp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "in_segment.h"

#define N ((size_t)1 << 20)

static int q;
static unsigned char *area;

static unsigned char val(size_t i)
{
    return (unsigned char)(i * 131 + (i >> 12) * 7 + 1);
}

static void inner(void)
{
    bsp_begin(q);
    int me = (int)bsp_pid();
    for (size_t i = 0; i < N; i++)
        CHECK(area[i] == val(i), "inner processor %d: byte %zu of the outer run's moved area is %u, expected %u", me, i,
              area[i], val(i));
    bsp_sync();
    if (me != 0)
        memset(area, 0xee, N); /* a private copy: the outer processor's area keeps its contents */
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    q = argc > 1 ? atoi(argv[1]) : 2;
    bsp_begin(bsp_nprocs());
    int s = (int)bsp_pid(), p = (int)bsp_nprocs();
    area = malloc(N);
    CHECK(area, "out of memory");
    for (size_t i = 0; i < N; i++)
        area[i] = val(i);
    bsp_push_reg(area, N);
    bsp_sync();
    unsigned char probe[8];
    bsp_hpget((s + 1) % p, area, 0, probe, sizeof probe); /* asks the owner to move it */
    bsp_sync();
    bsp_sync();
    CHECK(in_segment(area + N / 2), "processor %d: the area did not move (the test needs the lazy move)", s);
    bsp_init(inner, argc, argv);
    inner();
    CHECK(in_segment(area + N / 2), "processor %d: the area is no longer moved after the inner run", s);
    for (size_t i = 0; i < N; i++)
        CHECK(area[i] == val(i), "processor %d: byte %zu of its area is %u after the inner run, expected %u", s, i,
              area[i], val(i));
    bsp_sync();
    bsp_end();
    return 0;
}
