/* thread_start.c - a job started from a thread other than main.
 *   join:     a thread runs bsp_begin .. bsp_end and returns; main joins it
 *             and goes on: what main prints after the join appears, and its
 *             exit status is the program's (a fork keeps only the calling
 *             thread, so such a process must stay processor 0 itself);
 *   handoff:  the thread that called bsp_begin hands the rest of the job to
 *             another thread of processor 0 and ends (pthread_exit) at
 *             once: the other processors were forked by that thread, and
 *             PR_SET_PDEATHSIG fires when the forking *thread* ends, so they
 *             must not be killed by its end; the job completes;
 *   main_handoff: as handoff, but main itself calls bsp_begin (a process
 *             with one thread then: processor 0 is the supervisor's
 *             worker) and ends with pthread_exit; the thread that finishes
 *             the job prints the verdict;
 *   mp:       as join, for mp.h (mp_start .. mp_quit in a thread).
 * Each job moves data through a few supersteps and checks it.
 * Usage: thread_start MODE [STATUS]  (main returns STATUS, printing its
 * line on stderr; default 0, the line on stdout) */
// RUN: n=3 args="join" out="^main after the job: ok$"
// RUN: n=1 args="join" out="^main after the job: ok$"
// RUN: n=3 args="join 7" fail="^main after the job: ok, exiting with 7$"
// RUN: n=3 args="handoff" out="^main after the job: ok$"
// RUN: n=2 args="handoff" out="^main after the job: ok$"
// RUN: n=3 args="main_handoff" out="^the job's last thread: ok$"
// RUN: n=3 args="mp" out="^main after the job: ok$"
#include <bsp.h>
#include <mp.h>

#include "check.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int ok;                     /* processor 0's verdict, read by main */
static pthread_t runner;           /* handoff: the thread that finishes the job */

/* A few supersteps: each processor puts its id into its right neighbour. */
static void body(void)
{
    int p = bsp_nprocs(), s = bsp_pid();
    int got[4] = { -1, -1, -1, -1 };
    bsp_push_reg(got, sizeof got);
    bsp_sync();
    for (int step = 0; step < 4; step++) {
        int v = s * 10 + step;
        bsp_put((s + 1) % p, &v, got, step * (int)sizeof v, sizeof v);
        struct timespec ts = { 0, 20 * 1000000 }; /* the starting thread has ended meanwhile (handoff) */
        nanosleep(&ts, NULL);
        bsp_sync();
    }
    int left = (s + p - 1) % p;
    for (int step = 0; step < 4; step++)
        CHECK(got[step] == left * 10 + step, "processor %d: got[%d] = %d", s, step, got[step]);
    bsp_pop_reg(got);
    bsp_sync();
    if (s == 0)
        ok = 1;
    bsp_end();
}

static void *start_join(void *arg)
{
    (void)arg;
    bsp_begin(bsp_nprocs());
    body();
    return NULL;
}

static void *finish(void *arg)
{
    (void)arg;
    body();
    return NULL;
}

static void *start_handoff(void *arg)
{
    (void)arg;
    bsp_begin(bsp_nprocs());
    if (bsp_pid() != 0) { /* the others are single-threaded copies of this thread */
        body();
        return NULL;
    }
    CHECK(pthread_create(&runner, NULL, finish, NULL) == 0, "pthread_create");
    pthread_exit(NULL); /* before the job has done anything */
}

static void *finish_and_say(void *arg)
{
    (void)arg;
    body();
    printf("the job's last thread: %s\n", ok ? "ok" : "no verdict");
    return NULL; /* the process's last thread: it exits with status 0 */
}

static void *start_mp(void *arg)
{
    (void)arg;
    CHECK(mp_start(NULL, NULL) && mp_sync(), "mp_start");
    int n = mp_npes(), me = mp_this_pe();
    int v = me * 100, got = 0, tag, from;
    CHECK(mp_send(me % n + 1, 5, &v, sizeof v), "node %d: mp_send", me);
    size_t len = mp_recv(sizeof got, &got, &tag, &from);
    CHECK(len == sizeof got && tag == 5 && from == (me == 1 ? n : me - 1) && got == from * 100,
          "node %d: got %d from %d", me, got, from);
    CHECK(mp_sync(), "node %d: mp_sync", me); /* every node has its message before node 1 quits */
    if (mp_is_main()) {
        CHECK(mp_quit(0), "mp_quit");
        ok = 1;
        return NULL;
    }
    len = mp_recv(sizeof got, &got, &tag, &from);
    CHECK(len == 0 && tag == MP_QUIT, "node %d: expected the quit notice", me);
    mp_quit(0);
    return NULL; /* the node's only thread: the process ends with status 0 */
}

int main(int argc, char **argv)
{
    CHECK(argc >= 2, "usage: thread_start MODE [STATUS]");
    if (!strcmp(argv[1], "main_handoff")) {
        bsp_begin(bsp_nprocs());
        if (bsp_pid() != 0) {
            body();
            return 0;
        }
        CHECK(pthread_create(&runner, NULL, finish_and_say, NULL) == 0, "pthread_create");
        pthread_exit(NULL);
    }
    void *(*start)(void *) = !strcmp(argv[1], "join") ? start_join
                             : !strcmp(argv[1], "handoff") ? start_handoff
                             : !strcmp(argv[1], "mp") ? start_mp : NULL;
    CHECK(start, "unknown mode %s", argv[1]);
    pthread_t t;
    CHECK(pthread_create(&t, NULL, start, NULL) == 0, "pthread_create");
    CHECK(pthread_join(t, NULL) == 0, "pthread_join");
    if (!strcmp(argv[1], "handoff"))
        CHECK(pthread_join(runner, NULL) == 0, "pthread_join runner");
    if (argc > 2) { /* the status is main's: a non-zero one, with its line on stderr */
        fprintf(stderr, "main after the job: %s, exiting with %s\n", ok ? "ok" : "no verdict", argv[2]);
        return atoi(argv[2]);
    }
    printf("main after the job: %s\n", ok ? "ok" : "no verdict");
    return 0;
}
