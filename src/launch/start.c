/*
 * start.c - starting the processors of a run, and their end.
 *
 * launch_fork makes the caller processor 0 and forks the others, which
 * continue from the call; launch_spawn starts p copies of an executable
 * (an Epiphany host's kernels), each of which joins by launch_attach.
 * Every processor waits (await_start) until all exist and the monitor
 * (monitor.c) watches them: a start that fails part way kills the ones
 * made so far, and none runs any of the program.  launch_finish ends a
 * processor, and in the starter waits for the others.
 */
#include "launch/launch_impl.h"
#include "launch/supervise.h"
#include "settings/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

struct job job = { .seg = { .fd = -1 } };
int launch_inherit_fd = -1;

struct launch_shared *launch_setup(struct segment *seg, uint32_t nprocs)
{
    size_t size = sizeof(struct launch_shared) + nprocs * sizeof(struct launch_proc);
    uint64_t off = seg_alloc(seg, size, SEG_LINE);
    if (!off)
        return NULL;
    struct launch_shared *ls = seg_ptr(seg, off);
    memset(ls, 0, size);
    ls->nprocs = nprocs;
    ls->abort_limit_s = (uint32_t)setting_num(SET_ABORT_TIMEOUT);
    barrier_init(&ls->barrier, nprocs);
    seg->hdr->root[ROOT_LAUNCH] = off;
    return ls;
}

/* A processor's end of its exec pipe (the monitor of its run holds the
 * other): -1 in a starter.  Its own exec closes it; a process it forks (an
 * inner run's processor, a helper of the program) must not hold it too,
 * else that exec goes unseen while the fork lives.  (A fork by glibc's
 * fork() closes it in the child, below; one by syscall(SYS_fork) keeps it,
 * as it keeps every descriptor.) */
static int own_hang_w = -1;

static void forget_own_hang(void)
{
    if (own_hang_w >= 0)
        close(own_hang_w);
    own_hang_w = -1;
}

/* The copies of a processor (launch.h: launch_forked_copy). */
static pid_t no_self_pid;
pid_t *launch_self_pid = &no_self_pid;

void launch_mark_self(void)
{
    if (launch_self_pid == &no_self_pid) {
        void *page = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (page != MAP_FAILED && madvise(page, (size_t)sysconf(_SC_PAGESIZE), MADV_WIPEONFORK) == 0)
            launch_self_pid = page;
        /* else (Linux before 4.14) no copy is told from its processor */
    }
    job.pid = *launch_self_pid = getpid();
}

static void forget_self(void)
{
    job.pid = *launch_self_pid = 0;
}

__attribute__((constructor)) static void fork_watch_install(void)
{
    pthread_atfork(NULL, NULL, forget_own_hang);
}

static void child_setup(pid_t starter)
{
    forget_own_hang(); /* the exec pipe of the run this process is a processor of */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != starter)
        _exit(LAUNCH_EXIT_STOPPED);
    give_back_sigchld();
    /* Let peers read and write this process's memory (bsp_hpput), where
     * Yama restricts that to ancestors. */
    prctl(PR_SET_PTRACER, starter, 0, 0, 0);
    mon->running = false;
    supervise_forget();
    job.step_mirror = NULL;
    if (nest_depth) /* an inner run's processor: the program's own actions, none of an outer run's */
        nest_child_signals();
}

/* A processor runs none of the program before the start has succeeded: a
 * start that fails after some forks (a descriptor or process limit) kills
 * the processors waiting here.  The starter dying kills them too
 * (PR_SET_PDEATHSIG).  A futex sleep, not wait_word: the starter forks
 * the others meanwhile, and the first children's spin and yield phases
 * only took its time (p = 64 on 2 shared cores: about 35 ms from start
 * to end of an empty job, 60 ms with wait_word). */
static void await_start(void)
{
    while (!atomic_load_explicit(&job.ls->started, memory_order_acquire))
        futex_sleep_unbounded(&job.ls->started, 0);
}

static void release_processors(void)
{
    atomic_store_explicit(&job.ls->started, 1, memory_order_release);
    wake_word(&job.ls->started);
}

static int record_child(uint32_t p, pid_t pid)
{
    mon->pid[p] = pid;
    mon->pidfd[p] = (int)syscall(SYS_pidfd_open, pid, 0);
    atomic_store(&job.ls->proc[p].os_pid, pid);
    return mon->pidfd[p] < 0 ? -errno : 0;
}


/* Processor 0 leaving the program without ending the job (exit, or a return
 * from main) must not leave the others waiting: named as the monitor names
 * a child's exit. */
static void starter_on_exit(int status, void *arg)
{
    (void)arg;
    if (!job.ls || !mon->running || job.me != 0 || atomic_load(&job.ls->proc[0].ended) ||
        getpid() != mon->starter_pid) /* a process the program forked is not processor 0 */
        return;
    siginfo_t si;
    memset(&si, 0, sizeof si);
    si.si_code = CLD_EXITED;
    si.si_status = status;
    report_death(job.ls, nest_depth, 0, &si);
    monitor_take_over();
}

/*
 * PR_SET_PDEATHSIG fires when the *thread* that forked a child ends, not its
 * process: were the thread that started the job to end while the job runs
 * (pthread_exit, or a return from its start routine, after handing the job
 * to another thread), every other processor would be killed with SIGKILL.
 * A thread-specific value set in that thread catches the moment: its
 * destructor runs before the thread ends and waits there until the job has
 * ended (launch_finish) or the process exits with its failure, so the
 * signal never fires early (tests/core/thread_start.c).
 */
static pthread_key_t starter_thread_key;
static bool starter_thread_keyed;
static pthread_mutex_t job_end_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t job_end_cond = PTHREAD_COND_INITIALIZER;

static void starter_thread_ended(void *arg)
{
    const struct monitor *m = arg;
    if (getpid() != m->starter_pid) /* a copy of the thread in a process the program forked */
        return;
    pthread_mutex_lock(&job_end_lock);
    while (m->running)
        pthread_cond_wait(&job_end_cond, &job_end_lock);
    pthread_mutex_unlock(&job_end_lock);
    give_back_alternate_stack();
}

void watch_starter_thread(void)
{
    if (!starter_thread_keyed)
        starter_thread_keyed = pthread_key_create(&starter_thread_key, starter_thread_ended) == 0;
    if (starter_thread_keyed)
        pthread_setspecific(starter_thread_key, mon);
}

/* Undo a partial start: kill and reap children [from, to). */
static void kill_and_reap(uint32_t from, uint32_t to)
{
    for (uint32_t q = from; q < to; q++)
        if (mon->pid[q] > 0)
            kill(mon->pid[q], SIGKILL);
    for (uint32_t q = from; q < to; q++) {
        if (mon->pid[q] > 0)
            waitpid(mon->pid[q], NULL, 0);
        if (mon->pidfd[q] >= 0)
            close(mon->pidfd[q]);
        if (mon->hangup[q] >= 0)
            close(mon->hangup[q]);
        mon->pid[q] = 0;
        mon->pidfd[q] = mon->hangup[q] = -1;
    }
}

static int fork_processors(uint32_t nprocs);

/* A start that fails is reported by the caller: no job runs for the
 * supervisor to name. */
int launch_fork(uint32_t nprocs)
{
    int rc = fork_processors(nprocs);
    if (rc)
        supervise_settled();
    return rc;
}

static int fork_processors(uint32_t nprocs)
{
    static bool exit_hook;
    if (!exit_hook) {
        on_exit(starter_on_exit, NULL);
        exit_hook = true;
    }
    int rc;
    if (!nest_depth) { /* an inner run's starter is a processor of the job already */
        rc = supervise_start();
        if (rc)
            return rc;
    }
    pid_t self = getpid(); /* the worker's: the supervisor keeps the original */
    if ((rc = monitor_tables(nprocs)) != 0)
        return rc;
    char who[32];
    snprintf(who, sizeof who, "%s %u", launch_words.proc, launch_words.first);
    job.step_mirror = nest_depth ? NULL : supervise_job(who, launch_words.end_call, "", launch_words.steps);
    mon->starter_pid = self;
    own_sigchld();
    job.nprocs = nprocs;
    job.me = 0;
    job.starter = true;
    job.forked = true;
    atomic_store(&job.ls->proc[0].os_pid, self);
    prctl(PR_SET_PTRACER, self, 0, 0, 0);
    fflush(NULL); /* else buffered output would be written once per child */
    atomic_store(&job.ls->started, 0);
    uint32_t forked = 1;
    for (uint32_t p = 1; p < nprocs && !rc; p++) {
        int hang[2];
        if (pipe2(hang, O_CLOEXEC) != 0) {
            rc = -errno;
            break;
        }
        pid_t pid = fork();
        if (pid < 0) {
            rc = -errno;
            close(hang[0]);
            close(hang[1]);
            break;
        }
        if (pid == 0) {
            child_setup(self);
            close(hang[0]);
            for (uint32_t q = 1; q < p; q++)
                close(mon->hangup[q]);
            own_hang_w = hang[1];
            job.me = p;
            job.starter = false;
            await_start();
            return 0;
        }
        close(hang[1]);
        mon->hangup[p] = hang[0];
        forked = p + 1;
        rc = record_child(p, pid);
    }
    if (!rc) {
        mon->own_signals = !catching_here(); /* else an outer run's handler reports */
        if (mon->own_signals)
            catch_signals_in_starter();
        rc = monitor_start(1, false);
    }
    if (rc) { /* undo: the caller reports the failure */
        kill_and_reap(1, forked);
        return rc;
    }
    watch_starter_thread();
    release_processors();
    return 0;
}

char **launch_spawn_env;

/* Is 'var' ("NAME=value") one of the variables named in 'list'? */
static bool named_in(const char *var, char *const *list)
{
    size_t len = strcspn(var, "=");
    for (; list && *list; list++)
        if (!strncmp(*list, var, len) && (*list)[len] == '=')
            return true;
    return false;
}

/* The environment of kernel p: the host's, with launch_spawn_env, the
 * segment's descriptor and the processor id; the last two entries are
 * allocated (free_environment). */
extern char **environ;
static char **kernel_environment(uint32_t p)
{
    char ids[2][48];
    snprintf(ids[0], sizeof ids[0], "%s=%d", ENV_SEGMENT_FD, job.seg.fd);
    snprintf(ids[1], sizeof ids[1], "%s=%u", ENV_PROC_ID, p);
    char *own[] = { ids[0], ids[1], NULL };
    size_t n = 0, extra = 0;
    while (environ[n])
        n++;
    while (launch_spawn_env && launch_spawn_env[extra])
        extra++;
    char **envp = calloc(n + extra + 3, sizeof *envp);
    if (!envp)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!named_in(environ[i], own) && !named_in(environ[i], launch_spawn_env))
            envp[k++] = environ[i];
    for (size_t i = 0; i < extra; i++)
        envp[k++] = launch_spawn_env[i];
    if (!(envp[k] = strdup(ids[0])) || !(envp[k + 1] = strdup(ids[1]))) {
        free(envp[k]);
        free(envp);
        return NULL;
    }
    return envp;
}

static void free_environment(char **envp)
{
    size_t n = 0;
    while (envp[n + 2])
        n++;
    free(envp[n]);
    free(envp[n + 1]);
    free(envp);
}

static int spawn_kernels(const char *path, char *const argv[]);

int launch_spawn(const char *path, char *const argv[])
{
    int rc = spawn_kernels(path, argv);
    if (rc)
        supervise_settled();
    return rc;
}

static int spawn_kernels(const char *path, char *const argv[])
{
    uint32_t nprocs = job.nprocs;
    int rc = supervise_start();
    if (rc)
        return rc;
    if ((rc = monitor_tables(nprocs)) != 0)
        return rc;
    supervise_job("host", "", " in ebsp_spmd while its kernels ran", false);
    job.me = UINT32_MAX;
    job.starter = true;
    job.forked = true;
    fflush(NULL);
    atomic_store(&job.ls->started, 0);
    pid_t self = getpid();
    mon->starter_pid = self;
    for (uint32_t p = 0; p < nprocs; p++) {
        /* Everything the child needs is made before the fork: between fork
         * and exec only async-signal-safe calls (the host may have threads). */
        char **envp = kernel_environment(p);
        if (!envp) {
            rc = -ENOMEM;
            break;
        }
        char nopath[512];
        size_t len = launch_put_str(nopath, 0, sizeof nopath, "superstep: cannot start kernel ");
        len = launch_put_str(nopath, len, sizeof nopath, path);
        len = launch_put_str(nopath, len, sizeof nopath, "\n");
        pid_t pid = fork();
        if (pid < 0) {
            rc = -errno;
            free_environment(envp);
            break;
        }
        if (pid == 0) {
            child_setup(self);
            fcntl(job.seg.fd, F_SETFD, 0); /* the segment stays open across exec */
            if (launch_inherit_fd >= 0)
                fcntl(launch_inherit_fd, F_SETFD, 0);
            execve(path, argv, envp);
            (void)!write(2, nopath, len);
            _exit(127);
        }
        free_environment(envp);
        if ((rc = record_child(p, pid)) != 0)
            break;
    }
    if (!rc)
        rc = monitor_start(0, true);
    if (rc) {
        kill_and_reap(0, nprocs);
        return rc;
    }
    release_processors();
    return 0;
}

bool launch_attach(void)
{
    const char *fd = getenv(ENV_SEGMENT_FD), *id = getenv(ENV_PROC_ID);
    if (!fd || !id)
        return false;
    if (seg_attach(&job.seg, atoi(fd)) != 0)
        return false;
    fcntl(job.seg.fd, F_SETFD, FD_CLOEXEC); /* inherited for this exec only */
    job.ls = seg_ptr(&job.seg, job.seg.hdr->root[ROOT_LAUNCH]);
    job.nprocs = job.ls->nprocs;
    job.me = (uint32_t)atoi(id);
    job.starter = false;
    job.forked = true;
    unsetenv(ENV_SEGMENT_FD);
    unsetenv(ENV_PROC_ID);
    if (job.me >= job.nprocs)
        return false;
    atomic_store(&job.ls->proc[job.me].os_pid, getpid());
    await_start();
    return true;
}

/* ---- ending -------------------------------------------------------------- */

int launch_finish(void)
{
    job.forked = false;
    if (job.me != UINT32_MAX)
        atomic_store(&job.ls->proc[job.me].ended, 1);
    if (!job.starter) {
        fflush(NULL);
        _exit(0);
    }
    if (mon->running) {
        monitor_end();
        pthread_mutex_lock(&job_end_lock);
        mon->running = false;
        pthread_cond_broadcast(&job_end_cond); /* a starting thread waiting to end */
        pthread_mutex_unlock(&job_end_lock);
    }
    if (!nest_depth) { /* an inner run's end is not the job's: the supervisor still watches */
        supervise_settled();
        forget_self();
    }
    job.step_mirror = NULL;
    if (starter_thread_keyed) /* in the thread that ends it (the value of another one is idle now) */
        pthread_setspecific(starter_thread_key, NULL);
    if (!mon->host && mon->own_signals) {
        restore_all();
        give_back_alternate_stack();
    }
    if (!mon->host)
        give_back_sigchld();
    return mon->result;
}

void launch_buffer_lines(void)
{
    /* Own buffers, larger than stdio's, so that long lines stay whole. */
    static char out[1 << 16], err[1 << 16];
    fflush(stdout);
    fflush(stderr);
    setvbuf(stdout, out, _IOLBF, sizeof out);
    setvbuf(stderr, err, _IOLBF, sizeof err);
}
