/* nested_isolated.c - an inner run (MulticoreBSP's nested runs) has its
 * own registrations, puts, gets, messages and tag size, and the outer run
 * goes on after the inner bsp_end exactly where it was: its registrations,
 * its queue, the put it had queued before the inner run, its tag size and
 * its superstep count are untouched.
 * Every outer processor starts an inner run of Q processors in outer
 * superstep 2, after queueing a put; the inner run registers the same
 * variable the outer run did, puts, gets and sends over it.
 * Usage: nested_isolated Q [step]: with "step", outer processor 1 makes a
 * bad put after the outer run's fourth sync: its line must name outer
 * superstep 4 and no inner run. */
// RUN: n=2 args="2"
// RUN: n=3 args="3"
// RUN: n=2 args="1"
// RUN: n=2 args="2 step" fail="^superstep: bsp_put: processor 1, superstep 4: pid 99 out of range \(nprocs 2\)$"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int q, step_mode;
static int x;            /* registered by both runs, at the same address */
static int y;            /* registered by the inner run only */

static void inner(void)
{
    bsp_begin(q);
    int me = (int)bsp_pid(), p = (int)bsp_nprocs(), next = (me + 1) % p;
    bsp_size_t nmsg = 9, bytes = 9;
    bsp_qsize(&nmsg, &bytes);
    CHECK(nmsg == 0 && bytes == 0, "inner processor %d: %d messages of the outer run in its queue", me, (int)nmsg);
    int ts = 0;
    bsp_set_tagsize(&ts);
    CHECK(ts == 0, "inner processor %d: tag size %d in force, a fresh run has 0", me, ts);
    y = 500 + me;
    bsp_push_reg(&x, sizeof x);
    bsp_push_reg(&y, sizeof y);
    bsp_sync();
    int v = 300 + me, got = -1;
    bsp_put(next, &v, &x, 0, sizeof v);
    bsp_get(next, &y, 0, &got, sizeof got);
    bsp_send(next, NULL, &v, sizeof v);
    bsp_sync();
    int prev = (me + p - 1) % p;
    CHECK(x == 300 + prev, "inner processor %d: x %d, expected %d", me, x, 300 + prev);
    CHECK(got == 500 + next, "inner processor %d: got %d, expected %d", me, got, 500 + next);
    bsp_qsize(&nmsg, &bytes);
    CHECK(nmsg == 1 && bytes == sizeof v, "inner processor %d: %d messages, %d bytes", me, (int)nmsg, (int)bytes);
    int msg = -1;
    bsp_move(&msg, sizeof msg);
    CHECK(msg == 300 + prev, "inner processor %d: message %d", me, msg);
    bsp_pop_reg(&y);
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
}

static void spmd(void)
{
    bsp_begin(bsp_nprocs());
    int me = (int)bsp_pid(), p = (int)bsp_nprocs(), next = (me + 1) % p, prev = (me + p - 1) % p;
    int ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_push_reg(&x, sizeof x);
    bsp_sync(); /* superstep 1 */
    int tag = me, payload = 100 + me;
    bsp_send(next, &tag, &payload, sizeof payload);
    bsp_sync(); /* superstep 2: one message in the queue */
    int v = 1000 + me;
    bsp_put(next, &v, &x, 0, sizeof v); /* queued across the inner run */
    bsp_init(inner, 0, NULL);
    inner();
    bsp_size_t nmsg = 0, bytes = 0;
    bsp_qsize(&nmsg, &bytes);
    CHECK(nmsg == 1 && bytes == sizeof payload, "outer processor %d: queue %d messages %d bytes after the inner run", me,
          (int)nmsg, (int)bytes);
    int status = -1, gtag = -1;
    bsp_get_tag(&status, &gtag);
    CHECK(status == (int)sizeof payload && gtag == prev, "outer processor %d: tag %d status %d", me, gtag, status);
    int msg = -1;
    bsp_move(&msg, sizeof msg);
    CHECK(msg == 100 + prev, "outer processor %d: message %d", me, msg);
    ts = 0;
    bsp_set_tagsize(&ts);
    CHECK(ts == (int)sizeof(int), "outer processor %d: tag size %d after the inner run", me, ts);
    ts = sizeof(int);
    bsp_set_tagsize(&ts);
    bsp_sync(); /* superstep 3: the put queued before the inner run lands */
    CHECK(x == 1000 + prev, "outer processor %d: x %d, expected %d", me, x, 1000 + prev);
    v = 2000 + me;
    bsp_put(next, &v, &x, 0, sizeof v); /* the outer registration still holds */
    bsp_sync(); /* superstep 4 */
    CHECK(x == 2000 + prev, "outer processor %d: x %d, expected %d", me, x, 2000 + prev);
    if (step_mode && me == 1)
        bsp_put(99, &v, &x, 0, sizeof v);
    bsp_pop_reg(&x);
    bsp_sync();
    bsp_end();
}

int main(int argc, char **argv)
{
    q = argc > 1 ? atoi(argv[1]) : 2;
    step_mode = argc > 2 && !strcmp(argv[2], "step");
    bsp_init(spmd, argc, argv);
    spmd();
    return 0;
}
