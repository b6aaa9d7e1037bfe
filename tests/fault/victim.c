/* victim.c - a BSPlib or mp.h program that injects one fault, for the
 * fault campaign (campaign.sh).  Every processor exchanges data each
 * superstep (every third superstep a large exchange, 1 MiB per pair);
 * processor F, in superstep S, injects fault K:
 *   segv abrt bus fpe kill term int alrm: raise the signal
 *   timer:  SIGALRM from a timer that fires 0..20 ms later, usually while
 *           a large exchange is in bsp_sync
 *   exit3:  exit(3); _exit1: _exit(1); exec: execl("/bin/true")
 *   babort: bsp_abort; abort: abort()
 *   fork:   fork a child that exits at once (not a fault: the run succeeds)
 *   none:   no fault
 * mp mode: node F+1 injects the fault after S message rounds.
 * Usage: victim bsp|mp F S K [STEPS] */
// RUN: n=3 args="bsp 1 2 none" out="^victim ok 3$"
// RUN: n=3 args="bsp 2 1 fork" out="^victim ok 3$"
// RUN: n=3 args="bsp 1 1 segv" fail="^superstep: processor 1 killed by signal 11 \(SIGSEGV\) in superstep 2$"
// RUN: n=3 args="mp 0 2 none" out="^victim ok 3$"
// RUN: n=3 args="mp 2 1 exit3" fail="^superstep: node 3 ended without calling mp_quit$"
#include <bsp.h>
#include <mp.h>

#include "check.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (1 << 20)

static void inject(const char *k, unsigned seed)
{
    static const struct { const char *name; int sig; } sigs[] = {
        { "segv", SIGSEGV }, { "abrt", SIGABRT }, { "bus", SIGBUS }, { "fpe", SIGFPE },
        { "kill", SIGKILL }, { "term", SIGTERM }, { "int", SIGINT }, { "alrm", SIGALRM },
    };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (!strcmp(k, sigs[i].name))
            raise(sigs[i].sig);
    if (!strcmp(k, "timer")) {
        struct itimerval it = { { 0, 0 }, { 0, 1 + (long)(seed % 20000) } };
        setitimer(ITIMER_REAL, &it, NULL);
    } else if (!strcmp(k, "exit3")) {
        exit(3);
    } else if (!strcmp(k, "_exit1")) {
        _exit(1);
    } else if (!strcmp(k, "exec")) {
        execl("/bin/true", "true", (char *)NULL);
    } else if (!strcmp(k, "babort")) {
        bsp_abort("victim: injected abort\n");
    } else if (!strcmp(k, "abort")) {
        abort();
    } else if (!strcmp(k, "fork")) {
        pid_t c = fork();
        if (c == 0)
            _exit(0);
        CHECK(c > 0 && waitpid(c, NULL, 0) == c, "fork");
    }
}

/* A timer that has not fired by the job's last call is cancelled there:
 * firing after the job, it would kill a program no runtime watches any more
 * (the campaign accepts a timer that never fired: the run succeeds). */
static void disarm_timer(void)
{
    struct itimerval off = { { 0, 0 }, { 0, 0 } };
    setitimer(ITIMER_REAL, &off, NULL);
}

static void run_bsp(unsigned f, unsigned s, const char *k, unsigned steps)
{
    bsp_begin(bsp_nprocs());
    unsigned p = bsp_nprocs(), me = bsp_pid();
    char *in = calloc((size_t)p, BIG), *out = malloc(BIG);
    CHECK(in && out, "out of memory");
    bsp_push_reg(in, (size_t)p * BIG);
    bsp_sync();
    for (unsigned step = 0; step < steps; step++) {
        size_t len = step % 3 == 2 ? BIG : 64;
        memset(out, (int)(me + step), len);
        for (unsigned q = 0; q < p; q++)
            bsp_put(q, out, in, (long)me * BIG, (long)len);
        bsp_send((me + 1) % p, NULL, out, 16);
        if (me == f && step == s)
            inject(k, step * 7919u + me);
        bsp_sync();
        for (unsigned q = 0; q < p; q++)
            CHECK(in[(size_t)q * BIG + len - 1] == (char)(q + step), "processor %u: bad data from %u", me, q);
    }
    disarm_timer();
    bsp_end();
    free(in);
    free(out);
    if (me == 0)
        printf("victim ok %u\n", p);
}

static void run_mp(int f, int s, const char *k, int steps, int *argc, char ***argv)
{
    CHECK(mp_start(argc, argv), "mp_start");
    int me = mp_this_pe(), n = mp_npes(), tag, from;
    char *buf = malloc(BIG);
    CHECK(buf, "out of memory");
    for (int step = 0; step < steps; step++) {
        size_t len = step % 3 == 2 ? BIG : 64;
        memset(buf, step, len);
        CHECK(mp_send(me % n + 1, step, buf, len), "mp_send");
        if (me == f + 1 && step == s)
            inject(k, (unsigned)(step * 7919 + me));
        size_t got = mp_recv(BIG, buf, &tag, &from);
        CHECK(tag == MP_QUIT || (got == len && tag == step), "node %d: bad message", me);
        if (tag == MP_QUIT)
            break;
    }
    /* In the ring the main node can finish its rounds while a node two
     * hops back is still rounds behind, before its fault: all meet first. */
    disarm_timer();
    mp_sync();
    if (mp_is_main())
        printf("victim ok %d\n", n);
    free(buf);
    mp_quit(0);
}

int main(int argc, char **argv)
{
    CHECK(argc >= 5, "usage: victim bsp|mp F S K [STEPS]");
    unsigned steps = argc > 5 ? (unsigned)atoi(argv[5]) : 6;
    if (!strcmp(argv[1], "mp"))
        run_mp(atoi(argv[2]), atoi(argv[3]), argv[4], (int)steps, &argc, &argv);
    else
        run_bsp((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]), argv[4], steps);
    return 0;
}
