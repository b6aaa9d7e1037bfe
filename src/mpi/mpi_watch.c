/*
 * mpi_watch.c - the rank's watcher (mpi_watch.h): a process the rank forks
 * (twice, so that it is no child of the rank's) before MPI_Init, which
 * waits on a socket only the rank holds and a pidfd of the rank and, when
 * the rank ends inside a job without anybody reporting it, prints the line
 * shm's supervisor prints for processor 0:
 *
 *   superstep: processor 2 killed by signal 9 (SIGKILL) in superstep 1
 *   superstep: processor 2 exited with status 0 in superstep 1 without calling bsp_end
 *
 * Its launcher (mpirun, orted, Hydra's proxy) sees the rank end without
 * MPI_Finalize and stops the job; the watcher stops nothing.
 *
 * After the fork only async-signal-safe calls run in the watcher (the rank
 * may have had threads): no stdio, no malloc, no code of the program's.
 */
#include "mpi/mpi_watch.h"
#include "mpi/lines.h"
#include "mpi/mpi_fail.h"
#include "launch/launch.h"
#include "launch/supervise.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

/* The pidfd's exit information (Linux 6.15; Debian 12's headers predate it). */
struct watch_pidfd_info {
    uint64_t mask, cgroupid;
    uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid, fsgid;
    int32_t exit_code;
    uint32_t coredump_mask, spare;
};
#define WATCH_PIDFD_GET_INFO _IOWR(0xFF, 11, struct watch_pidfd_info)
#define WATCH_PIDFD_INFO_EXIT (1ull << 3)

enum { IDLE, ARMED, SETTLED };

/* Shared by the rank and its watcher (MAP_SHARED, made before the fork). */
struct watch_page {
    _Atomic uint32_t state;
    _Atomic uint64_t step;     /* the rank's superstep (job.step_mirror) */
    uint32_t steps;            /* name the superstep */
    _Atomic uint32_t term_caught; /* on_term is SIGTERM's action: a pending SIGTERM was not fatal */
    char who[32], end_call[32];
};

static struct watch_page *page; /* NULL: no watcher */
static pid_t rank_pid;          /* the rank the claim and page belong to (not a process it forks) */
static pid_t launcher;          /* the rank's parent when the watcher started */
static int claim_fd = -1;       /* shared with the watcher: bound = the job's line claimed */
static int pmi_fd = -1;         /* Hydra's PMI connection (PMI_FD), held by the watcher too */
static bool pmi_launched;       /* started by a PMI launcher (MPICH's Hydra: PMI_FD or PMI_PORT) */
static int hang[2] = { -1, -1 }; /* a socket pair: the rank's end [1] closes as it exits */
static int rank_fd = -1;        /* the rank's pidfd, opened by the rank before the fork */

/* ---- the claim ---------------------------------------------------------------- */

static uint64_t job_tag;        /* the launcher's name of the job, hashed (0: none given) */

/* "\0superstep-mpi-UID-LAUNCHER-JOB": one name per job and launcher (the
 * ranks of this machine share it; every rank of a plain mpirun on one
 * machine).  The job's name tells apart the jobs of one long-lived
 * launcher (Open MPI's DVM, prte), whose later jobs would find the first
 * one's claim. */
static socklen_t claim_name(struct sockaddr_un *a)
{
    memset(a, 0, sizeof *a);
    a->sun_family = AF_UNIX;
    char *name = a->sun_path + 1; /* after the abstract name's leading NUL */
    size_t cap = sizeof a->sun_path - 1;
    size_t at = core->launch_put_str(name, 0, cap, "superstep-mpi-");
    at = core->launch_put_u64(name, at, cap, (uint64_t)getuid());
    at = core->launch_put_str(name, at, cap, "-");
    at = core->launch_put_u64(name, at, cap, (uint64_t)launcher);
    at = core->launch_put_str(name, at, cap, "-");
    at = core->launch_put_u64(name, at, cap, job_tag);
    return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + at);
}

static bool claimed_here(void)
{
    struct sockaddr_un a;
    socklen_t len = sizeof a;
    return getsockname(claim_fd, (struct sockaddr *)&a, &len) == 0 && len > sizeof(sa_family_t);
}

static bool claim(void)
{
    if (claimed_here())
        return true;
    struct sockaddr_un a;
    socklen_t len = claim_name(&a);
    return bind(claim_fd, (struct sockaddr *)&a, len) == 0 || claimed_here();
}

bool mpi_watch_claim(void)
{
    if (claim_fd < 0 || getpid() != rank_pid) /* no claim, or a process the rank forked */
        return true;
    return claim();
}

bool mpi_watch_holds_claim(void)
{
    return claim_fd >= 0 && claimed_here();
}

/* ---- the watcher ----------------------------------------------------------- */

/* The start of /proc/PID/NAME in buf, NUL-terminated; false when it cannot
 * be read.  Async-signal-safe. */
static bool read_proc(pid_t pid, const char *name, char *buf, size_t size)
{
    char path[64];
    size_t at = core->launch_put_str(path, 0, sizeof path, "/proc/");
    at = core->launch_put_u64(path, at, sizeof path, (uint64_t)pid);
    at = core->launch_put_str(path, at, sizeof path, "/");
    core->launch_put_str(path, at, sizeof path, name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = 0;
    return true;
}

/* The exit code (wait status, field 52) of /proc/PID/stat, readable while
 * the process is a zombie; -1 when it cannot be read (already reaped). */
static int zombie_status(pid_t pid)
{
    char state;
    uint64_t v;
    if (!core->supervise_proc_stat(pid, 52, &state, &v) || (state != 'Z' && state != 'X'))
        return -1; /* not ended (or another process got the pid) */
    return (int)v;
}

/* Was the rank stopped by its launcher?  MPICH's Hydra stops every rank
 * with SIGTERM and at once SIGKILL, so the SIGTERM is still pending (in
 * the process's shared pending set, until it is reaped) when the SIGKILL
 * ends it: the rank's SIGTERM handler (on_term) never ran.  Read while the
 * rank exits or is a zombie (its launcher reaps it only after it is told,
 * which the socket's hang-up precedes); false when it cannot be read. */
static bool stopped_with_sigterm_pending(pid_t pid)
{
    char buf[2048];
    if (!read_proc(pid, "status", buf, sizeof buf))
        return false;
    char *p = strstr(buf, "\nShdPnd:");
    if (!p)
        return false;
    p += 9;
    while (*p == ' ' || *p == '\t')
        p++;
    uint64_t mask = 0;
    for (; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
        mask = mask << 4 | (uint64_t)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
    return mask & (1ull << (SIGTERM - 1));
}

/* How the rank ended (a wait status), told by the kernel: the pidfd's exit
 * information once the launcher has reaped it (Linux 6.15), else the
 * zombie's /proc entry before that; -1 when neither can tell. */
static int rank_status(int pidfd)
{
    struct watch_pidfd_info in;
    for (int look = 0; look < 2; look++) {
        memset(&in, 0, sizeof in);
        in.mask = WATCH_PIDFD_INFO_EXIT;
        if (ioctl(pidfd, WATCH_PIDFD_GET_INFO, &in) == 0 && (in.mask & WATCH_PIDFD_INFO_EXIT))
            return in.exit_code;
        int st = zombie_status(rank_pid);
        if (st >= 0)
            return st;
        /* Reaped between the two looks: the exit information is there now. */
    }
    return -1;
}

/* "superstep: processor 2 killed by signal 9 (SIGKILL) in superstep 1" */
static void report(int status)
{
    char line[256];
    size_t at = core->launch_put_str(line, 0, sizeof line, "superstep: ");
    at = core->launch_put_str(line, at, sizeof line, page->who);
    bool without = true;
    if (status < 0) {
        at = core->launch_put_str(line, at, sizeof line, " ended (how is unknown: its launcher reaped it first)");
    } else if (WIFSIGNALED(status)) {
        at = core->launch_put_str(line, at, sizeof line, " killed by signal ");
        at = core->launch_put_u64(line, at, sizeof line, (uint64_t)WTERMSIG(status));
        at = core->launch_put_str(line, at, sizeof line, " (SIG");
        const char *abbrev = sigabbrev_np(WTERMSIG(status));
        at = core->launch_put_str(line, at, sizeof line, abbrev ? abbrev : "?");
        at = core->launch_put_str(line, at, sizeof line, ")");
        without = false;
    } else {
        at = core->launch_put_str(line, at, sizeof line, " exited with status ");
        at = core->launch_put_u64(line, at, sizeof line, (uint64_t)WEXITSTATUS(status));
    }
    if (page->steps) {
        at = core->launch_put_str(line, at, sizeof line, " in superstep ");
        at = core->launch_put_u64(line, at, sizeof line, atomic_load(&page->step));
    }
    if (without && page->end_call[0]) {
        at = core->launch_put_str(line, at, sizeof line, " without calling ");
        at = core->launch_put_str(line, at, sizeof line, page->end_call);
    }
    at = core->launch_put_str(line, at, sizeof line, "\n");
    (void)!write(2, line, at);
}

/* None of the program's handlers may run here. */
static void own_signals(void)
{
    core->supervise_drop_handlers();
    signal(SIGPIPE, SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Every signal that would end the watcher, but for SIGKILL and the faults
 * of its own code. */
static void ignore_group_signals(void)
{
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD && sig != SIGSEGV && sig != SIGBUS &&
            sig != SIGFPE && sig != SIGILL && sig != SIGABRT && sig != SIGTRAP && sig != SIGSYS)
            signal(sig, SIG_IGN);
}

static void wait_readable(int fd)
{
    struct pollfd p = { fd, POLLIN, 0 };
    while (poll(&p, 1, -1) < 0 && errno == EINTR)
        ;
}

static void watcher_main(void) __attribute__((noreturn));
static void watcher_main(void)
{
    own_signals();
    /* Open MPI's stop (a SIGTERM, and later a SIGKILL, to the rank's
     * group) must not take the watcher with it: its own process group.
     * MPICH's Hydra (PMI) stops the job by killing the other ranks' groups with
     * SIGKILL alone, which a watcher could not tell from a kill of its
     * rank's own: there the watcher stays in its rank's group, and so a
     * rank stopped by Hydra takes its watcher along, silent, and only the
     * watcher of the rank that ended first names it.  A signal the
     * program sends its own group (kill(0, SIGUSR1)) must not end it. */
    if (!pmi_launched)
        setpgid(0, 0);
    else
        ignore_group_signals();
    int launcher_fd = (int)syscall(SYS_pidfd_open, launcher, 0);
    /* Keep only stderr (for the line), the claim and the pidfds: the
     * launcher waits for the end of the rank's output pipes. */
    for (int fd = 0; fd < 2; fd++)
        close(fd);
    close(hang[1]);
    int keep[] = { 2, claim_fd, rank_fd, launcher_fd, pmi_fd, hang[0] };
    int lo = 3;
    for (;;) { /* close everything else above 2, in ranges between kept ones */
        int next = -1;
        for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
            if (keep[i] >= lo && (next < 0 || keep[i] < next))
                next = keep[i];
        if (next < 0) {
            syscall(SYS_close_range, (unsigned)lo, ~0u, 0u);
            break;
        }
        if (next > lo)
            syscall(SYS_close_range, (unsigned)lo, (unsigned)next - 1, 0u);
        lo = next + 1;
    }
    /* The rank's descriptors close as it exits, before its launcher is told
     * (SIGCHLD), on which MPICH's Hydra stops the other ranks: the claim is
     * made from then on (the pidfd also tells, should a process the rank
     * forked hold the socket). */
    for (;;) {
        struct pollfd p[2] = { { rank_fd, POLLIN, 0 }, { hang[0], POLLIN, 0 } };
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (p[0].revents)
            break;
        char note[64];
        if (read(hang[0], note, sizeof note) <= 0)
            break; /* the hang-up */
        /* A note: the rank settled (it reports its own failure, or ended
         * its job): the watcher will print nothing, so let the launcher see
         * the rank's PMI connection and stderr end as the rank leaves them,
         * as without a watcher (MPICH's Hydra took the job's status from
         * another rank now and then while the watcher held them). */
        if (atomic_load(&page->state) == SETTLED) {
            if (pmi_fd > 2)
                close(pmi_fd);
            pmi_fd = -1;
            close(2);
        }
    }
    bool report_it = atomic_load(&page->state) == ARMED &&
                     !(atomic_load(&page->term_caught) && stopped_with_sigterm_pending(rank_pid)) && claim();
    if (!report_it) { /* nothing to say: the rank's output and PMI connection end now */
        if (pmi_fd > 2)
            close(pmi_fd);
        pmi_fd = -1;
        close(2);
    }
    wait_readable(rank_fd); /* the rank has ended: its status is there */
    if (report_it && atomic_load(&page->state) == ARMED) {
        int status = rank_status(rank_fd);
        report(status);
        /* A rank that exited (with 0, say) is no failure to Hydra, which
         * could end the job with 0: abort it on the rank's PMI connection,
         * as the rank's PMI_Abort would (PMI-1's wire command). */
        if (pmi_fd > 2 && (status < 0 || WIFEXITED(status))) {
            static const char abort_cmd[] = "cmd=abort exitcode=1\n";
            /* Hydra drops what its pipes hold once told */
            lines_await_drained(2, mpi_drain_deadline());
            (void)!write(pmi_fd, abort_cmd, sizeof abort_cmd - 1);
        }
    }
    /* Only now may MPICH's Hydra see the rank's PMI connection end, which
     * is what makes it stop the other ranks (with SIGKILL): by then the
     * job's line is claimed, and the ranks it stops find it so. */
    if (pmi_fd > 2)
        close(pmi_fd);
    close(2);
    /* A claim held until the launcher ends: the ranks it stops after this
     * failure are no failures of their own. */
    if (claimed_here() && launcher_fd >= 0)
        wait_readable(launcher_fd);
    _exit(0);
}

/* ---- the rank's side ----------------------------------------------------- */

/* The launcher's own stop of the job (Open MPI's mpirun sends every rank
 * SIGTERM after a failure) is no failure of this rank's: the watcher names
 * nothing.  Any other SIGTERM ends the rank as it would, and is named. */
static void on_term(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    bool rank = page && getpid() == rank_pid; /* not a process the rank forked, which shares the page */
    if (rank)
        atomic_store(&page->term_caught, 0); /* reset: SIGTERM's action is the default now */
    if (rank && si && si->si_code == SI_USER && si->si_pid == launcher)
        atomic_store(&page->state, SETTLED);
    signal(sig, SIG_DFL);
    raise(sig);
}

void mpi_watch_claim_open(void)
{
    if (claim_fd >= 0)
        return;
    launcher = getppid();
    rank_pid = getpid();
    /* FNV-1a of the job's name: PMIx's namespace (Open MPI), PMI's KVS name (MPICH) */
    const char *job_name = getenv("PMIX_NAMESPACE");
    if (!job_name)
        job_name = getenv("PMI_KVSNAME");
    job_tag = job_name ? 0xcbf29ce484222325ull : 0;
    for (const char *c = job_name; c && *c; c++)
        job_tag = (job_tag ^ (unsigned char)*c) * 0x100000001b3ull;
    /* Last: a fatal signal's claim (mpi_watch_claim) uses the name once
     * the socket is there. */
    claim_fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
}

void mpi_watch_start(void)
{
    if (page)
        return;
    mpi_watch_claim_open();
    int fd = claim_fd;
    if (fd < 0)
        return;
    struct watch_page *pg = mmap(NULL, sizeof *pg, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (pg == MAP_FAILED)
        return;
    /* The rank's own pidfd, inherited by the watcher: opened after the
     * double fork, it could name another process that reused the pid of a
     * rank ended meanwhile.  A socket pair rather than a pipe: a note sent
     * after the watcher is gone (killed by somebody) must not raise SIGPIPE
     * in the rank (MSG_NOSIGNAL). */
    rank_fd = (int)syscall(SYS_pidfd_open, getpid(), 0);
    if (rank_fd < 0 || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, hang) != 0) {
        if (rank_fd >= 0)
            close(rank_fd);
        rank_fd = -1;
        munmap(pg, sizeof *pg);
        return;
    }
    mpi_abort_limit(); /* read by the rank, before the fork: the watcher's drain uses it */
    const char *pmi = getenv("PMI_FD"); /* MPICH's Hydra: its connection, inherited at exec */
    pmi_fd = pmi && *pmi ? atoi(pmi) : -1;
    if (pmi_fd <= 2 || pmi_fd == fd || pmi_fd == hang[0] || pmi_fd == hang[1] || pmi_fd == rank_fd ||
        fcntl(pmi_fd, F_GETFD) < 0)
        pmi_fd = -1; /* not an inherited connection */
    pmi_launched = pmi_fd >= 0 || getenv("PMI_PORT");
    rank_pid = getpid();
    page = pg;
    /* Forked twice, so that the watcher is no child of the rank's: a
     * program's wait() for any child must not find it (nor wait for it). */
    bool ok = false;
    pid_t mid = fork();
    if (mid == 0) {
        pid_t w = _Fork(); /* async-signal-safe: the rank may run threads */
        if (w == 0)
            watcher_main();
        _exit(w < 0);
    }
    if (mid > 0) {
        int st = 0;
        pid_t r;
        while ((r = waitpid(mid, &st, 0)) < 0 && errno == EINTR)
            ;
        /* ECHILD: the program ignores SIGCHLD (or reaped it): assume it forked. */
        ok = r < 0 ? errno == ECHILD : WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    close(hang[0]);
    close(rank_fd);
    rank_fd = -1;
    if (!ok) {
        close(hang[1]);
        munmap(pg, sizeof *pg);
        page = NULL;
        return;
    }
    struct sigaction old;
    if (sigaction(SIGTERM, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_term;
        sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
        if (sigaction(SIGTERM, &sa, NULL) == 0)
            atomic_store(&page->term_caught, 1);
    }
}

_Atomic uint64_t *mpi_watch_arm(uint32_t proc)
{
    if (!page || getpid() != rank_pid)
        return NULL;
    size_t at = core->launch_put_str(page->who, 0, sizeof page->who, core->launch_words->proc);
    at = core->launch_put_str(page->who, at, sizeof page->who, " ");
    core->launch_put_u64(page->who, at, sizeof page->who, (uint64_t)proc + core->launch_words->first);
    core->launch_put_str(page->end_call, 0, sizeof page->end_call, core->launch_words->end_call);
    page->steps = core->launch_words->steps;
    atomic_store(&page->step, 0);
    atomic_store(&page->state, ARMED);
    return &page->step;
}

/* Tell the watcher that the rank settled (one byte; the socket never
 * fills: the watcher reads as they come, and a few are sent at most; a
 * watcher that is gone costs nothing). */
static void note_settled(void)
{
    atomic_store(&page->state, SETTLED);
    (void)!send(hang[1], "s", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

void mpi_watch_claimed(void)
{
    if (page)
        note_settled();
    if (claim_fd >= 0)
        claim();
}

void mpi_watch_disarm(void)
{
    if (page && getpid() == rank_pid)
        atomic_store(&page->state, IDLE);
}

void mpi_watch_settle(void)
{
    if (page && getpid() == rank_pid && atomic_load(&page->state) != SETTLED)
        note_settled();
}
