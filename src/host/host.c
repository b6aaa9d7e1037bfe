/*
 * host.c - the Epiphany BSP host: bsp_init, bsp_begin, ebsp_spmd, bsp_end.
 *
 * Nothing starts before the first ebsp_spmd (the lazy start of the offload
 * seed).  Each ebsp_spmd asks the device for a fresh job of p processes
 * running the kernel, then serves them until they have all ended: it prints
 * their ebsp_message lines, runs the sync callback when all are in
 * ebsp_host_sync, and notices a job that failed.  The session segment,
 * with the local memories and streams, outlives the runs.
 */
#include <host_bsp.h>

#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "device/device.h"
#include "host/host.h"
#include "launch/launch.h"
#include "settings/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct host_state hs = { .seg = { .fd = -1 } };

void host_error(const char *call, const char *fmt, ...)
{
    char what[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    launch_fail(LAUNCH_EXIT_ERROR, "%s: host: %s", call, what);
}

void host_require_session(const char *call, bool between_runs)
{
    if (hs.phase == H_NONE)
        host_error(call, "called before bsp_init and bsp_begin");
    if (hs.phase == H_INIT)
        host_error(call, "called before bsp_begin");
    if (between_runs && hs.phase == H_RUNNING)
        host_error(call, "called while the kernels run (from a callback); call it between runs");
}

uint32_t host_check_pid(const char *call, int pid)
{
    if (pid < 0 || (uint32_t)pid >= hs.p)
        host_error(call, "pid %d out of range (nprocs %u)", pid, hs.p);
    return (uint32_t)pid;
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        host_error("bsp_init", "out of memory");
    return d;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *s = malloc(n);
    if (!s)
        host_error("bsp_init", "out of memory");
    snprintf(s, n, "%s/%s", dir, name);
    return s;
}

static void free_init(void)
{
    free(hs.name);
    free(hs.path[0]);
    free(hs.path[1]);
    if (hs.kargv)
        for (char **a = hs.kargv + 1; *a; a++)
            free(*a);
    free(hs.kargv);
    hs.name = hs.path[0] = hs.path[1] = NULL;
    hs.kargv = NULL;
}

/* ---- lifecycle ------------------------------------------------------------ */

int ebsp_host_init(const char *e_name, int argc, char **argv)
{
    settings_check(); /* a bad setting ends the program here */
    if (hs.phase >= H_BEGUN)
        host_error("bsp_init", "called while a session is open (call bsp_end first)");
    if (!e_name || !*e_name)
        host_error("bsp_init", "no kernel name");
    free_init();
    hs.name = xstrdup(e_name);
    if (e_name[0] == '/') {
        hs.path[0] = xstrdup(e_name);
    } else {
        /* Beside the host executable, as Epiphany BSP looks, then here. */
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        int k = 0;
        if (n > 0) {
            exe[n] = 0;
            char *slash = strrchr(exe, '/');
            if (slash)
                *slash = 0;
            hs.path[k++] = join(*exe ? exe : "/", e_name);
        }
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) {
            char *here = join(cwd, e_name);
            if (k && !strcmp(here, hs.path[0]))
                free(here);
            else
                hs.path[k++] = here;
        }
    }
    int nargs = argc > 1 && argv ? argc - 1 : 0;
    hs.kargv = calloc((size_t)nargs + 2, sizeof *hs.kargv);
    if (!hs.kargv)
        host_error("bsp_init", "out of memory");
    for (int i = 0; i < nargs; i++)
        hs.kargv[i + 1] = xstrdup(argv[i + 1] ? argv[i + 1] : "");
    hs.tagsize = 0; /* ebsp_set_tagsize may set it before bsp_begin, as upstream allows */
    if (hmpi_on())
        hmpi_init();
    hs.phase = H_INIT;
    return 1;
}

int ebsp_host_begin(int nprocs)
{
    if (hs.phase == H_NONE)
        host_error("bsp_begin", "called before bsp_init");
    if (hs.phase >= H_BEGUN)
        host_error("bsp_begin", "called twice (a session on %u processors is open; call bsp_end first)", hs.p);
    if (nprocs <= 0 || nprocs > 65535)
        host_error("bsp_begin", "%d processors requested (must be 1..65535)", nprocs);
    hs.p = (uint32_t)nprocs;
    hs.ndown = 0;
    hs.ran = false;
    hs.down = calloc(hs.p, sizeof *hs.down);
    if (!hs.down)
        host_error("bsp_begin", "out of memory");
    hs.phase = H_BEGUN;
    return 1;
}

/* bsp_end after bsp_init alone undoes bsp_init (Epiphany BSP's hosts do
 * this when they decide not to run); after a session it closes the session
 * and keeps the kernel's name for another bsp_begin. */
int ebsp_host_end(void)
{
    if (hs.phase == H_RUNNING)
        host_error("bsp_end", "called while the kernels run (from a callback)");
    if (hs.phase == H_NONE)
        host_error("bsp_end", "called before bsp_init");
    if (hs.phase == H_INIT) {
        free_init();
        hs.tagsize = 0;
        hs.phase = H_NONE;
        return 1;
    }
    host_msgs_free();
    hs.tagsize = 0;
    if (hs.have_seg)
        seg_detach(&hs.seg);
    hs.have_seg = false;
    hs.sh = NULL;
    hs.phase = H_INIT;
    return 1;
}

/* On mpi a host started alone (bsprun --device mpi -n P starts a host
 * program on one rank: its kernels are spawned) takes P from
 * SUPERSTEP_NPROCS, as on shm; started on P ranks, P is the job's size. */
int ebsp_host_nprocs(void)
{
    if (hmpi_on() && bsp_impl_nprocs() == 1 && setting_given(SET_NPROCS))
        return (int)setting_num(SET_NPROCS);
    return (int)bsp_impl_nprocs();
}

void ebsp_set_sync_callback(void (*cb)(void))
{
    hs.sync_cb = cb;
}

void ebsp_set_end_callback(void (*cb)(void))
{
    hs.end_cb = cb;
}

/* ---- the session segment --------------------------------------------------- */

struct ebsp_shared *host_segment(const char *call)
{
    if (hs.have_seg)
        return hs.sh;
    uint64_t local = ebsp_size_from_env(SET_LOCAL_MEMORY);
    uint64_t ext = ebsp_size_from_env(SET_EXT_MEMORY);
    uint64_t per = local + ext + EBSP_RING + 3 * 4096;
    uint64_t table = sizeof(struct ebsp_shared) + (uint64_t)hs.p * sizeof(struct ebsp_proc);
    uint64_t size = seg_size_from_env() + (uint64_t)hs.p * per + table + 4096;
    int rc = seg_create(&hs.seg, size, hs.p);
    if (rc) {
        char why[512];
        settings_limit_text(-rc, hs.p, size, why, sizeof why);
        host_error(call, "cannot create the session segment (%llu bytes): %s", (unsigned long long)size, why);
    }
    uint64_t off = seg_alloc(&hs.seg, table, 4096);
    if (!off)
        host_error(call, "session segment too small");
    struct ebsp_shared *sh = seg_ptr(&hs.seg, off);
    memset(sh, 0, table);
    sh->magic = EBSP_MAGIC;
    sh->nprocs = hs.p;
    sh->local_size = local;
    sh->ext_size = ext;
    for (uint32_t q = 0; q < hs.p; q++) {
        struct ebsp_proc *pr = &sh->proc[q];
        pr->local_off = seg_alloc(&hs.seg, local, 4096);
        pr->ext_off = seg_alloc(&hs.seg, ext, 4096);
        pr->ring_off = seg_alloc(&hs.seg, EBSP_RING, 4096);
        if (!pr->local_off || !pr->ext_off || !pr->ring_off)
            host_error(call, "session segment too small");
    }
    sh->mem_end = atomic_load(&hs.seg.hdr->brk); /* kernels map [0, mem_end) below 4 GiB too */
    hs.seg.hdr->root[ROOT_HOST] = off;
    hs.sh = sh;
    hs.have_seg = true;
    return sh;
}

/* ---- finding the kernel ------------------------------------------------------ */

static unsigned elf_machine(const char *path, bool *is_elf, bool *is_script)
{
    unsigned char h[20] = { 0 };
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    ssize_t n = fd >= 0 ? read(fd, h, sizeof h) : -1;
    if (fd >= 0)
        close(fd);
    *is_elf = n >= 20 && !memcmp(h, "\177ELF", 4);
    *is_script = n >= 2 && h[0] == '#' && h[1] == '!';
    return *is_elf ? (unsigned)(h[18] | h[19] << 8) : 0;
}

static const char *find_kernel(void)
{
    const char *call = "ebsp_spmd";
    for (int i = 0; i < 2 && hs.path[i]; i++) {
        const char *path = hs.path[i];
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (!S_ISREG(st.st_mode))
            host_error(call, "cannot start kernel %s: not a regular file", path);
        if (access(path, X_OK) != 0)
            host_error(call, "cannot start kernel %s: not executable (%s)", path, strerror(errno));
        bool elf, script, self_elf, self_script;
        unsigned m = elf_machine(path, &elf, &script);
        unsigned self = elf_machine("/proc/self/exe", &self_elf, &self_script);
        if (!elf && !script)
            host_error(call, "cannot start kernel %s: not a program for this machine (build it with bspcc)", path);
        if (elf && self_elf && m != self)
            host_error(call, "cannot start kernel %s: an ELF program for another machine (e_machine %u, this one %u); "
                       "build it with bspcc", path, m, self);
        return path;
    }
    if (hs.path[1])
        host_error(call, "cannot find kernel \"%s\": tried %s and %s", hs.name, hs.path[0], hs.path[1]);
    host_error(call, "cannot find kernel \"%s\": tried %s", hs.name, hs.path[0] ? hs.path[0] : hs.name);
}

/* ---- serving a run ------------------------------------------------------------ */

/* Fail the run from the host: printed once, every processor stops. */
static void fail_run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail_run(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    launch_one_line(msg, sizeof msg);
    /* The launch layer's funnel: a kernel or the monitor failing at the
     * same moment neither prints a second line nor overwrites the status. */
    launch_report(LAUNCH_EXIT_ERROR, msg);
}

static void host_sync_release(void)
{
    struct ebsp_shared *sh = hs.sh;
    for (uint32_t q = 0; q < hs.p; q++)
        atomic_store(&sh->proc[q].in_hsync, 0);
    atomic_store(&sh->hsync_arrived, 0);
    if (hs.sync_cb)
        hs.sync_cb();
    atomic_fetch_add(&sh->hsync_gen, 1);
    wake_word(&sh->hsync_gen);
}

/* Some processors wait in ebsp_host_sync, all the others at the barrier
 * (bsp_sync, ebsp_barrier, bsp_end): none can go on. */
static bool host_sync_stuck(uint32_t arrived)
{
    return arrived && arrived + BAR_GET(atomic_load(&job.ls->barrier.arrived), 0) == hs.p;
}

static void check_host_sync_mismatch(uint32_t arrived)
{
    if (!host_sync_stuck(arrived))
        return;
    uint32_t in = 0, out = 0;
    for (uint32_t q = hs.p; q-- > 0;) {
        if (atomic_load(&hs.sh->proc[q].in_hsync))
            in = q;
        else
            out = q;
    }
    fail_run("ebsp_host_sync: processor %u, superstep %llu: called ebsp_host_sync while processor %u called %s", in,
             (unsigned long long)atomic_load(&job.ls->proc[in].step), out,
             bsp_call_name(atomic_load(&job.ls->proc[out].call)));
}

/* SUPERSTEP_STALL_TIMEOUT while some processors wait in ebsp_host_sync: the
 * host names those still computing (as src/bsp/stall.c does at the barrier). */
static struct late_watch hsync_watch;

static void host_sync_late(int64_t waited_ns)
{
    uint32_t waiter = 0;
    for (uint32_t q = hs.p; q-- > 0;)
        if (atomic_load(&hs.sh->proc[q].in_hsync))
            waiter = q;
    char line[400];
    struct late_who who = { "processor", 0, hs.p, bsp_stall_computing, bsp_stall_step, bsp_stall_stopped };
    if (late_line(line, sizeof line, &hsync_watch, waited_ns, &who))
        fail_run("ebsp_host_sync: processor %u, superstep %llu: %s", waiter, (unsigned long long)bsp_stall_step(waiter),
                 line);
}

/* Every process ended cleanly as far as the launch layer knows (a kernel
 * that is a plain BSPlib program never rings the bell at its end). */
static bool all_ended(void)
{
    for (uint32_t q = 0; q < hs.p; q++)
        if (!atomic_load(&job.ls->proc[q].ended))
            return false;
    return true;
}

/* What the serving loop waits for: a bell (a line, an arrival in
 * ebsp_host_sync, a kernel's end), or what rings none: arrivals at the
 * barrier that leave ebsp_host_sync's callers stuck, and the end of a
 * plain BSPlib kernel.  Those are looked at only once the wait sleeps
 * (at each of its slices): not while it spins, when the kernels' own
 * words would bounce between their cores and the host's. */
struct serve {
    struct wait w;
    uint32_t bell;
};

static bool serve_ready(void *arg)
{
    struct serve *sv = arg;
    if (atomic_load(&hs.sh->doorbell) != sv->bell)
        return true;
    return sv->w.slept && (host_sync_stuck(atomic_load(&hs.sh->hsync_arrived)) || all_ended());
}

static void serve_run(void)
{
    struct ebsp_shared *sh = hs.sh;
    struct barrier *b = &job.ls->barrier;
    struct serve sv = { .w = { .word = &sh->doorbell, .ready = serve_ready, .b = b } };
    sv.w.arg = &sv;
    late_arm(&hsync_watch, host_sync_late);
    for (;;) {
        sv.bell = atomic_load(&sh->doorbell);
        host_print(false);
        if (barrier_failed(b))
            break;
        uint32_t arrived = atomic_load(&sh->hsync_arrived);
        if (arrived == hs.p)
            host_sync_release();
        else
            check_host_sync_mismatch(arrived);
        /* The stall watch runs while some, not all, wait in ebsp_host_sync. */
        const struct late_watch *watch = arrived && arrived < hs.p ? &hsync_watch : NULL;
        if (watch != sv.w.late) {
            sv.w.late = watch;
            sv.w.start = 0;
        }
        if (atomic_load(&sh->ended) == hs.p || barrier_failed(b) || all_ended())
            break;
        wait_for(&sv.w);
    }
}

/* One run on local processes (fork + exec, sharing the session segment). */
static int run_local(const char *path)
{
    /* Close-on-exec like every descriptor of ours (another thread of the
     * host may exec meanwhile); launch_spawn clears the flag in each kernel
     * between its fork and exec, so the kernels inherit it. */
    int fd = fcntl(hs.seg.fd, F_DUPFD_CLOEXEC, 0);
    if (fd < 0)
        host_error("ebsp_spmd", "cannot pass the session segment on: %s", strerror(errno));
    /* The kernels' environment is built for them (launch_spawn_env): the
     * host's own is never changed, since another thread of it (MPI's, the
     * program's) may read it meanwhile.  Kernels of a host on the mpi device
     * that cannot spawn them see its MPI launcher's variables: they must
     * not take themselves for ranks. */
    char fdvar[48];
    snprintf(fdvar, sizeof fdvar, "%s=%d", EBSP_ENV_FD, fd);
    char *extra[] = { fdvar, "SUPERSTEP_DEVICE=shm", NULL };
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    barrier_set_oversubscribed(ncpu > 0 && hs.p >= (uint32_t)ncpu);
    struct device *d = &device_shm; /* a host starts local processes, whatever SUPERSTEP_DEVICE says */
    launch_inherit_fd = fd;
    launch_spawn_env = extra;
    int rc = d->spawn(hs.p, path, hs.kargv, bsp_segment_setup);
    launch_spawn_env = NULL;
    launch_inherit_fd = -1;
    close(fd);
    if (rc) {
        char why[512];
        settings_limit_text(-rc, hs.p, seg_size_from_env(), why, sizeof why);
        host_error("ebsp_spmd", "cannot start %u process%s of kernel %s on device %s: %s", hs.p,
                   hs.p == 1 ? "" : "es", path, d->name, why);
    }
    hs.phase = H_RUNNING;
    serve_run();
    return d->spawn_wait();
}

int ebsp_spmd(void)
{
    if (hs.phase == H_RUNNING)
        host_error("ebsp_spmd", "called while the kernels run (from a callback)");
    host_require_session("ebsp_spmd", true);
    const char *path = find_kernel();
    struct ebsp_shared *sh = host_segment("ebsp_spmd");
    host_msgs_prepare();
    host_streams_prepare();
    sh->tagsize = hs.tagsize;
    atomic_store(&sh->up_tagsize, hs.tagsize);
    atomic_store(&sh->ended, 0);
    atomic_store(&sh->hsync_arrived, 0);
    for (uint32_t q = 0; q < hs.p; q++) {
        struct ebsp_proc *pr = &sh->proc[q];
        atomic_store(&pr->base, 0);
        atomic_store(&pr->in_hsync, 0);
    }
    host_print_reset();
    hs.kargv[0] = (char *)path;
    int status = HMPI_RUN_HERE;
    if (hmpi_on()) { /* kernels spawned as MPI processes (hmpi.c) */
        hs.phase = H_RUNNING;
        status = hmpi_run(path, hs.kargv);
    }
    if (status == HMPI_RUN_HERE)
        status = run_local(path);
    host_print(true);
    if (atomic_load(&sh->aborted)) { /* what Epiphany BSP's host says after a kernel's bsp_abort */
        printf("(BSP) ERROR: bsp_abort was called\n");
        fflush(stdout);
    }
    hs.phase = H_BEGUN;
    hs.kargv[0] = NULL;
    host_msgs_collect();
    if (hs.end_cb)
        hs.end_cb();
    return status == 0;
}
