/*
 * mpi_wait.c - the one wait of every process that waits on MPI: the mpi
 * device's exchanges (mpi.c), mp.h's MPI transport (src/mpi/mp_mpi.c), the
 * Epiphany host (src/mpi/hmpi.c, src/mpi/session_mpi.c) and its kernels
 * (src/mpi/kmpi.c).
 *
 * MPI's progress rings no bell a process could sleep on: a wait looks
 * (MPI_Test, MPI_Iprobe) in a loop.  The policy (issue 21):
 *   - while this node has a CPU for each of its runnable processes, never
 *     sleep nor yield: the process waited for runs on another core, and
 *     even the shortest nap costs a timer interrupt and a wake-up.  Spin,
 *     as MPI_Waitall does.  Not yield either: on a machine loaded by other
 *     work a rank that yielded waited behind every other runnable process;
 *   - where the node's processes outnumber its CPUs, the process waited for
 *     may need this very core: after CROWDED_SPIN_LOOKS, yield after each
 *     of CROWDED_YIELD_LOOKS looks (a peer of this core runs at once: 2
 *     nodes of 2 ranks on a CPU each, 105 against 170 us per empty
 *     superstep napping at once; the same 3.8 ms on one loaded machine,
 *     bench/RESULTS_cluster.md), then sleep between looks, 1 us doubling
 *     to 1 ms (a rank waiting through a long computation, or an idle rank
 *     of an Epiphany host's job while 16 kernels run, leaves the CPUs to
 *     them).  A nap, not an event: MPI's progress rings no bell
 *     (docs/mpi.md says what an event would take).
 * The node's CPUs are those its ranks may use: the union of their affinity
 * masks (mpi_wait_decide), which is the job's cpuset, cgroup or taskset.
 * Not one rank's mask (mpirun binds each rank to one core, which says
 * nothing of how many cores the node's ranks share), nor the machine's
 * online CPUs (2 ranks confined to one core spun, each waiting out the
 * other's time slice; issue 33).  The figures: bench/RESULTS_mpi.md, "The
 * waits".
 */
#include "mpi/mpi_wait.h"
#include "mpi/mpi_direct.h"

#include "barrier/barrier.h"
#include "settings/settings.h"

#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

#define CROWDED_SPIN_LOOKS 64      /* a wait about to end costs no sleep */
#define CROWDED_YIELD_LOOKS 64
#define CLOCK_EVERY 8
#define NAP_MIN_NS 1000
#define NAP_MAX_NS 1000000

void (*mpi_idle_poll)(void);

static int crowded = -1; /* -1: not decided yet */
static int any_crowded = -1; /* some node of the job is crowded (-1: not decided) */

/* Does this process run as a kernel spawned by an Epiphany host? */
static bool spawned(void)
{
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    return parent != MPI_COMM_NULL;
}

void mpi_wait_decide(MPI_Comm c)
{
    if (crowded >= 0)
        return;
    if (spawned()) { /* so are all of c: no collective needed */
        crowded = any_crowded = 1;
        return;
    }
    MPI_Comm node;
    MPI_Comm_split_type(c, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    int ranks = 0;
    MPI_Comm_size(node, &ranks);
    cpu_set_t mine, all;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0) /* over CPU_SETSIZE CPUs: plenty */
        memset(&mine, 0xff, sizeof mine);
    MPI_Allreduce(&mine, &all, (int)(sizeof mine / sizeof(unsigned long)), MPI_UNSIGNED_LONG, MPI_BOR, node);
    MPI_Comm_free(&node);
    crowded = ranks > CPU_COUNT(&all);
    /* Nodes differ (3 ranks on 2 nodes of a CPU each): what is decided
     * for the whole job is the same on every rank. */
    MPI_Allreduce(&crowded, &any_crowded, 1, MPI_INT, MPI_MAX, c);
}

bool mpi_wait_blocking_collectives(void)
{
    return any_crowded == 0 && !mpi_direct_two_sided(); /* the same on every rank */
}

bool mpi_wait_crowded(void)
{
    /* Undecided (a host's or its kernel's process): not stored, so that
     * a wait before mpi_wait_decide does not make this rank skip its
     * collective. */
    return crowded >= 0 ? crowded : spawned();
}

void mpi_wait_set_crowded(void)
{
    crowded = 1;
}

bool mpi_wait_until(bool (*ready)(void *arg), void *arg, int64_t deadline)
{
    bool crowd = mpi_wait_crowded();
    long nap = NAP_MIN_NS;
    for (unsigned looks = 0;; looks++) {
        if (mpi_idle_poll)
            mpi_idle_poll();
        mpi_direct_serve();
        if (ready(arg))
            return true;
        bool napping = crowd && looks >= CROWDED_SPIN_LOOKS;
        /* The clock at every CLOCK_EVERY-th look while spinning: on a
         * virtual machine a clock read can cost more than the look (mp.h's
         * receive spent a third of its spin there). */
        if (deadline && (napping || looks % CLOCK_EVERY == 0) && core->now_ns() >= deadline)
            return false;
        if (!napping)
            continue;
        if (looks < CROWDED_SPIN_LOOKS + CROWDED_YIELD_LOOKS) {
            sched_yield();
            continue;
        }
        struct timespec ts = { 0, nap };
        nanosleep(&ts, NULL);
        if (nap < NAP_MAX_NS)
            nap *= 2;
    }
}

struct requests {
    int n;
    MPI_Request *r;
};

static bool requests_done(void *arg)
{
    struct requests *q = arg;
    int done = 0;
    MPI_Testall(q->n, q->r, &done, MPI_STATUSES_IGNORE);
    return done;
}

bool mpi_wait_all_until(int n, MPI_Request *r, int64_t deadline)
{
    struct requests q = { n, r };
    return mpi_wait_until(requests_done, &q, deadline);
}

void mpi_wait_all(int n, MPI_Request *r)
{
    mpi_wait_all_until(n, r, 0);
}

struct probe {
    int src, tag;
    MPI_Comm c;
    MPI_Status *st;
};

static bool probe_found(void *arg)
{
    struct probe *p = arg;
    int any = 0;
    MPI_Iprobe(p->src, p->tag, p->c, &any, p->st);
    return any;
}

bool mpi_wait_probe(int src, int tag, MPI_Comm c, MPI_Status *st, int64_t deadline)
{
    struct probe p = { src, tag, c, st };
    return mpi_wait_until(probe_found, &p, deadline);
}

/* What tells two ranks apart as readers of one /proc: the boot's id
 * (another machine) and the pid namespace (another container). */
struct rank_id {
    char boot[40];
    uint64_t pidns;
    int32_t pid;
    uint8_t watching;
};

static void rank_id_of(struct rank_id *r, bool watching)
{
    memset(r, 0, sizeof *r);
    int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        (void)!read(fd, r->boot, sizeof r->boot - 1);
        close(fd);
    }
    struct stat st;
    r->pidns = stat("/proc/self/ns/pid", &st) == 0 ? (uint64_t)st.st_ino : 0;
    r->pid = (int32_t)getpid();
    r->watching = watching;
}

uint8_t *mpi_wait_watchers(MPI_Comm c, bool watching, pid_t *pids)
{
    int n = 0;
    MPI_Comm_size(c, &n);
    struct rank_id mine, *all = calloc((size_t)n, sizeof *all);
    uint8_t *watchers = calloc((size_t)n, 1);
    if (!all || !watchers) {
        free(all);
        free(watchers);
        return NULL;
    }
    rank_id_of(&mine, watching);
    MPI_Allgather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, c);
    for (int q = 0; q < n; q++) {
        watchers[q] = all[q].watching;
        if (pids)
            pids[q] = mine.boot[0] && mine.pidns && !memcmp(all[q].boot, mine.boot, sizeof mine.boot) &&
                              all[q].pidns == mine.pidns
                          ? all[q].pid
                          : 0;
    }
    free(all);
    return watchers;
}
