/* late.c - SUPERSTEP_STALL_TIMEOUT's watchdog on its own (barrier.h):
 *   timer: a timer's periods end at start + k * period, each once; an
 *     unarmed watch (NULL, or period 0) never ends one;
 *   line: the line names exactly the late ids, with the first one's
 *     superstep when asked, and nothing when nobody is late; stopped ids
 *     apart from computing ones, by how they are stopped; 300 late ids
 *     end in one ", ...";
 *   wait P: in barrier_wait, the waiters' hook is called at each period's
 *     end with at least that much waited, while processor 0 holds back (it
 *     arrives only once every waiter's hook ran twice), and never after. */
// RUN: args="timer"
// RUN: args="line"
// RUN: args="wait 4"
#include "barrier/barrier.h"
#include "check.h"

#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void hook_none(int64_t waited_ns)
{
    CHECK(0, "hook called after %lld ns", (long long)waited_ns);
}

static void test_timer(void)
{
    struct late_watch w = { 100, hook_none, NULL };
    struct late_timer t;
    late_start(&t, &w, 1000);
    CHECK(!late_due(&t, 1099), "due before the first period ended");
    CHECK(late_due(&t, 1100) && !late_due(&t, 1100), "the first period ends once, at 1100");
    CHECK(late_due(&t, 1250) && !late_due(&t, 1299) && late_due(&t, 1300), "the later ones at 1200, 1300");
    struct late_watch off = { 0, hook_none, NULL };
    late_start(&t, &off, 1000);
    CHECK(!late_due(&t, INT64_MAX - 1), "a watch of period 0 ended a period");
    late_start(&t, NULL, 1000);
    late_check(&t, INT64_MAX - 1);
    CHECK(t.due == INT64_MAX, "no watch: due %lld", (long long)t.due);
}

static const char *late_set;   /* ids as characters: '1' late */

static bool is_late(uint32_t id)
{
    return late_set[id] == '1';
}

static uint64_t step_of(uint32_t id)
{
    return 10 + id;
}

/* 'T' and 't' in late_set: that id's process is stopped. */
static char stopped_of(uint32_t id)
{
    return late_set[id] == 'T' || late_set[id] == 't' ? late_set[id] : 0;
}

static void test_line(void)
{
    struct late_watch w = { 2000000000, hook_none, NULL };
    char buf[512];
    struct late_who who = { "processor", 0, 5, is_late, step_of, NULL };
    late_set = "01010";
    CHECK(late_line(buf, sizeof buf, &w, 2500000000, &who), "nobody late");
    CHECK(!strcmp(buf, "waited 2 s for processors 1, 3, still computing in superstep 11 (SUPERSTEP_STALL_TIMEOUT=2)"),
          "%s", buf);
    struct late_who nodes = { "node", 1, 4, is_late, NULL, NULL };
    late_set = "00100";
    CHECK(late_line(buf, sizeof buf, &w, 4000000000, &nodes), "nobody late");
    CHECK(!strcmp(buf, "waited 4 s for node 2, still computing (SUPERSTEP_STALL_TIMEOUT=2)"), "%s", buf);
    struct late_who nobody = { "processor", 0, 0, is_late, step_of, NULL };
    late_set = "1";
    CHECK(!late_line(buf, sizeof buf, &w, 4000000000, &nobody), "a line of no processors: %s", buf);
    late_set = "10000"; /* id 0 is outside the nodes 1..4 */
    buf[0] = 0;
    CHECK(!late_line(buf, sizeof buf, &w, 4000000000, &nodes) && !buf[0], "a line with nobody late: %s", buf);
    struct late_who stops = { "processor", 0, 6, is_late, step_of, stopped_of };
    late_set = "01T1t0";
    CHECK(late_line(buf, sizeof buf, &w, 2000000000, &stops), "nobody late");
    CHECK(!strcmp(buf, "waited 2 s for processors 1, 3, still computing in superstep 11; processor 2, stopped by a "
                       "signal in superstep 12; processor 4, stopped by its tracer in superstep 14 "
                       "(SUPERSTEP_STALL_TIMEOUT=2)"),
          "%s", buf);
    late_set = "0TT000";
    CHECK(late_line(buf, sizeof buf, &w, 2000000000, &stops), "nobody late");
    CHECK(!strcmp(buf, "waited 2 s for processors 1, 2, stopped by a signal in superstep 11 (SUPERSTEP_STALL_TIMEOUT=2)"),
          "%s", buf);
    char many[301];
    memset(many, '1', 300);
    many[300] = 0;
    late_set = many;
    struct late_who all = { "processor", 0, 300, is_late, step_of, NULL };
    CHECK(late_line(buf, sizeof buf, &w, 2000000000, &all), "nobody late");
    const char *cut = strstr(buf, ", ...");
    CHECK(cut && !strstr(cut + 1, ", ...") && strstr(buf, ", ..., still computing in superstep 10 "), "%s", buf);
}

/* wait P: the hook's calls, per process; processor 0 reads the others'
 * counts in the segment. */
#define PERIOD_NS 50000000
static struct segment seg;
static struct barrier *bar;
static _Atomic uint32_t *calls;  /* [p] */
static uint32_t me, ncalls;
static bool passed;

static void hook_count(int64_t waited_ns)
{
    CHECK(!passed, "hook called after the barrier");
    ncalls++;
    CHECK(waited_ns >= (int64_t)ncalls * PERIOD_NS, "call %u after %lld ns", ncalls, (long long)waited_ns);
    atomic_store(&calls[me], ncalls);
}

static void test_wait(uint32_t p)
{
    bar = seg_ptr(&seg, seg_alloc(&seg, sizeof *bar, SEG_LINE));
    calls = seg_ptr(&seg, seg_alloc(&seg, p * sizeof *calls, SEG_LINE));
    barrier_init(bar, p);
    for (me = 0; me < p; me++) {
        if (fork() != 0)
            continue;
        struct late_watch w = { PERIOD_NS, hook_count, NULL };
        bool ok;
        if (me == 0) {
            for (uint32_t q = 1; q < p; q++)
                while (atomic_load(&calls[q]) < 2)
                    usleep(1000);
            barrier_wait(bar, p, BAR_FIELD(0), &ok, NULL);
        } else {
            barrier_wait(bar, p, BAR_FIELD(0), &ok, &w);
            passed = true;
            CHECK(ncalls >= 2, "the hook ran %u times", ncalls);
        }
        CHECK(ok, "barrier failed");
        struct late_watch off = { 0, hook_count, NULL };
        barrier_wait(bar, p, BAR_FIELD(0), &ok, &off); /* period 0: no call */
        _exit(0);
    }
    int status, bad = 0;
    while (wait(&status) > 0)
        bad += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    CHECK(bad == 0, "%d processes failed", bad);
}

int main(int argc, char **argv)
{
    CHECK(argc >= 2, "usage: late timer | line | wait P");
    if (!strcmp(argv[1], "timer")) {
        test_timer();
    } else if (!strcmp(argv[1], "line")) {
        test_line();
    } else {
        CHECK(argc == 3 && seg_create(&seg, 1ull << 20, 16) == 0, "usage, or seg_create");
        test_wait((uint32_t)atoi(argv[2]));
    }
    return 0;
}
