/*
 * mpi_watch.c - the rank's watcher (mpi_watch.h): a child the rank makes
 * before MPI_Init (a clone without an exit signal, so that the program's
 * wait() for any child does not find it), which stays in the rank's
 * process group and session, inside the job: the launcher's stop of the
 * group ends it, and it leaves with its rank.  It waits on a socket only
 * the rank holds and a pidfd of the rank and, when
 * the rank ends inside a job without anybody reporting it, prints the line
 * shm's supervisor prints for processor 0:
 *
 *   superstep: processor 2 killed by signal 9 (SIGKILL) in superstep 1
 *   superstep: processor 2 exited with status 0 in superstep 1 without calling bsp_end
 *
 * Then it ends the job as the rank's own abort would (abort_job): its
 * launcher sees the rank end without MPI_Finalize, but only mpirun stops
 * the job for that in every case; the watcher signals no process.
 *
 * After the fork only async-signal-safe calls run in the watcher (the rank
 * may have had threads): no stdio, no malloc, no code of the program's.
 */
#include "mpi/mpi_watch.h"
#include "mpi/lines.h"
#include "mpi/mpi_fail.h"
#include "mpi/mpi_node.h"
#include "launch/launch.h"
#include "launch/supervise.h" /* struct watch_page */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

static struct watch_page *page; /* NULL: no watcher */
static pid_t rank_pid;          /* the rank the claim and page belong to (not a process it forks) */
static pid_t launcher;          /* the rank's parent when the watcher started */
static int claim_fd = -1;       /* shared with the watcher: bound = the job's line claimed */
static int pmi_fd = -1;         /* the launcher's PMI connection (PMI_FD: pmi-fd), held by the watcher too */
static int hang[2] = { -1, -1 }; /* a socket pair: the rank's end [1] closes as it exits */
static int rank_fd = -1;        /* the rank's pidfd, opened by the rank before the fork */
static pid_t watcher;           /* the watcher, the rank's child */
static ino_t hang_ino;          /* the rank's end of the socket, to tell it from a descriptor reusing its number */

/* ---- the claim ---------------------------------------------------------------- */

static uint64_t job_tag;        /* the launcher's name of the job, hashed (0: none given) */

/* "\0superstep-mpi-UID-LAUNCHER-JOB": one name per job and launcher (the
 * ranks of this machine share it; every rank of a plain mpirun on one
 * machine).  The job's name tells apart the jobs of one long-lived
 * launcher (docs/mpi.md, "Vendor notes", dvm-jobs), whose later jobs would find the first
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
    /* no claim, a process the rank forked, or one that closed the claim's descriptor */
    if (claim_fd < 0 || getpid() != rank_pid || !mpi_watch_intact())
        return true;
    return claim();
}

bool mpi_watch_holds_claim(void)
{
    return claim_fd >= 0 && claimed_here();
}

/* ---- the watcher ----------------------------------------------------------- */

/* Did the rank exec another program?  Told by the kernel, not by a delay
 * nor by the program's name.  exec holds the rank's exec_update_lock from
 * the replacement of its memory (before it closes the descriptors that
 * close on exec, the watcher's socket among them) until it has set every
 * caught signal back to its default action; opening /proc/PID/environ
 * takes that lock (mm_access), so it returns once an exec under way is
 * that far (whether the open is allowed or not).  Then a rank without the
 * runtime's fault handlers (page->caught, field 34 of /proc/PID/stat) has
 * exec'd; an exit keeps them, and so does a zombie until it is reaped. */
static bool rank_execd(void)
{
    char path[48], state;
    uint64_t caught;
    size_t at = core->launch_put_u64(path, core->launch_put_str(path, 0, sizeof path, "/proc/"), sizeof path,
                                     (uint64_t)rank_pid);
    core->launch_put_str(path, at, sizeof path, "/environ");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0)
        close(fd);
    if (!page->caught || !core->supervise_proc_stat(rank_pid, 34, &state, &caught) || !(page->caught & ~caught))
        return false;
    /* Unless that read came as its reaper released it: then no field read
     * under its signal lock is there, its thread count (field 20) 0. */
    uint64_t threads;
    return core->supervise_proc_stat(rank_pid, 20, &state, &threads) && threads > 0;
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
        int st = core->supervise_zombie_status(rank_pid);
        if (st >= 0)
            return st;
        /* Reaped between the two looks: the exit information is there now. */
    }
    return -1;
}

/* Abort the job with EXITCODE (the launcher's status where it takes one),
 * as the rank's own abort would: on the rank's PMI connection (docs/mpi.md,
 * "Vendor notes", pmi-fd), or, for a rank that srun started itself and
 * that has none (PMIx), by scancel of the job's own step, what srun's -K
 * does (srun-signal).  A rank that exited (with 0, say), or runs another
 * program, is no failure to the launcher, nor one killed by a signal to
 * srun.  Its stderr, the rank's last, is closed first, once the launcher
 * has read the line (drop-pipes): the launcher has all of the rank's
 * output before it stops the job (under load a cancelled step lost what
 * its node's slurmstepd still had to send, Open MPI's page included). */
static void abort_job(int exitcode)
{
    char cmd[48];
    bool srun = pmi_fd <= 2 && mpi_srun_direct();
    if (pmi_fd > 2 || srun)
        lines_await_drained(2, mpi_drain_deadline());
    close(2);
    if (pmi_fd > 2) {
        size_t at = core->launch_put_str(cmd, 0, sizeof cmd, "cmd=abort exitcode=");
        at = core->launch_put_u64(cmd, at, sizeof cmd, (uint64_t)exitcode);
        at = core->launch_put_str(cmd, at, sizeof cmd, "\n");
        (void)!write(pmi_fd, cmd, at);
    }
    if (!srun)
        return;
    pid_t c = (pid_t)syscall(SYS_clone, (unsigned long)SIGCHLD, 0ul, NULL, NULL, 0ul);
    if (c == 0) {
        char *argv[] = { "sh", "-c", "exec scancel --quiet \"$SLURM_JOB_ID.$SLURM_STEP_ID\" 2>/dev/null", NULL };
        execve("/bin/sh", argv, environ);
        _exit(127);
    }
    while (c > 0 && waitpid(c, NULL, 0) < 0 && errno == EINTR)
        ;
}

/* None of the program's handlers may run here.  In the rank's group, the
 * launcher's stop of it (a SIGKILL) ends the watcher too, but no signal
 * the program or the launcher sends the group to be caught (kill(0,
 * SIGUSR1), a SIGTERM) may: all are ignored but the faults of its own code. */
static void own_signals(void)
{
    for (int sig = 1; sig < NSIG; sig++)
        if (sig != SIGKILL && sig != SIGSTOP)
            signal(sig, sig == SIGCHLD || sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL ||
                                sig == SIGABRT || sig == SIGTRAP || sig == SIGSYS
                            ? SIG_DFL
                            : SIG_IGN);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
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
    int launcher_fd = (int)syscall(SYS_pidfd_open, launcher, 0);
    /* Keep only stderr (for the line), the claim and the pidfds: the
     * launcher waits for the end of the rank's output pipes. */
    for (int fd = 0; fd < 2; fd++)
        close(fd);
    int keep[] = { claim_fd, rank_fd, launcher_fd, pmi_fd, hang[0] };
    core->supervise_close_all_but(keep, (int)(sizeof keep / sizeof keep[0]));
    /* The rank's descriptors close as it exits, before its launcher is told
     * (SIGCHLD), on which a launcher stops the other ranks: the claim is
     * made from then on (docs/mpi.md, "Errors and faults"; the pidfd also
     * tells, should a process the rank forked hold the socket). */
    for (;;) {
        struct pollfd p[2] = { { rank_fd, POLLIN, 0 }, { hang[0], POLLIN, 0 } };
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (!p[1].revents)
            break; /* the rank ended */
        char note[64];
        ssize_t got = read(hang[0], note, sizeof note);
        if (got <= 0 && atomic_load(&page->state) == WATCH_ARMED && rank_execd() && claim()) {
            core->supervise_page_report(page, "called exec", true);
            abort_job(1);
            wait_readable(launcher_fd); /* the claim held until the launcher ends */
            _exit(0);
        }
        if (got <= 0 && !mpi_pid_exiting(rank_pid)) /* it closed every descriptor above 2, say: its ending call says so */
            wait_readable(rank_fd);
        if (got <= 0)
            break;
        if (note[got - 1] == 'q') /* the rank ends cleanly and reaps its watcher */
            _exit(0);
        /* A note: the rank settled (it reports its own failure, or ended
         * its job): the watcher will print nothing, so let the launcher see
         * the rank's PMI connection and stderr end as the rank leaves them,
         * as without a watcher (the job's status: docs/mpi.md). */
        if (atomic_load(&page->state) == WATCH_SETTLED) {
            if (pmi_fd > 2)
                close(pmi_fd);
            pmi_fd = -1;
            close(2);
        }
    }
    bool report_it = atomic_load(&page->state) == WATCH_ARMED && claim();
    if (!report_it) { /* nothing to say: the rank's output and PMI connection end now */
        if (pmi_fd > 2)
            close(pmi_fd);
        pmi_fd = -1;
        close(2);
    }
    wait_readable(rank_fd); /* the rank has ended: its status is there */
    if (report_it && atomic_load(&page->state) == WATCH_ARMED) {
        int status = rank_status(rank_fd);
        if (rank_execd()) /* the program it exec'd ended before the watcher looked */
            core->supervise_page_report(page, "called exec", true);
        else
            core->supervise_page_report_end(page, status);
        abort_job(status >= 0 && WIFSIGNALED(status) ? 128 + WTERMSIG(status) : 1);
    }
    /* Only now may the launcher see the rank's PMI connection end, which
     * makes it stop the other ranks (docs/mpi.md, pmi-fd): by then the
     * job's line is claimed, and the ranks it stops find it so. */
    if (pmi_fd > 2)
        close(pmi_fd);
    close(2); /* where abort_job has not */
    /* A claim held until the launcher ends: the ranks it stops after this
     * failure are no failures of their own. */
    if (claimed_here() && launcher_fd >= 0)
        wait_readable(launcher_fd);
    _exit(0);
}

/* ---- the rank's side ----------------------------------------------------- */

static void note_settled(void);

/* "superstep: processor 3 killed by signal 2 (SIGINT) in superstep 1;
 * processor 1 was computing, processors 0, 2 and 3 were in bsp_sync", the
 * processors of this machine only where the job has others. */
static void say_interrupted(int sig, const struct launch_proc *where, uint32_t p, bool whole)
{
    char what[48], at_step[768] = "";
    core->put_killed(what, 0, sizeof what, sig);
    uint64_t step = atomic_load(&page->step);
    size_t at = page->steps ? core->launch_put_u64(at_step, core->launch_put_str(at_step, 0, sizeof at_step,
                                                   " in superstep "), sizeof at_step, step) : 0;
    core->launch_put_where(at_step, at, sizeof at_step, whole ? "; " : "; on this machine, ", where, p, step);
    note_settled(); /* the watcher names nothing */
    if (mpi_watch_claim())
        core->supervise_report(page->who, what, false, 0, at_step, NULL);
}

/* An interrupt (Ctrl-C, a batch system's time limit) of a rank in a job:
 * the rank names it with where each processor of its machine was, and
 * ends by it.  The launcher's own SIGTERM is also its stop of the job
 * after a failure (docs/mpi.md, sigterm-stop), no failure of this rank's:
 * it is an interrupt only where the whole job runs on this machine and
 * none of its processors is failing; else the watcher names nothing. */
static void on_interrupt(int sig, siginfo_t *si, void *ctx)
{
    (void)ctx;
    bool rank = page && getpid() == rank_pid; /* not a process the rank forked, which shares the page */
    bool stop = sig == SIGTERM && si && si->si_code == SI_USER && si->si_pid == launcher;
    uint32_t p = 0;
    bool whole = false;
    const struct launch_proc *where = mpi_node_entries(&p, &whole);
    if (rank && where && atomic_load(&page->state) == WATCH_ARMED && (!stop || (whole && !mpi_node_one_failed()))) {
        say_interrupted(sig, where, p, whole);
        if (!stop)
            mpi_die_by_signal(sig); /* where the launcher would not stop the job for it */
    } else if (rank && stop) {
        atomic_store(&page->state, WATCH_SETTLED);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A process the rank forks (an inner run's processor, a helper of the
 * program) must not hold the rank's end of the socket, else the rank's
 * exec goes unseen while the fork lives.  It settles through the page. */
static void forget_hang(void)
{
    if (hang[1] >= 0)
        close(hang[1]);
    hang[1] = -1;
}

void mpi_watch_claim_open(void)
{
    if (claim_fd >= 0)
        return;
    launcher = getppid();
    rank_pid = getpid();
    /* FNV-1a of the job's name (docs/mpi.md, "Vendor notes", dvm-jobs) */
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
    struct watch_page *pg = core->supervise_page_new();
    if (!pg)
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
    mpi_srun_direct(); /* and its abort_job */
    const char *pmi = getenv("PMI_FD"); /* docs/mpi.md, "Vendor notes", pmi-fd */
    pmi_fd = pmi && *pmi ? atoi(pmi) : -1;
    if (pmi_fd <= 2 || pmi_fd == fd || pmi_fd == hang[0] || pmi_fd == hang[1] || pmi_fd == rank_fd ||
        fcntl(pmi_fd, F_GETFD) < 0)
        pmi_fd = -1; /* not an inherited connection */
    rank_pid = getpid();
    page = pg;
    /* A child without an exit signal: the program's wait() for any child
     * (which waits for SIGCHLD children only) never finds it.  Raw clone,
     * as _Fork: no atfork handler runs, the rank may run threads. */
    watcher = (pid_t)syscall(SYS_clone, 0ul, 0ul, NULL, NULL, 0ul);
    if (watcher == 0)
        watcher_main();
    close(hang[0]);
    close(rank_fd);
    rank_fd = -1;
    if (watcher < 0) {
        close(hang[1]);
        munmap(pg, sizeof *pg);
        page = NULL;
        return;
    }
    struct stat st;
    hang_ino = fstat(hang[1], &st) == 0 ? st.st_ino : 0;
    atexit(mpi_watch_end); /* registered before MPI's own: runs after MPI_Finalize */
    pthread_atfork(NULL, NULL, forget_hang);
    static const int interrupts[] = { SIGTERM, SIGINT, SIGQUIT, SIGHUP };
    for (size_t i = 0; i < sizeof interrupts / sizeof interrupts[0]; i++) {
        struct sigaction old;
        if (sigaction(interrupts[i], NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue; /* the program's, or ignored */
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_interrupt;
        sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
        sigaction(interrupts[i], &sa, NULL);
    }
}

/* From now until settled, an end of the rank's that nobody reports is
 * named: "<proc> <how it ended><where>[ without calling <end_call>]", or
 * with its superstep for 'steps'; an exec too, where the runtime's fault
 * handlers are there to tell it by ('execs': not in MPI_Init, where MPI's
 * own may replace and reset them). */
static _Atomic uint64_t *arm(uint64_t proc, const char *where, const char *end_call, uint32_t steps, bool execs)
{
    if (!page || getpid() != rank_pid)
        return NULL;
    char who[32];
    size_t at = core->launch_put_str(who, 0, sizeof who, core->launch_words->proc);
    core->launch_put_u64(who, core->launch_put_str(who, at, sizeof who, " "), sizeof who,
                         proc + core->launch_words->first);
    static const int faults[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
    page->caught = 0;
    for (size_t i = 0; execs && i < sizeof faults / sizeof faults[0]; i++) {
        struct sigaction sa;
        if (sigaction(faults[i], NULL, &sa) == 0 &&
            ((sa.sa_flags & SA_SIGINFO) || (sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)))
            page->caught |= 1ull << (faults[i] - 1);
    }
    return core->supervise_page_arm(page, who, end_call, where, steps);
}

void mpi_watch_starting(long proc)
{
    arm((uint64_t)proc, " in MPI_Init", "", 0, false);
}

_Atomic uint64_t *mpi_watch_arm(uint32_t proc)
{
    return arm(proc, "", core->launch_words->end_call, core->launch_words->steps, true);
}

/* Tell the watcher that the rank settled (one byte; the socket never
 * fills: the watcher reads as they come, and a few are sent at most; a
 * watcher that is gone costs nothing). */
static void note_settled(void)
{
    atomic_store(&page->state, WATCH_SETTLED);
    if (hang[1] >= 0)
        (void)!send(hang[1], "s", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
}

bool mpi_watch_claimed(void)
{
    if (page)
        note_settled();
    return claim_fd < 0 || claim();
}

void mpi_watch_disarm(void)
{
    if (page && getpid() == rank_pid)
        atomic_store(&page->state, WATCH_IDLE);
}

void mpi_watch_settle(void)
{
    if (page && getpid() == rank_pid && atomic_load(&page->state) != WATCH_SETTLED)
        note_settled();
}

void mpi_watch_end(void)
{
    /* A claim held is the watcher's to keep until the launcher ends; an
     * exit while armed (MPI's own, from inside MPI_Init) its to name. */
    if (!page || getpid() != rank_pid || watcher <= 0 || claimed_here() || atomic_load(&page->state) == WATCH_ARMED)
        return;
    note_settled();
    (void)!send(hang[1], "q", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    while (waitpid(watcher, NULL, __WCLONE) < 0 && errno == EINTR)
        ;
    watcher = 0;
}

bool mpi_srun_direct(void)
{
    static int direct = -1; /* read once, before the watcher starts */
    if (direct < 0)
        direct = getenv("SLURM_STEP_ID") && !getenv("OMPI_MCA_orte_hnp_uri");
    return direct;
}

bool mpi_watch_intact(void)
{
    struct stat st;
    if (!page || getpid() != rank_pid || hang[1] < 0)
        return true;
    return fstat(hang[1], &st) == 0 && st.st_ino == hang_ino;
}
