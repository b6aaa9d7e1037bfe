/* errors.c - every error path of mp.h: one line naming the call, the node
 * and the bad value; every node stops; exit status non-zero; nothing left.
 * Usage: errors MODE  (the modes are listed in main) */
// RUN: n=4 args="badnode" fail="^superstep: mp_send: node 2: node 5 out of range \(nodes 1\.\.4\)"
// RUN: n=3 args="badnode0" fail="^superstep: mp_send: node 3: node 0 out of range \(nodes 1\.\.3\)"
// RUN: n=3 args="badfrom" fail="^superstep: mp_recv_from: node 1: node -2 out of range \(nodes 1\.\.3, or MP_ANY\)"
// RUN: n=2 args="nulldata" fail="^superstep: mp_send: node 2: NULL data with length 8"
// RUN: n=2 args="nullbuf" fail="^superstep: mp_recv: node 1: NULL buffer with maxlength 16"
// RUN: n=2 args="toolong" fail="^superstep: mp_recv: node 2: message of 100 bytes from node 1 \(tag 7\) is longer than maxlength 10"
// RUN: n=3 args="toolong_sys" fail="^superstep: mp_recv_timeout: node 3: message of 5000000 bytes from node 1 \(tag 1073741831\) is longer than maxlength 4999999"
// RUN: n=2 args="quittag" fail="^superstep: mp_send: node 1: tag MP_QUIT \(-1073741824\) is reserved"
// RUN: n=2 args="before_send" fail="^superstep: mp_send: called before mp_start"
// RUN: n=2 args="before_recv" fail="^superstep: mp_recv: called before mp_start"
// RUN: n=2 args="before_sync" fail="^superstep: mp_sync: called before mp_start"
// RUN: n=2 args="twice" fail="^superstep: mp_start: node 2: called twice"
// RUN: n=2 args="after_quit" fail="^superstep: mp_send: called after mp_quit"
// RUN: n=2 env="SUPERSTEP_NPROCS=0" args="badenv" fail="^superstep: SUPERSTEP_NPROCS='0' is not accepted: expected a whole number from 1 to 65535$" nompi="under mpirun the node count is the job's size: SUPERSTEP_NPROCS is not read"
// RUN: n=2 env="SUPERSTEP_NPROCS=x3" args="badenv" fail="^superstep: SUPERSTEP_NPROCS='x3' is not accepted: expected a whole number from 1 to 65535$" nompi="under mpirun the node count is the job's size: SUPERSTEP_NPROCS is not read"
// RUN: n=4 args="quit_error" fail="^superstep: mp_quit: node 3: quit with error code 7$"
// RUN: n=3 args="quit_error_main" fail="^superstep: mp_quit: node 1: quit with error code -2$"
// RUN: n=1 args="quit_error_main" fail="^superstep: mp_quit: node 1: quit with error code -2$"
// RUN: n=4 args="kill" fail="^superstep: node 2 killed by signal 9 \(SIGKILL\)$" nompi="SIGKILL: mpirun, not a monitor, sees the rank die (tests/mpi/select.sh kill)"
// RUN: n=3 args="segv" fail="^superstep: node 3 killed by signal 11 \(SIGSEGV\)$"
// RUN: n=3 args="segv_main" fail="^superstep: node 1 killed by signal 11 \(SIGSEGV\)$"
// RUN: n=3 args="abort_busy" timeout=20 fail="^superstep: node 2 killed by signal 6 \(SIGABRT\)$"
// RUN: n=3 args="exit_noquit" fail="^superstep: node 2 ended without calling mp_quit$"
// RUN: n=3 args="exit_status" fail="^superstep: node 3 ended without calling mp_quit$"
// RUN: n=3 args="sync_ended" fail="^superstep: mp_sync: node [13]: node 2 has already ended \(mp_quit\)"
// RUN: n=3 args="from_ended" fail="^superstep: mp_recv_from: node 1: waiting for a message from node 2, which has ended"
// RUN: n=3 args="all_ended" fail="^superstep: mp_recv: node 1: waiting for a message, but no other node is running"
// RUN: n=1 args="alone" fail="^superstep: mp_recv: node 1: waiting for a message, but no other node is running"
#include "mp_test.h"

#include <signal.h>
#include <stdio.h>

/* A real NULL dereference; the sanitizers are told to let it happen. */
__attribute__((noinline, no_sanitize("address", "undefined"))) static void write_null(int *volatile *where)
{
    **where = 1;
}

/* Others wait in a blocking receive: the failure must wake them. */
static void wait_forever(void)
{
    char b[8];
    mp_recv(sizeof b, b, NULL, NULL);
    CHECK(0, "node %d: mp_recv returned although the job failed", mp_this_pe());
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: errors MODE");
    const char *m = argv[1];
#define IS(s) (strcmp(m, s) == 0)
    char b[16] = { 0 };
    if (IS("before_send"))
        mp_send(1, 0, b, 1);
    if (IS("before_recv"))
        mp_recv(sizeof b, b, NULL, NULL);
    if (IS("before_sync"))
        mp_sync();
    if (IS("badenv")) {
        CHECK(!mp_start(&argc, &argv), "mp_start succeeded with a bad SUPERSTEP_NPROCS");
        return 1;
    }
    CHECK(mp_start(&argc, &argv) && mp_sync(), "start");
    int me = mp_this_pe(), n = mp_npes();
    if (IS("badnode") && me == 2)
        mp_send(n + 1, 0, b, 1);
    if (IS("badnode0") && me == 3)
        mp_send(0, 0, b, 1);
    if (IS("badfrom") && me == 1) {
        bool got;
        mp_recv_from(-2, sizeof b, b, NULL, 1, &got);
    }
    if (IS("nulldata") && me == 2)
        mp_send(1, 0, NULL, 8);
    if (IS("nullbuf") && me == 1)
        mp_recv(16, NULL, NULL, NULL);
    if (IS("toolong")) {
        if (me == 1) {
            char big[100] = { 0 };
            mp_send(2, 7, big, sizeof big);
        } else {
            char small[10];
            mp_recv(sizeof small, small, NULL, NULL);
        }
    }
    if (IS("toolong_sys")) {
        if (me == 1) {
            char *big = calloc(1, 5000000);
            mp_send(3, MP_SYSTEM | 7, big, 5000000);
            free(big);
        } else if (me == 3) {
            char *small = malloc(4999999);
            bool got;
            mp_recv_timeout(4999999, small, NULL, NULL, MP_FOREVER, &got);
        }
    }
    if (IS("quittag") && me == 1)
        mp_send(2, MP_QUIT, NULL, 0);
    if (IS("twice") && me == 2)
        mp_start(&argc, &argv);
    if (IS("after_quit")) {
        if (me == 1) {
            CHECK(mp_quit(0), "quit");
            mp_send(1, 0, b, 1);
        } else {
            int tag;
            mp_recv(0, NULL, &tag, NULL);
            CHECK(tag == MP_QUIT, "no quit notice");
            mp_quit(0);
            return 0;
        }
    }
    if (IS("quit_error") && me == 3) {
        nap(0.1);
        mp_quit(7);
    }
    if (IS("quit_error_main") && me == 1) {
        nap(0.1);
        mp_quit(-2);
    }
    if (IS("kill_main") && me == 1) { /* nothing can report it (exit_status.sh) */
        nap(0.1);
        raise(SIGKILL);
    }
    if (IS("kill") && me == 2) {
        nap(0.1);
        raise(SIGKILL);
    }
    if ((IS("segv") && me == 3) || (IS("segv_main") && me == 1)) {
        nap(0.1);
        int *volatile null = NULL;
        write_null(&null);
    }
    if (IS("abort_busy")) { /* the others are busy computing, not in a receive */
        if (me == 2) {
            nap(0.1);
            abort();
        }
        nap(60);
        CHECK(0, "node %d: not stopped", me);
    }
    if (IS("exit_noquit") && me == 2)
        return 0;
    if (IS("exit_status") && me == 3)
        exit(3);
    if (IS("sync_ended")) {
        if (me == 2) {
            mp_quit(0);
            return 0;
        }
        mp_sync();
    }
    if (IS("from_ended")) {
        if (me == 2) {
            mp_quit(0);
            return 0;
        }
        if (me == 1) {
            bool got;
            mp_recv_from(2, sizeof b, b, NULL, MP_FOREVER, &got);
        }
    }
    if (IS("all_ended")) {
        if (me != 1) {
            mp_quit(0);
            return 0;
        }
    }
    (void)n;
    wait_forever();
    return 0;
}
