/*
 * mpi.c - the mpi device: the processors are the ranks of an MPI job.
 *
 * Every rank runs the program from main (mpirun starts them); processor s is
 * rank s of MPI_COMM_WORLD (of its first P ranks when bsp_begin asks for
 * fewer).  MPI stays up from the first bsp_begin to the program's end:
 * between runs the ranks other than 0 wait for processor 0's next
 * bsp_begin and start the function it gave bsp_init (rest).
 *
 * Streams: write() appends to a private buffer per destination.  An
 * exchange is one MPI_Alltoall of META words per pair (the bytes queued for
 * that destination, the caller's flags, summed here, and the hp descriptors
 * sent to it), then the data.
 * Streams up to the slice size S go one-sided: MPI_Put into the
 * destination's window (MPI_Win_allocate, passive target, one epoch for the
 * whole run) at the slice for (parity of the exchange, source), then
 * MPI_Win_flush_all and an empty message to each destination put to, which
 * the destination waits for; it reads the slice in place.  Larger streams
 * (and all, with SUPERSTEP_MPI_ONESIDED=0 or where the MPI cannot make the
 * window) go two-sided: MPI_Isend/Irecv in
 * pieces of at most 1 GiB into a private buffer per source and parity.  Two
 * parities suffice: a sender puts only after the count exchange, which the
 * receiver enters after consuming everything but the previous exchange's
 * data (the superstep protocol drains all after at most two exchanges).
 * Each exchange appends one piece per source to that source's queue; the
 * caller reads across pieces.  An empty superstep is one MPI_Alltoall.
 * One-sided measured 2.5 to 5 times faster than two-sided for anything but
 * empty supersteps (bench/RESULTS_mpi.md).  The window holds 2 P slices:
 * SUPERSTEP_MPI_WINDOW bytes in all (default 64 MiB), S at most 4 MiB.
 *
 * bsp_hpput/bsp_hpget go straight from memory to memory inside the second
 * exchange of the sync (mpi_hp.c; the counts carry how many descriptors
 * each rank sent each).  (An Epiphany host's kernels on one machine share
 * their session segment: src/mpi/kmpi.c.)  What the BSP layer keeps in the segment for peers to read (the
 * registration tables, the change records) it copies with share(), an
 * MPI_Allgather, at the syncs where registrations change.  Each rank keeps
 * a private segment for its own tables (and ebsp_malloc memory).
 *
 * Failures: launch_fail goes to mpi_fail: the failing rank prints the line
 * (once for the job: ranks that fail together agree by message which one
 * prints), then MPI_Abort stops every rank with the exit status.  A rank
 * that leaves without bsp_end (exit, return from main) reports it from an
 * exit hook; fatal signals are named by a handler that then lets the signal
 * kill the rank, and mpirun stops the others.  An end that no code of the
 * rank's sees (SIGKILL, _exit) is named by the rank's watcher (mpi_watch.c).
 */
#include "device/device.h"
#include "mpi/session_mpi.h"
#include "settings/settings.h"

#include "mpi/lines.h"
#include "mpi/mpi_direct.h"
#include "mpi/mpi_fail.h"
#include "mpi/mpi_hp.h"
#include "mpi/mpi_node.h"
#include "mpi/mpi_wait.h"
#include "mpi/mpi_watch.h"
#include "launch/launch.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <limits.h>
#include <link.h>
#include <mpi.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

#define CHUNK (1ull << 30)     /* bytes per message: MPI counts are int */
#define TAG_DATA 1
#define TAG_FAIL 0x5350        /* failure notices, on MPI_COMM_WORLD */
#define TAG_BEGIN 0x5351       /* processor 0's begin_note (p 0: no bsp_begin comes), to every rank */
#define TAG_JOIN 0x5352        /* a rank's answer: JOINED, or its exit status before bsp_begin */
#define TAG_META 0x5353        /* SUPERSTEP_STALL_TIMEOUT: an exchange's counts, point to point */
#define JOINED (-1)

struct obuf {                  /* towards one destination */
    char *buf;
    size_t len, cap;
};

struct piece {                 /* what one exchange brought from a source */
    const char *at;
    size_t len;
};

#define META 5                 /* words per processor in an exchange's counts */
#define NPIECE 4               /* pieces queued per source: at most 2 used */

struct ibuf {                  /* from one source */
    struct piece q[NPIECE];    /* ring: head, n */
    unsigned head, n;
    size_t off;                /* consumed of q[head] */
    uint64_t left;             /* unread bytes in all pieces */
    unsigned scan_i;           /* pre-scan cursor: piece (ring index), offset */
    size_t scan_off;
    char *priv[2];             /* two-sided landing buffers, per parity */
    size_t cap[2];
};

struct device device_mpi;

static struct {
    bool inited;               /* MPI_Init done (by us or the program) */
    void (*spmd)(void);        /* processor 0: the last function bsp_init gave, which later runs start */
    bool exiting;              /* in mpi_on_exit: no watcher to start */
    bool initing;              /* starting MPI (mpi_init_library): an exit there, MPI's own or a
                                * launcher mismatch's, has nothing for mpi_on_exit to do */
    pid_t pid;                 /* the rank's process: a child the program forks is none */
    bool we_inited;
    bool stays;                /* MPI stays up from the first bsp_begin to the program's end */
    bool begun, ended;         /* begun: some run began here */
    bool claimed;              /* this rank's MPI serves an Epiphany host (mpi_device_claim) */
    bool host;                 /* rank 0 of an Epiphany host's job, the other ranks idle */
    int32_t pending;           /* rank other than 0: the p of a run it has not yet answered */
    int world, wrank;
    MPI_Comm comm;
    uint32_t p, me;
    uint64_t seq;              /* exchanges so far */
    uint8_t *watchers;         /* the ranks with SUPERSTEP_STALL_TIMEOUT (mpi_wait_watchers) */
    bool watched;              /* some rank has it: counts point to point */
    struct obuf *out;
    struct ibuf *in;
    uint64_t *meta_s, *meta_r; /* META per processor: bytes, flags, hp descriptors, collective call, superstep */
    MPI_Request *req;
    size_t nreq, capreq;
    /* one-sided */
    bool onesided;
    MPI_Win win;
    char *wbase;               /* my window: slice (parity, source) at (parity * p + source) * slice */
    size_t slice;
    uint32_t *put_to;          /* destinations put to in this exchange */
    struct stream_window *ws;  /* the BSP layer's windows, one per destination */
} m = { .comm = MPI_COMM_NULL, .win = MPI_WIN_NULL };

/* ---- starting MPI ---------------------------------------------------------- */

static void failure_paths_install(void);

/* ---- waiting: mpi_wait.c ----------------------------------------------------- */

static void stop_poll(void);

/* A plain BSPlib program run as a kernel by an Epiphany host looks for the
 * host's stop in its waits (kmpi.c's look_for_stop does the same for
 * Epiphany kernels); its waits are crowded (mpi_wait_crowded). */
static void idle_waits_decide(void)
{
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL) /* kmpi.c sets its own */
        mpi_idle_poll = stop_poll;
}

/* Where a node is crowded, a barrier of MPI_COMM_WORLD in the one wait
 * (before the blocking collectives of bsp_begin, which then wait for no
 * rank for long). */
static void idle_barrier(void)
{
    if (mpi_wait_blocking_collectives() || m.world == 1)
        return;
    MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    mpi_wait_all(1, &r);
}

/* A launcher of another MPI (or srun without this MPI's PMI) starts N
 * processes that this MPI takes for N jobs of one rank each, or cannot
 * start at all: each would run the program alone.  Stop them, rank 0 (the
 * launcher's) saying why: this MPI 'fails' ("sees a job of 1"). */
static void launcher_mismatch(long launched, long rank, const char *fails) __attribute__((noreturn));
static void launcher_mismatch(long launched, long rank, const char *fails)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
    int len = 0;
    MPI_Get_library_version(version, &len); /* callable before MPI_Init */
    version[strcspn(version, ",\n")] = 0; /* "Open MPI v4.1.4", "MPICH Version:\t4.0.2" */
    char *label = strstr(version, " Version:");
    if (label)
        memmove(label, label + strlen(" Version:"), strlen(label + strlen(" Version:")) + 1);
    for (char *c = version; *c; c++)
        *c = *c == '\t' ? ' ' : *c;
    if (rank == 0)
        fprintf(stderr, "superstep: the launcher started %ld processes, but %s (the MPI Superstep was built "
                        "with) %s: start the program with this MPI's launcher (with srun: %s), or build "
                        "Superstep with the MPI of this launcher (make MPICC=...)\n", launched, version, fails,
#ifdef OPEN_MPI
                "--mpi=pmix"
#else
                "--mpi=pmi2"
#endif
        );
    int inited = 0;
    MPI_Initialized(&inited);
    if (inited)
        MPI_Finalize();
    exit(LAUNCH_EXIT_ERROR);
}

void mpi_init_library(void)
{
    long rank, launched = core->device_launched(&rank);
    m.initing = true;
#ifdef OPEN_MPI
    /* srun starts Open MPI's ranks only through PMIx: without it MPI_Init
     * fails on each with a page of text. */
    if (launched > 1 && mpi_srun_direct() && !getenv("PMIX_NAMESPACE"))
        launcher_mismatch(launched, rank, "starts them as one job only through PMIx");
    /* A spawn hang: docs/mpi.md, "Vendor notes", spawn-hang (a setting of the user's wins) */
    setenv("PMIX_MCA_gds", "hash", 0);
#endif
    mpi_watch_starting(rank);
    MPI_Init(NULL, NULL);
    mpi_watch_disarm();
    int world = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    if (launched > world) {
        char sees[48];
        snprintf(sees, sizeof sees, "sees a job of %d", world);
        launcher_mismatch(launched, rank, sees);
    }
    m.initing = false;
}

static void mpi_init(void)
{
    if (m.inited)
        return;
    int flag = 0;
    MPI_Initialized(&flag);
    if (!flag) {
        if (!m.exiting)
            mpi_watch_start(); /* before MPI_Init: MPI stays in this process */
        mpi_init_library();
        m.we_inited = true;
        /* Again, now that MPI's libraries have registered their own exit
         * handlers: ours runs before them (docs/mpi.md, "Vendor notes",
         * ucx-exit), and the one the core registered first finds MPI
         * finalized. */
        on_exit(mpi_on_exit, NULL);
    }
    mpi_watch_claim_open(); /* the watcher's, or one of its own (MPI_Init was the program's) */
    mpi_fail_arm();
    m.inited = true;
    m.pid = getpid();
    MPI_Comm_size(MPI_COMM_WORLD, &m.world);
    MPI_Comm_rank(MPI_COMM_WORLD, &m.wrank);
    /* Several runs keep MPI up between them, finalized at the program's
     * end: ours to keep, and not a kernel's, whose host spawns its kernels
     * per run. */
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    m.stays = m.we_inited && parent == MPI_COMM_NULL;
    failure_paths_install();
    idle_waits_decide();
    mpi_wait_decide(MPI_COMM_WORLD); /* every rank comes here once, by bsp_begin or at exit */
}

static bool mpi_world(uint32_t *nprocs, uint32_t *me)
{
    mpi_init();
    *nprocs = (uint32_t)m.world;
    *me = (uint32_t)m.wrank;
    return true;
}

/* ---- failures ---------------------------------------------------------------- */

/* Shall this rank print its failure?  Not if another rank said first that
 * it fails; else it says so to every rank (ranks failing later on other
 * machines then stay silent), and of the ranks of this machine that fail
 * together the first to claim the line prints, as on shm (mpi_watch.c).
 * Also for mp.h's MPI transport (mpi_fail.h). */
bool mpi_first_to_fail(void)
{
    if (!mpi_watch_intact()) /* MPI's descriptors are gone: no notice can go, and none may block */
        return mpi_watch_claim();
    int world = 1, wrank = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int any = 0;
    if (world > 1)
        MPI_Iprobe(MPI_ANY_SOURCE, TAG_FAIL, MPI_COMM_WORLD, &any, MPI_STATUS_IGNORE);
    if (any)
        return false;
    static int note;
    note = wrank;
    for (int r = 0; r < world; r++) {
        if (r == wrank)
            continue;
        MPI_Request q;
        MPI_Isend(&note, 1, MPI_INT, r, TAG_FAIL, MPI_COMM_WORLD, &q);
        MPI_Request_free(&q);
    }
    mpi_watch_claim_open(); /* a rank's inner run may hold it (a single rank too) */
    return mpi_watch_claim();
}

/* SUPERSTEP_ABORT_TIMEOUT and this rank's world rank, read once when MPI
 * is up (mpi_fail_arm): the failure paths use them, signal handlers among
 * them, and a setting changed meanwhile cannot fail them again. */
static struct {
    bool armed;        /* limit_s and wrank read */
    bool limit_read;   /* limit_s read (a watcher reads it before MPI is up) */
    uint64_t limit_s;
    int wrank;
    int stderr_fd;     /* MPICH: stderr, kept when mpi_abort_job sends fd 2 to /dev/null */
    volatile sig_atomic_t dying_by; /* the fatal signal the abort is for (0: none; MPICH times it) */
    bool abort_on_signal; /* a rank that dies by a signal aborts the job (mpi_die_by_signal) */
} abort_limit = { .stderr_fd = -1 };

#ifdef MPICH_VERSION
static void abort_never_came(int alarm);
#endif

void mpi_abort_job(int code)
{
    lines_failing(mpi_abort_deadline()); /* output nobody reads must not hang it */
    fflush(stderr);
    lines_flush();
    /* The launcher may stop reading this rank as soon as the abort reaches
     * it (docs/mpi.md, "Vendor notes", drop-pipes).  What it has
     * read it forwards before the abort, which comes after on the same
     * connection. */
    lines_drain(mpi_drain_deadline());
    if (!mpi_watch_intact()) /* MPI's descriptors went with the program's close: its exit is what the launcher sees */
        _exit(code);
#ifdef MPICH_VERSION
    int null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        abort_limit.stderr_fd = dup(2); /* for the line should the abort never come back */
        dup2(null, 2);
    }
    if (abort_limit.dying_by && abort_limit.armed && abort_limit.limit_s) {
        signal(SIGALRM, abort_never_came);
        alarm(abort_limit.limit_s > UINT_MAX ? UINT_MAX : (unsigned)abort_limit.limit_s);
    }
#endif
    MPI_Abort(MPI_COMM_WORLD, code);
    _exit(code);
}

void mpi_fail_arm(void)
{
    if (abort_limit.armed)
        return;
    mpi_abort_limit();
    MPI_Comm_rank(MPI_COMM_WORLD, &abort_limit.wrank);
    /* docs/mpi.md, "Vendor notes": signal-status (MPICH), srun-signal (a
     * rank srun started itself, not through mpirun) */
#ifdef MPICH_VERSION
    abort_limit.abort_on_signal = true;
#else
    abort_limit.abort_on_signal = mpi_srun_direct();
#endif
    abort_limit.armed = true;
}

uint64_t mpi_abort_limit(void)
{
    if (!abort_limit.limit_read) {
        abort_limit.limit_s = core->setting_num(SET_ABORT_TIMEOUT);
        abort_limit.limit_read = true;
    }
    return abort_limit.limit_s;
}

/* "superstep: MPI rank 1 waited 30 s for <whom>: the time limit expired
 * (SUPERSTEP_ABORT_TIMEOUT=30); rank 1 <then>", on stderr.  Async-signal-
 * safe once armed. */
static void say_limit_expired(const char *whom, const char *then)
{
    char line[300], rank[24];
    core->launch_put_u64(rank, 0, sizeof rank, (uint64_t)abort_limit.wrank);
    size_t n = core->launch_put_str(line, 0, sizeof line, "superstep: MPI rank ");
    n = core->launch_put_str(line, n, sizeof line, rank);
    n = core->launch_put_str(line, n, sizeof line, " waited ");
    n = core->launch_put_u64(line, n, sizeof line, abort_limit.limit_s);
    n = core->launch_put_str(line, n, sizeof line, " s for ");
    n = core->launch_put_str(line, n, sizeof line, whom);
    n = core->launch_put_str(line, n, sizeof line, ": the time limit expired (SUPERSTEP_ABORT_TIMEOUT=");
    n = core->launch_put_u64(line, n, sizeof line, abort_limit.limit_s);
    n = core->launch_put_str(line, n, sizeof line, "); rank ");
    n = core->launch_put_str(line, n, sizeof line, rank);
    n = core->launch_put_str(line, n, sizeof line, then);
    n = core->launch_put_str(line, n, sizeof line, "\n");
    (void)!write(abort_limit.stderr_fd >= 0 ? abort_limit.stderr_fd : 2, line, n);
}

/* SUPERSTEP_ABORT_TIMEOUT expired while this rank waited for 'whom' to
 * stop the job or run: say so, and stop the job. */
static void abort_limit_expired(int code, const char *whom) __attribute__((noreturn));
static void abort_limit_expired(int code, const char *whom)
{
    mpi_fail_arm();
    say_limit_expired(whom, " stops it");
    mpi_abort_job(code);
}

int64_t mpi_abort_deadline(void)
{
    uint64_t limit = mpi_abort_limit();
    return limit ? core->now_ns() + (int64_t)limit * 1000000000 : 0;
}

int64_t mpi_drain_deadline(void)
{
    uint64_t limit = mpi_abort_limit();
    return limit ? core->now_ns() + (int64_t)limit * 500000000 : 0;
}

void mpi_await_abort(int code)
{
    uint64_t limit = mpi_abort_limit();
    while (!limit)
        pause();
    struct timespec left = { (time_t)limit, 0 };
    while (nanosleep(&left, &left) < 0 && errno == EINTR)
        ;
    abort_limit_expired(code, "the rank that reported the failure to stop the job");
}

#ifdef MPICH_VERSION
/* The abort did not come back within the limit (a fault inside MPI, or a
 * launcher that never acts on it): say so and end by the signal. */
static void abort_never_came(int alarm)
{
    (void)alarm;
    int sig = abort_limit.dying_by;
    say_limit_expired("its MPI_Abort to stop the job", " ends by its signal");
    raise(sig);
    _exit(128 + sig);
}
#endif

void mpi_die_by_signal(int sig)
{
    signal(sig, SIG_DFL);
    if (abort_limit.abort_on_signal) {
        abort_limit.dying_by = sig; /* mpi_abort_job sets the limit's alarm */
        mpi_abort_job(128 + sig);
    }
    raise(sig);
    _exit(128 + sig);
}

/* Wait until 'deadline' (0: none) for the host's EM_STOP on parent. */
static bool stop_comes(MPI_Comm parent, int64_t deadline)
{
    if (!mpi_wait_probe(0, EM_STOP, parent, MPI_STATUS_IGNORE, deadline))
        return false;
    MPI_Recv(NULL, 0, MPI_BYTE, 0, EM_STOP, parent, MPI_STATUS_IGNORE);
    return true;
}

/* A spawned kernel stopped by its host (EM_STOP) leaves (kmpi.c's
 * look_for_stop does the same for Epiphany kernels). */
static void stop_poll(void)
{
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    int any = 0;
    if (parent != MPI_COMM_NULL)
        MPI_Iprobe(0, EM_STOP, parent, &any, MPI_STATUS_IGNORE);
    if (!any)
        return;
    MPI_Recv(NULL, 0, MPI_BYTE, 0, EM_STOP, parent, MPI_STATUS_IGNORE);
    mpi_leave_stopped(parent);
}

void mpi_leave_stopped(MPI_Comm parent)
{
    mpi_idle_poll = NULL;
    MPI_Send(NULL, 0, MPI_BYTE, 0, EM_STOPPED, parent);
    fflush(NULL);
    lines_flush();
    MPI_Comm_disconnect(&parent);
    *core->launch_fail_hook = NULL;
    MPI_Finalize();
    mpi_watch_end();
    _exit(0);
}

/* A kernel spawned by an Epiphany host fails: it prints its line (kernels
 * failing at the same moment may each print one: docs/mpi.md, "Vendor notes",
 * finalize-hang), tells the host, which stops the run (EM_STOP to every kernel),
 * and leaves with status 0, so that the host survives the failed run, as
 * on shm (src/mpi/hmpi.c; kmpi.c for kernels stopped while they wait).
 * A kernel that only waits for another's report (msg NULL) waits for the
 * stop.  No stop within SUPERSTEP_ABORT_TIMEOUT (the host stopped, hung or
 * gone): a line says the limit expired, and the job is aborted. */
static void kernel_failed(MPI_Comm parent, const char *msg, uint32_t code) __attribute__((noreturn));
static void kernel_failed(MPI_Comm parent, const char *msg, uint32_t code)
{
    mpi_idle_poll = NULL;
    if (msg) {
        fprintf(stderr, "superstep: %s\n", msg);
        fflush(stderr);
        MPI_Send(NULL, 0, MPI_BYTE, 0, EM_FAILED, parent);
    }
    if (!stop_comes(parent, mpi_abort_deadline()))
        abort_limit_expired((int)code, "its Epiphany host to stop the failed run");
    mpi_leave_stopped(parent);
}

/* launch_fail and launch_stopped on this device: print the line (msg; NULL
 * when another processor reports), stop the job with 'code'. */
static void mpi_fail(uint32_t code, const char *msg) __attribute__((noreturn));
static void mpi_fail(uint32_t code, const char *msg)
{
    static bool failing;
    if (failing) /* a failure inside the failure path */
        _exit((int)code);
    failing = true;
    lines_failing(mpi_abort_deadline()); /* output nobody reads must not hang it */
    mpi_watch_settle(); /* the runtime reports this failure, not the watcher */
    fflush(stdout);
    lines_flush();
    /* A kernel spawned by an Epiphany host prints without asking the other
     * kernels (docs/mpi.md, "Vendor notes", finalize-hang).  Kernels failing at
     * the same moment may then print a line each. */
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        kernel_failed(parent, msg, code);
    if (msg && mpi_first_to_fail()) {
        fprintf(stderr, "superstep: %s\n", msg);
        fflush(stderr);
        /* The profiler writes what this rank has (its own records): the
         * others are stopped by the abort and share no memory. */
        void (*failed)(void) = *core->launch_failed_hook;
        *core->launch_failed_hook = NULL;
        core->launch_keep_failure(msg);
        if (failed && parent == MPI_COMM_NULL)
            failed();
        fflush(stderr);
        lines_flush();
    } else if (msg || !mpi_watch_holds_claim()) {
        /* Another rank (a lower one, or the one that reports) prints and
         * stops the job.  Holding the claim, this rank's own inner run
         * printed the line: nobody else will stop it. */
        mpi_await_abort((int)code);
    }
    mpi_abort_job((int)code);
}

/* A processor leaving the program without bsp_end stops the job. */
static void left_in_job(int status)
{
    char msg[256], st[48] = "";
    if (core->launch_words->steps)
        snprintf(st, sizeof st, " in superstep %llu", (unsigned long long)atomic_load(&core->job->ls->proc[m.me].step));
    snprintf(msg, sizeof msg, "%s %u exited with status %d%s without calling %s", core->launch_words->proc,
             m.me + core->launch_words->first, status, st, core->launch_words->end_call);
    mpi_fail(LAUNCH_EXIT_ERROR, msg);
}

static void send_nprocs(int32_t p);
static int32_t await_begin(void (**fn)(void));

/* An Epiphany host's rank: its MPI serves the host (src/mpi/hmpi.c), never
 * a bsp_begin, so no rank waits for its p at exit. */
void mpi_device_claim(void);
void mpi_device_claim(void)
{
    m.claimed = true;
    m.host = m.world > 1; /* the other ranks wait in a barrier until the host ends (mpi_on_exit) */
}

/* A kernel spawned by an Epiphany host (src/mpi/hmpi.c) at bsp_end: an
 * Epiphany kernel has said goodbye and left the host (src/mpi/kmpi.c);
 * a plain BSPlib program used as kernel says it here, with nothing sent
 * back, so that the host's run ends as on shm. */
static void kernel_ended(void)
{
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent); /* MPI_COMM_NULL after the kernel's disconnect */
    if (parent == MPI_COMM_NULL)
        return;
    struct em_packet none = { 0 };
    MPI_Send(&none, (int)(sizeof none / sizeof(uint64_t)), MPI_UINT64_T, 0, EM_END, parent);
    /* Disconnect when every kernel has ended (EM_BYE), or the run failed
     * (EM_STOP, answered): MPI_Comm_disconnect would wait polling. */
    MPI_Status st;
    mpi_wait_probe(0, MPI_ANY_TAG, parent, &st, 0);
    MPI_Recv(NULL, 0, MPI_BYTE, 0, st.MPI_TAG, parent, MPI_STATUS_IGNORE);
    if (st.MPI_TAG == EM_STOP)
        MPI_Send(NULL, 0, MPI_BYTE, 0, EM_STOPPED, parent);
    MPI_Comm_disconnect(&parent);
}

/* A kernel spawned by an Epiphany host that ends before bsp_begin (a
 * program that is no kernel): the host waits for it, so stop the job. */
static void kernel_left_before_begin(int status)
{
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL)
        return;
    char msg[256];
    snprintf(msg, sizeof msg, "%s %d exited with status %d%s without calling %s", core->launch_words->proc,
             m.wrank + (int)core->launch_words->first, status, core->launch_words->steps ? " in superstep 0" : "",
             core->launch_words->end_call);
    mpi_fail(LAUNCH_EXIT_ERROR, msg);
}

/* A rank ends the program with status 0 before bsp_begin.  Processor 0
 * tells every rank that no bsp_begin comes (ranks waiting in bsp_begin for
 * its p, bsp_init style, or ending like it, then leave with 0).  Another
 * rank tells processor 0, and learns from it whether it began after all:
 * then processor 0 stops the job, naming this rank. */
static void left_before_begin(void)
{
    if (m.wrank == 0) {
        send_nprocs(0);
        return;
    }
    int32_t note = 0, p = m.pending; /* a run's function that returned without bsp_begin: p came */
    MPI_Send(&note, 1, MPI_INT32_T, 0, TAG_JOIN, MPI_COMM_WORLD);
    if (!p)
        p = await_begin(NULL);
    if (p != 0)
        for (;;) /* processor 0 is in bsp_begin and aborts the job on our note */
            pause();
}

/* Will this program run on the mpi device?  (Without choosing it, which
 * may print or fail: this is asked at exit.) */
static bool mpi_expected(void)
{
    const char *want = getenv("SUPERSTEP_DEVICE");
    if (want && *want && strcmp(want, "mpi") && strcmp(want, "auto"))
        return false;
    return core->device_started_by_mpi();
}

/* Every way out of the program on a rank: none may leave the others
 * waiting.  A rank that ends before any call that started MPI starts it
 * here: to say so to processor 0 (which may wait for it in bsp_begin), or,
 * with a status other than 0, to abort the job (not every launcher stops
 * a job when a process that never started MPI fails: docs/mpi.md, "Vendor notes",
 * exit-before-init).
 * The core calls it from an on_exit handler registered before anything
 * the program registers (src/device/select.c, loading this plug-in then if
 * no call did), so that it runs last, when the program's own exit handlers
 * have used MPI. */
void mpi_on_exit(int status, void *arg)
{
    (void)arg;
    if (m.initing || (m.inited && getpid() != m.pid)) /* a process the rank forked leaves: not the rank */
        return;
    m.exiting = true;
    if (!m.inited) {
        int started = 0, finished = 0;
        MPI_Initialized(&started); /* by the program, or by mp.h's transport */
        MPI_Finalized(&finished);
        if (started || finished || !mpi_expected())
            return;
        mpi_init();
    }
    int done = 0;
    MPI_Finalized(&done);
    if (done) /* after bsp_end (a kernel), or the program finalized MPI itself */
        return;
    if (m.begun && !m.ended)
        left_in_job(status);
    if (!m.begun)
        kernel_left_before_begin(status);
    if (!m.we_inited) /* the program runs MPI itself */
        return;
    bool before = !m.begun || m.pending; /* this rank owes processor 0 its bsp_begin */
    if (status != 0 && before) { /* the program's own failure, as on shm */
        fflush(NULL);
        lines_flush();
        mpi_abort_job(status);
    }
    if (m.world > 1 && !m.claimed && before)
        left_before_begin();
    else if (m.world > 1 && m.wrank == 0 && m.begun) /* no more runs: the others leave (rest) */
        send_nprocs(0);
    if (m.begun) /* ended cleanly, as the last run did */
        mpi_watch_settle();
    if (m.host) { /* let the idle ranks of an Epiphany host's job go (src/mpi/hmpi.c) */
        MPI_Request r;
        MPI_Ibarrier(MPI_COMM_WORLD, &r);
        MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    *core->launch_fail_hook = NULL;
    fflush(NULL);
    lines_flush();
    MPI_Finalize();
}

/* Fatal signals: name the rank, then die by the signal (mpi_die_by_signal:
 * the job's status is 128 + signal). */
static void on_fatal_signal(int sig)
{
    if (core->job->nest) /* processor 0 of an inner run (launch_nest_enter): the launch layer named it */
        mpi_die_by_signal(sig);
    mpi_watch_settle();
    if (!mpi_watch_claim()) /* another rank's failure is this machine's line */
        mpi_die_by_signal(sig);
    char who[48], what[48];
    size_t at = core->launch_put_str(who, 0, sizeof who, core->launch_words->proc);
    core->launch_put_u64(who, core->launch_put_str(who, at, sizeof who, " "), sizeof who,
                         (m.begun ? m.me : (uint32_t)m.wrank) + core->launch_words->first);
    core->put_killed(what, 0, sizeof what, sig);
    bool steps = m.begun && !m.ended && core->launch_words->steps;
    core->supervise_report(who, what, steps, steps ? atomic_load(&core->job->ls->proc[m.me].step) : 0,
                           m.begun ? "" : " before bsp_begin", NULL);
    mpi_die_by_signal(sig);
}

/* Output: mpirun forwards each rank's output in pieces of its own size,
 * so whole lines per write, paced (lines.c), keep lines of different
 * ranks apart. */
static void whole_lines(void)
{
    lines_whole();
}

/* From the first MPI call on (before bsp_begin: a textbook program's
 * processor 0 may fail while reading its input), every failure stops the
 * whole job. */
static void failure_paths_install(void)
{
    *core->launch_fail_hook = mpi_fail;
    *core->launch_claimed_hook = mpi_watch_claimed;
    core->launch_catch_fatal_signals(on_fatal_signal);
    whole_lines();
}

/* ---- the window ------------------------------------------------------------------ */

/* SUPERSTEP_MPI_ONESIDED=1 given, and this rank's MPI_Win_allocate failed
 * with rc: one line, naming /dev/shm when it lacks the bytes of the whole
 * window (a node's shared-memory window holds all its ranks' parts). */
static void window_refused(int rc, size_t bytes) __attribute__((noreturn));
static void window_refused(int rc, size_t bytes)
{
    char err[MPI_MAX_ERROR_STRING] = "", hint[200] = "";
    int len = 0;
    MPI_Error_string(rc, err, &len);
    struct statvfs fs;
    if (statvfs("/dev/shm", &fs) == 0 && (uint64_t)fs.f_bavail * fs.f_frsize < bytes * m.p)
        snprintf(hint, sizeof hint, "/dev/shm has %llu bytes free: free some there, or ",
                 (unsigned long long)fs.f_bavail * fs.f_frsize);
    core->launch_fail(LAUNCH_EXIT_ERROR,
                "bsp_begin: processor %u, superstep 0: MPI_Win_allocate of %zu bytes failed "
                "(SUPERSTEP_MPI_ONESIDED=1): %s; %sset SUPERSTEP_MPI_ONESIDED=0 for two-sided puts",
                m.me, bytes, err, hint);
}

/* Room in /dev/shm for the node's whole window (every rank's part: an
 * upper bound), where an MPI hangs without it: docs/mpi.md, "Vendor notes", shm-full. */
static bool shm_room(size_t bytes)
{
#ifdef OPEN_MPI
    struct statvfs fs;
    return statvfs("/dev/shm", &fs) != 0 || (uint64_t)fs.f_bavail * fs.f_frsize >= bytes * m.p;
#else
    (void)bytes;
    return true;
#endif
}

/* MPI_Win_allocate, returning where this MPI cannot make the window (no
 * one-sided component for the transport, /dev/shm full: docs/mpi.md)
 * instead of ending the job; true where every rank has one. */
static bool window_allocate(size_t bytes)
{
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "accumulate_ordering", "none");
    MPI_Info_set(info, "same_size", "true");
    MPI_Info_set(info, "same_disp_unit", "true");
    MPI_Errhandler was;
    MPI_Comm_get_errhandler(m.comm, &was);
    MPI_Comm_set_errhandler(m.comm, MPI_ERRORS_RETURN);
    int rc = MPI_Win_allocate((MPI_Aint)bytes, 1, info, m.comm, &m.wbase, &m.win);
    MPI_Comm_set_errhandler(m.comm, was);
    MPI_Errhandler_free(&was);
    MPI_Info_free(&info);
    int ok = rc == MPI_SUCCESS, all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, m.comm);
    if (all)
        return true;
    if (core->setting_given(SET_MPI_ONESIDED)) {
        if (!ok)
            window_refused(rc, bytes);
        mpi_await_abort(LAUNCH_EXIT_ERROR); /* a rank that failed names it */
    }
    /* Not freed where made: MPI_Win_free is collective over the window,
     * which the failed ranks lack. */
    m.win = MPI_WIN_NULL;
    return false;
}

/* Expose 2 P slices of receive room to one-sided puts (collective). */
static void window_open(void)
{
    m.onesided = m.p > 1 && core->setting_num(SET_MPI_ONESIDED) == 1;
    /* Kernels spawned by an Epiphany host: two-sided unless asked.  The
     * window costs every run (an Epiphany host spawns its kernels per
     * ebsp_spmd): with 16 kernels on 2 loaded cores MPI_Win_allocate took
     * 19 s of a 64 MiB window, 1.9 s of a 4 MiB one; kernels move little. */
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL && !core->setting_given(SET_MPI_ONESIDED))
        m.onesided = false;
    if (!m.onesided)
        return;
    size_t total = (size_t)core->setting_num(SET_MPI_WINDOW);
    size_t slice = total / (2 * (size_t)m.p);
    if (slice > (4u << 20))
        slice = 4u << 20;
    slice &= ~(size_t)63;
    /* Every rank computes the same slice; all must agree on one-sided. */
    int room = shm_room(2 * (size_t)m.p * slice), use = slice >= 4096 && room, all = 0;
    MPI_Allreduce(&use, &all, 1, MPI_INT, MPI_LAND, m.comm);
    if (!all && !room && core->setting_given(SET_MPI_ONESIDED))
        window_refused(MPI_ERR_NO_MEM, 2 * (size_t)m.p * slice);
    if (!all && core->setting_given(SET_MPI_ONESIDED) && slice >= 4096)
        mpi_await_abort(LAUNCH_EXIT_ERROR); /* a rank without room names it */
    if (!all) {
        m.onesided = false;
        return;
    }
    if (!window_allocate(2 * (size_t)m.p * slice)) {
        m.onesided = false;
        return;
    }
    m.slice = slice;
    MPI_Win_lock_all(MPI_MODE_NOCHECK, m.win);
}

static void window_close(void)
{
    if (m.win == MPI_WIN_NULL)
        return;
    MPI_Win_unlock_all(m.win);
    MPI_Win_free(&m.win);
    m.win = MPI_WIN_NULL;
    m.onesided = false;
}

/* ---- begin and end -------------------------------------------------------------- */

/* Processor 0's bsp_begin, to every other rank: p (0: no run comes), and
 * the function bsp_init gave it, which the ranks resting between runs
 * start (rest).  Every rank runs the same program, but each maps its
 * objects where it likes: the function travels as the object that holds
 * it (its name, "" for the program) and its offset there. */
struct begin_note {
    int32_t p;
    uint32_t has_fn;
    uint64_t off;
    char obj[240];
};

struct fn_find {
    uintptr_t addr, off;
    const char *obj;
};

static int object_holding(struct dl_phdr_info *o, size_t size, void *arg)
{
    (void)size;
    struct fn_find *f = arg;
    for (int i = 0; i < o->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &o->dlpi_phdr[i];
        uintptr_t lo = o->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && f->addr >= lo && f->addr - lo < ph->p_memsz) {
            f->off = f->addr - o->dlpi_addr;
            f->obj = o->dlpi_name;
            return 1;
        }
    }
    return 0;
}

static int object_named(struct dl_phdr_info *o, size_t size, void *arg)
{
    (void)size;
    struct fn_find *f = arg;
    if (strncmp(o->dlpi_name, f->obj, sizeof ((struct begin_note *)0)->obj - 1))
        return 0;
    f->addr = o->dlpi_addr + f->off;
    return 1;
}

static void send_nprocs(int32_t p)
{
    struct begin_note note = { .p = p };
    struct fn_find f = { .addr = (uintptr_t)m.spmd };
    if (p && m.spmd && dl_iterate_phdr(object_holding, &f)) {
        note.has_fn = 1;
        note.off = f.off;
        snprintf(note.obj, sizeof note.obj, "%s", f.obj);
    }
    MPI_Request *q = calloc((size_t)m.world, sizeof *q);
    if (!q)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: out of memory");
    for (int r = 1; r < m.world; r++)
        MPI_Isend(&note, (int)sizeof note, MPI_BYTE, r, TAG_BEGIN, MPI_COMM_WORLD, &q[r - 1]);
    MPI_Waitall(m.world - 1, q, MPI_STATUSES_IGNORE);
    free(q);
}

/* Wait for processor 0's begin_note; its p, and in *fn (unless NULL) this
 * rank's address of its function (NULL: none). */
static int32_t await_begin(void (**fn)(void))
{
    struct begin_note note;
    mpi_wait_probe(0, TAG_BEGIN, MPI_COMM_WORLD, MPI_STATUS_IGNORE, 0);
    MPI_Recv(&note, (int)sizeof note, MPI_BYTE, 0, TAG_BEGIN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    note.obj[sizeof note.obj - 1] = 0;
    struct fn_find f = { .off = note.off, .obj = note.obj };
    if (fn)
        *fn = note.has_fn && dl_iterate_phdr(object_named, &f) ? (void (*)(void))f.addr : NULL;
    return note.p;
}

/* A rank that learns that processor 0 ended the program leaves with status
 * 0 (a rank not needed by a run rests meanwhile). */
static void leave_quietly(void)
{
    if (m.begun)
        mpi_watch_settle(); /* ended cleanly, as the last run did */
    *core->launch_fail_hook = NULL;
    fflush(NULL);
    lines_flush();
    MPI_Finalize();
    mpi_watch_end();
    _exit(0);
}

/* The processors a run needs are its first p ranks; each rank answers
 * (collective on MPI_COMM_WORLD).  Does this one take part? */
static bool take_part(uint32_t nprocs)
{
    idle_barrier();
    int color = (uint32_t)m.wrank < nprocs ? 0 : MPI_UNDEFINED;
    MPI_Comm_split(MPI_COMM_WORLD, color, m.wrank, &m.comm);
    return color != MPI_UNDEFINED;
}

static int64_t mpi_agree(int64_t nprocs);

/* A rank other than 0 between runs (after its bsp_end, or not needed by
 * a run): processor 0 runs main alone, as on shm.  It waits for processor
 * 0's next bsp_begin and starts the function processor 0 gave bsp_init
 * from its first line, as MulticoreBSP starts a run's other processors;
 * there bsp_begin joins the run.  When processor 0 ends the program
 * (p 0) it leaves.  Entered once: a later run's bsp_end comes back here
 * (nothing of the function runs after its bsp_end, as on shm, where such
 * a processor exits), so the stack does not grow with the runs. */
static void rest(void) __attribute__((noreturn));
static void rest(void)
{
    static jmp_buf top;
    static bool resting;
    if (resting)
        longjmp(top, 1);
    resting = true;
    (void)setjmp(top);
    for (;;) {
        void (*fn)(void) = NULL;
        int32_t p = await_begin(&fn);
        if (p == 0)
            leave_quietly();
        m.pending = p;
        if ((uint32_t)m.wrank >= (uint32_t)p) { /* not needed: answer, and rest again */
            mpi_agree(p);
            take_part((uint32_t)p);
            continue;
        }
        if (!fn)
            core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: processor %d cannot find the function processor 0 gave "
                        "bsp_init in its own memory", m.wrank);
        fn();
        exit(0); /* returned without bsp_begin, or without bsp_end: reported at exit */
    }
}

/* Processor 0 decides p, as on shm, where it forks the others: a textbook
 * program's processor 0 reads it from stdin after bsp_init, while the
 * other ranks enter bsp_begin from spmd without it.  Processor 0 sends it
 * to every rank, and each answers that it has come to bsp_begin; one that
 * ended the program first has said so instead (left_before_begin), and
 * processor 0 stops the job naming it, rather than wait for it. */
static int64_t mpi_agree(int64_t nprocs)
{
    mpi_init();
    if (m.begun && !m.stays) /* MPI was finalized at bsp_end */
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: the mpi device runs one bsp_begin ... bsp_end per program "
                                       "where MPI is not its own (started by the program, or an Epiphany "
                                       "host's kernel)");
    if (m.world == 1 || m.claimed)
        return nprocs;
    if (m.wrank != 0) {
        int32_t p = m.pending, joined = JOINED; /* p came while the rank rested */
        m.pending = 0;
        if (!p)
            p = await_begin(NULL);
        if (p == 0)
            leave_quietly();
        MPI_Send(&joined, 1, MPI_INT32_T, 0, TAG_JOIN, MPI_COMM_WORLD);
        return p;
    }
    if (nprocs < 1 || nprocs > m.world)
        return nprocs; /* bsp_begin reports it, and the job stops */
    if (core->bsp->spmd) /* a run without bsp_init of its own starts the last one's (the others rest, see rest) */
        m.spmd = core->bsp->spmd;
    if (m.begun && !m.spmd)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: a second run on the mpi device needs bsp_init(spmd, argc, "
                                       "argv) before it: processors 1..%lld start spmd, as in MulticoreBSP (they "
                                       "cannot continue from processor 0's bsp_begin)", (long long)nprocs - 1);
    send_nprocs((int32_t)nprocs);
    for (int r = 1; r < m.world; r++) {
        int32_t note = JOINED;
        MPI_Recv(&note, 1, MPI_INT32_T, r, TAG_JOIN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (note != JOINED)
            core->launch_fail(LAUNCH_EXIT_ERROR,
                        "bsp_begin: processor %d ended the program with status %d before calling bsp_begin", r,
                        note);
    }
    return nprocs;
}

static int mpi_begin(uint32_t nprocs, uint32_t *me, void (*setup)(struct segment *))
{
    mpi_init();
    if (nprocs > (uint32_t)m.world)
        core->launch_fail(LAUNCH_EXIT_ERROR,
                    "bsp_begin: %u processors requested, but the MPI job has %d ranks (start it with mpirun -n %u)",
                    nprocs, m.world, nprocs);
    if (!take_part(nprocs)) {
        if (m.stays)
            rest();
        leave_quietly(); /* MPI_Finalize waits for the job to end */
    }
    m.p = nprocs;
    m.me = (uint32_t)m.wrank;
    int rc = core->seg_create(&core->job->seg, core->seg_size_from_env(), nprocs);
    if (rc)
        return rc;
    core->job->nprocs = nprocs;
    core->job->me = m.me;
    core->job->starter = false;
    core->job->ls = core->launch_setup(&core->job->seg, nprocs);
    if (!core->job->ls)
        return -ENOMEM;
    atomic_store(&core->job->ls->proc[m.me].os_pid, getpid());
    MPI_Comm parent = MPI_COMM_NULL;
    MPI_Comm_get_parent(&parent);
    if (parent == MPI_COMM_NULL) /* a kernel's end is its host's concern (hmpi.c) */
        core->job->step_mirror = mpi_watch_arm(m.me);
    if (setup)
        setup(&core->job->seg);
    m.out = calloc(nprocs, sizeof *m.out);
    m.in = calloc(nprocs, sizeof *m.in);
    m.meta_s = calloc(META * (size_t)nprocs, sizeof *m.meta_s);
    m.meta_r = calloc(META * (size_t)nprocs, sizeof *m.meta_r);
    m.put_to = calloc(nprocs, sizeof *m.put_to);
    m.ws = calloc(nprocs, sizeof *m.ws);
    if (!m.out || !m.in || !m.meta_s || !m.meta_r || !m.put_to || !m.ws)
        return -ENOMEM;
    device_mpi.windows = m.ws;
    m.seq = 0;
    /* Agreed, so that a rank whose environment lacks the setting still
     * sends its counts the way the others receive them. */
    pid_t *pids = calloc(nprocs, sizeof *pids);
    m.watchers = pids ? mpi_wait_watchers(m.comm, device_mpi.late && device_mpi.late->period, pids) : NULL;
    for (uint32_t q = 0; m.watchers && q < nprocs; q++) /* the stall line's /proc looks (stall.c) */
        atomic_store(&core->job->ls->proc[q].os_pid, pids[q]);
    free(pids);
    if (!m.watchers)
        return -ENOMEM;
    m.watched = memchr(m.watchers, 1, nprocs) != NULL;
    if (parent == MPI_COMM_NULL)
        core->job->node_mirror = mpi_node_open(m.comm, nprocs, m.me);
    window_open();
    mpi_direct_open(m.comm);
    mpi_hp_open(m.comm, nprocs);
    device_mpi.direct_at_sync = !core->setting_num(SET_NO_DIRECT);
    device_mpi.applied = mpi_direct_applied;
    m.begun = true;
    m.ended = false;
    *me = m.me;
    return 0;
}

static void mpi_end(void)
{
    if (m.stays)
        mpi_watch_disarm(); /* until the next run: settled when the program ends */
    else
        mpi_watch_settle();
    core->job->step_mirror = NULL;
    window_close();
    mpi_direct_close();
    mpi_hp_close();
    for (uint32_t q = 0; q < m.p; q++) {
        free(m.out[q].buf);
        free(m.in[q].priv[0]);
        free(m.in[q].priv[1]);
    }
    free(m.out);
    free(m.in);
    free(m.meta_s);
    free(m.meta_r);
    free(m.req);
    free(m.put_to);
    free(m.ws);
    free(m.watchers);
    m.watchers = NULL;
    device_mpi.windows = NULL;
    m.out = NULL, m.in = NULL, m.meta_s = m.meta_r = NULL, m.req = NULL, m.put_to = NULL, m.ws = NULL;
    m.nreq = m.capreq = 0;
    m.ended = true;
    atomic_store(&core->job->ls->proc[m.me].ended, 1);
    if (core->job->node_mirror)
        atomic_store(&core->job->node_mirror->ended, 1);
    core->job->node_mirror = NULL;
    mpi_node_close();
    kernel_ended();
    MPI_Comm_free(&m.comm);
    fflush(NULL);
    lines_flush();
    if (!m.stays) { /* no run follows: MPI is the program's, or a kernel's that its host ends */
        if (m.we_inited)
            MPI_Finalize();
        *core->launch_fail_hook = NULL;
        *core->launch_claimed_hook = NULL;
        static const int sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);
        if (m.me != 0) {
            mpi_watch_end();
            _exit(0);
        }
    }
    core->seg_detach(&core->job->seg);
    core->job->ls = NULL;
    if (m.me != 0) /* as on shm: only processor 0 continues after bsp_end */
        rest();
}

/* ---- streams -------------------------------------------------------------------- */

static bool reserve(char **buf, size_t *cap, size_t need)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 4096;
    while (c < need)
        c *= 2;
    char *b = realloc(*buf, c);
    if (!b)
        return false;
    *buf = b;
    *cap = c;
    return true;
}

/* The BSP layer appends small records through windows (device.h) over the
 * free end of each stream's buffer: take in what it appended, then hand it
 * the room again after a change. */
static inline void take(uint32_t dst)
{
    if (m.ws[dst].at)
        m.out[dst].len = (size_t)(m.ws[dst].at - m.out[dst].buf);
}

static inline void give(uint32_t dst)
{
    struct obuf *o = &m.out[dst];
    m.ws[dst].at = o->buf ? o->buf + o->len : NULL;
    m.ws[dst].end = o->buf ? o->buf + o->cap : NULL;
}

static bool mpi_write(uint32_t dst, const void *buf, size_t n)
{
    struct obuf *o = &m.out[dst];
    if (!n)
        return true;
    take(dst);
    if (o->len + n > o->cap && !reserve(&o->buf, &o->cap, o->len + n))
        return false;
    memcpy(o->buf + o->len, buf, n);
    o->len += n;
    give(dst);
    return true;
}

static void *mpi_claim(uint32_t dst, size_t n)
{
    struct obuf *o = &m.out[dst];
    take(dst);
    if (o->len + n > o->cap && !reserve(&o->buf, &o->cap, o->len + n < 4096 ? 4096 : o->len + n))
        return NULL;
    void *at = o->buf + o->len;
    o->len += n;
    give(dst);
    return at;
}

static MPI_Request *new_request(void)
{
    if (m.nreq == m.capreq) {
        size_t c = m.capreq ? 2 * m.capreq : 64;
        MPI_Request *r = realloc(m.req, c * sizeof *r);
        if (!r)
            core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: out of memory for MPI requests");
        m.req = r;
        m.capreq = c;
    }
    return &m.req[m.nreq++];
}

#define TAG_DONE 2

static void post(bool send, char *buf, uint64_t n, uint32_t peer)
{
    while (n) {
        int c = (int)(n < CHUNK ? n : CHUNK);
        if (send)
            MPI_Isend(buf, c, MPI_BYTE, (int)peer, TAG_DATA, m.comm, new_request());
        else
            MPI_Irecv(buf, c, MPI_BYTE, (int)peer, TAG_DATA, m.comm, new_request());
        buf += c;
        n -= (uint64_t)c;
    }
}

static void queue_piece(struct ibuf *b, const char *at, size_t len)
{
    if (b->n == NPIECE)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: internal error: more than %d exchanges unread", NPIECE);
    b->q[(b->head + b->n++) % NPIECE] = (struct piece){ at, len };
    b->left += len;
}

/* A two-sided landing buffer of n bytes for this parity (its last contents
 * were read before the previous exchange). */
static char *landing(struct ibuf *b, int par, size_t n)
{
    if (n > b->cap[par] && !reserve(&b->priv[par], &b->cap[par], n))
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: out of memory receiving %zu bytes", n);
    return b->priv[par];
}

/* ---- SUPERSTEP_STALL_TIMEOUT ------------------------------------------------------ */

/* The BSP layer names the processors still computing from each one's
 * collective call (stall.c); on shm it reads them in the shared segment.
 * Here, while the setting is on, an exchange's counts travel point to
 * point with the sender's call and superstep: a rank that has waited
 * longer than the setting sees which peers have come (their counts are
 * here) and which still compute (not yet), with nothing to ask and no
 * answer to wait for.  Its copy of their records is set from that, and the
 * layer's hook reports them and stops the job. */

/* Each peer's record, from its counts if they came (recv: one receive per
 * peer, in order; a completed one is MPI_REQUEST_NULL from then on).
 * Returns the rank to report: the lowest watching one of those waiting
 * here, so that ranks whose periods end together print one line, also on
 * several machines; the others wait on for the job's stop. */
static uint32_t note_peers(MPI_Request *recv)
{
    uint64_t step = atomic_load(&core->job->ls->proc[m.me].step);
    uint32_t reporter = m.me;
    for (uint32_t q = 0; q < m.p; q++) {
        if (q == m.me)
            continue;
        int came = 0;
        MPI_Test(recv++, &came, MPI_STATUS_IGNORE);
        if (came && m.watchers[q] && q < reporter)
            reporter = q;
        const uint64_t *meta = m.meta_r + META * q;
        atomic_store(&core->job->ls->proc[q].call, came ? (uint32_t)meta[3] : 0); /* 0: computing (CALL_NONE) */
        atomic_store(&core->job->ls->proc[q].step, came ? meta[4] : step);
        atomic_store(&core->job->ls->proc[q].ended, 0);
    }
    return reporter;
}

/* The counts, point to point; at each end of the watch's period the peers
 * not come are reported (the watch stops the job, or returns when every
 * peer is in some call), on one rank (note_peers). */
static void exchange_watched(void)
{
    m.nreq = 0;
    for (uint32_t q = 0; q < m.p; q++)
        if (q != m.me)
            MPI_Irecv(m.meta_r + META * q, META, MPI_UINT64_T, (int)q, TAG_META, m.comm, new_request());
    for (uint32_t q = 0; q < m.p; q++) {
        uint64_t *meta = m.meta_s + META * q;
        meta[3] = atomic_load(&core->job->ls->proc[m.me].call);
        meta[4] = atomic_load(&core->job->ls->proc[m.me].step);
        if (q != m.me)
            MPI_Isend(meta, META, MPI_UINT64_T, (int)q, TAG_META, m.comm, new_request());
    }
    memcpy(m.meta_r + META * m.me, m.meta_s + META * m.me, META * sizeof *m.meta_r);
    struct late_timer late;
    core->late_start(&late, device_mpi.late, core->now_ns());
    while (!mpi_wait_all_until((int)m.nreq, m.req, late.w ? late.due : 0)) {
        int64_t t = core->now_ns();
        if (core->late_due(&late, t) && note_peers(m.req) == m.me)
            late.w->late(t - late.start);
    }
    m.nreq = 0;
}

/* The counts and flags, one MPI_Alltoall, or point to point where a rank
 * has SUPERSTEP_STALL_TIMEOUT (m.watched; the watch: bsp_stall_arm).  Where
 * every node has a CPU per rank the blocking collective: its wait spins,
 * as the one wait would there, and it costs less than MPI_Ialltoall and
 * MPI_Test (bench/RESULTS_mpi.md, "The waits"). */
static void exchange_meta(void)
{
    if (m.watched) {
        exchange_watched();
    } else if (mpi_wait_blocking_collectives()) {
        MPI_Alltoall(m.meta_s, META, MPI_UINT64_T, m.meta_r, META, MPI_UINT64_T, m.comm);
    } else {
        MPI_Request r;
        MPI_Ialltoall(m.meta_s, META, MPI_UINT64_T, m.meta_r, META, MPI_UINT64_T, m.comm, &r);
        mpi_wait_all(1, &r);
    }
}

static uint64_t mpi_exchange(uint64_t flags)
{
    if (!mpi_watch_intact()) /* before MPI, which may block for ever on what was closed */
        core->bsp_error(XGET(flags, XF_END) ? "bsp_end" : "bsp_sync", "%s", MPI_WATCH_CLOSED);
    uint32_t p = m.p, me = m.me;
    int par = (int)(m.seq++ & 1);
    for (uint32_t q = 0; q < p; q++) {
        take(q);
        m.meta_s[META * q] = m.out[q].len;
        m.meta_s[META * q + 1] = flags;
    }
    mpi_hp_counts(m.meta_s + 2, META);
    exchange_meta();
    uint64_t sum = 0;
    size_t slice = m.onesided ? m.slice : 0;
    bool got_put = false;
    m.nreq = 0;
    for (uint32_t q = 0; q < p; q++) {
        sum += m.meta_r[META * q + 1] + XFLAG(XF_COUNT);
        uint64_t n = m.meta_r[META * q];
        if (!n || q == me)
            continue;
        if (n <= slice) { /* put into my window; an empty message says it is there */
            queue_piece(&m.in[q], m.wbase + ((size_t)par * p + q) * slice, (size_t)n);
            MPI_Irecv(NULL, 0, MPI_BYTE, (int)q, TAG_DONE, m.comm, new_request());
            got_put = true;
        } else {
            char *at = landing(&m.in[q], par, (size_t)n);
            queue_piece(&m.in[q], at, (size_t)n);
            post(false, at, n, q);
        }
    }
    uint32_t nput = 0;
    for (uint32_t q = 0; q < p; q++) {
        size_t n = m.out[q].len;
        if (!n || q == me)
            continue;
        if (n <= slice) {
            MPI_Put(m.out[q].buf, (int)n, MPI_BYTE, (int)q, (MPI_Aint)(((size_t)par * p + me) * slice), (int)n,
                    MPI_BYTE, m.win);
            m.put_to[nput++] = q;
        } else {
            post(true, m.out[q].buf, n, q);
        }
    }
    if (nput) {
        MPI_Win_flush_all(m.win);
        for (uint32_t i = 0; i < nput; i++)
            MPI_Isend(NULL, 0, MPI_BYTE, (int)m.put_to[i], TAG_DONE, m.comm, new_request());
    }
    /* To myself: the stream's buffer becomes this parity's landing buffer. */
    struct obuf *o = &m.out[me];
    if (o->len) {
        struct ibuf *b = &m.in[me];
        char *t = b->priv[par];
        size_t c = b->cap[par];
        b->priv[par] = o->buf, b->cap[par] = o->cap;
        queue_piece(b, b->priv[par], o->len);
        o->buf = t, o->cap = c;
    }
    mpi_hp_exchange(m.meta_r + 2, META);
    if (m.nreq)
        mpi_wait_all((int)m.nreq, m.req);
    if (got_put)
        MPI_Win_sync(m.win);
    for (uint32_t q = 0; q < p; q++) {
        m.out[q].len = 0;
        give(q);
    }
    return sum;
}

static uint64_t mpi_meet(uint64_t flags, uint32_t *other, uint64_t *theirs)
{
    for (uint32_t q = 0; q < m.p; q++) {
        m.meta_s[META * q] = 0; /* nothing sent: the streams stay for the next exchange */
        m.meta_s[META * q + 1] = flags;
        m.meta_s[META * q + 2] = 0;
    }
    exchange_meta();
    uint64_t sum = 0;
    *other = m.p;
    *theirs = flags;
    for (uint32_t q = 0; q < m.p; q++) {
        sum += m.meta_r[META * q + 1] + XFLAG(XF_COUNT);
        if (*other == m.p && m.meta_r[META * q + 1] != flags) {
            *other = q;
            *theirs = m.meta_r[META * q + 1];
        }
    }
    return sum;
}

static uint64_t mpi_incoming(uint32_t src)
{
    return m.in[src].left;
}

static const void *mpi_peek(uint32_t src, uint64_t limit, size_t *len)
{
    struct ibuf *b = &m.in[src];
    if (!b->n) {
        *len = 0;
        return NULL;
    }
    const struct piece *c = &b->q[b->head];
    size_t here = c->len - b->off;
    *len = (size_t)(here < limit ? here : limit);
    return c->at + b->off;
}

static void mpi_consume(uint32_t src, size_t n)
{
    struct ibuf *b = &m.in[src];
    b->left -= n;
    b->off += n;
    while (b->n && b->off >= b->q[b->head].len) {
        b->off -= b->q[b->head].len;
        b->head = (b->head + 1) % NPIECE;
        b->n--;
    }
}

static void mpi_scan_begin(uint32_t src)
{
    m.in[src].scan_i = 0;
    m.in[src].scan_off = m.in[src].off;
}

/* Read (buf) or skip (buf NULL) n bytes at the pre-scan cursor. */
static void scan(uint32_t src, char *buf, uint64_t n)
{
    struct ibuf *b = &m.in[src];
    while (n) {
        if (b->scan_i >= b->n)
            core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_sync: stream from processor %u ended inside a record", src);
        const struct piece *c = &b->q[(b->head + b->scan_i) % NPIECE];
        size_t here = c->len - b->scan_off;
        size_t k = (size_t)(here < n ? here : n);
        if (buf) {
            memcpy(buf, c->at + b->scan_off, k);
            buf += k;
        }
        b->scan_off += k;
        n -= k;
        if (b->scan_off == c->len) {
            b->scan_i++;
            b->scan_off = 0;
        }
    }
}

static void mpi_scan_read(uint32_t src, void *buf, size_t n)
{
    scan(src, buf, n);
}

static void mpi_scan_skip(uint32_t src, uint64_t n)
{
    scan(src, NULL, n);
}

static void mpi_share(void *base, size_t n)
{
    if (m.p <= 1)
        return;
    MPI_Request r;
    MPI_Iallgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, base, (int)n, MPI_BYTE, m.comm, &r);
    mpi_wait_all(1, &r);
}

struct device device_mpi = {
    .name = "mpi",
    .begin = mpi_begin,
    .end = mpi_end,
    .write = mpi_write,
    .claim = mpi_claim,
    .exchange = mpi_exchange,
    .incoming = mpi_incoming,
    .peek = mpi_peek,
    .consume = mpi_consume,
    .scan_begin = mpi_scan_begin,
    .scan_read = mpi_scan_read,
    .scan_skip = mpi_scan_skip,
    .direct = false, /* direct_at_sync: set at begin */
    .direct_min = MPI_HP_DIRECT_MIN,
    .direct_write = mpi_hp_write,
    .direct_read = mpi_hp_read,
    .expose = mpi_direct_expose,
    .withdraw = mpi_direct_withdraw,
    .remote_read = mpi_direct_read,
    .world = mpi_world,
    .share = mpi_share,
    .agree = mpi_agree,
    .meet = mpi_meet,
};
