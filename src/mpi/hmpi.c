/*
 * hmpi.c - the Epiphany BSP host on the mpi device: each ebsp_spmd spawns
 * the kernel p times (MPI_Comm_spawn), sends them the session segment and
 * serves them until all have ended: prints their ebsp_message lines, runs
 * the sync callback, takes back what they own in the segment and their
 * messages up.  The protocol and why kernels are spawned: ebsp/ebsp_mpi.h.
 */
#include <mpi.h>

#include "barrier/barrier.h"
#include "device/device.h"
#include "mpi/mpi_fail.h"
#include "mpi/mpi_wait.h"
#include "mpi/mpi_watch.h"
#include "mpi/session_mpi.h"
#include "host/host.h"
#include "launch/launch.h"
#include "mpi/lines.h"
#include "settings/settings.h"

#include <errno.h>
#include <pthread.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

void mpi_device_claim(void); /* mpi.c: this rank's MPI is not a BSP job's */

bool hmpi_on(void)
{
    return !strcmp(core->device_choose()->name, "mpi");
}

/* The host is rank 0; other ranks of the job (bsprun --device mpi -n P
 * starts P) have nothing to do (the kernels are spawned): they wait for the
 * host's end (a barrier it enters at exit, mpi.c) and leave with 0. */
void hmpi_init(void)
{
    uint32_t world, me;
    (*core->dev)->world(&world, &me);
    mpi_device_claim();
    mpi_wait_set_crowded(); /* the host's kernels run beside its ranks */
    if (me == 0)
        return;
    /* Wait for the host's end without a busy core (MPI_Finalize polls). */
    MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    mpi_wait_all(1, &r);
    *core->launch_fail_hook = NULL;
    fflush(NULL);
    MPI_Finalize();
    mpi_watch_end();
    _exit(0);
}

/* The session segment's data extents, to every kernel. */
static void send_session(MPI_Comm ic)
{
    uint64_t brk = atomic_load(&core->hs->seg.hdr->brk);
    struct em_build b = { 0 };
    em_add_extents(&b, &core->hs->seg, 0, brk);
    uint64_t h[3] = { core->hs->seg.size, b.h.nruns, core->hs->p };
    MPI_Request r; /* nonblocking as the kernels' (kmpi_begin): the two kinds do not match */
    MPI_Ibcast(h, 3, MPI_UINT64_T, MPI_ROOT, ic, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Bcast(b.runs, (int)(2 * b.h.nruns), MPI_UINT64_T, MPI_ROOT, ic);
    for (uint64_t i = 0; i < b.h.nruns; i++) {
        char *at = core->hs->seg.base + b.runs[2 * i];
        for (uint64_t n = b.runs[2 * i + 1]; n;) {
            int k = (int)(n < (1ull << 30) ? n : 1ull << 30);
            MPI_Bcast(at, k, MPI_BYTE, MPI_ROOT, ic);
            at += k;
            n -= (uint64_t)k;
        }
    }
    em_free(&b);
}

/* What kernel k sent back: its memories, the streams it wrote, its
 * messages up. */
static void take_back(MPI_Comm ic, int k, int tag)
{
    struct em_build b;
    em_recv(&b, k, tag, ic);
    if (!em_apply(&b, &core->hs->seg))
        core->host_error("ebsp_spmd", "processor %d sent back memory outside the session segment", k);
    struct ebsp_proc *pr = &core->hs->sh->proc[k];
    if (b.h.up_len) {
        uint64_t off = core->seg_alloc(&core->hs->seg, b.h.up_len, EBSP_ALIGN);
        if (!off)
            core->host_error("ebsp_spmd", "the session segment is exhausted (%llu bytes of messages up)",
                       (unsigned long long)b.h.up_len);
        memcpy(core->hs->seg.base + off, b.up_in, b.h.up_len);
        pr->up_off = off;
        pr->up_cap = pr->up_len = b.h.up_len;
        pr->up_count = b.h.up_count;
    }
    atomic_store(&core->hs->sh->up_tagsize, (uint32_t)b.h.up_tagsize);
    em_free(&b);
}

/* Every kernel is in ebsp_host_sync: the callback, then each kernel's
 * memories again (the callback may have written them). */
static void release(MPI_Comm ic)
{
    if (core->hs->sync_cb)
        core->hs->sync_cb();
    for (uint32_t k = 0; k < core->hs->p; k++) {
        struct em_build b = { 0 };
        const struct ebsp_proc *pr = &core->hs->sh->proc[k];
        em_add_extents(&b, &core->hs->seg, pr->local_off, pr->local_off + core->hs->sh->local_size);
        em_add_extents(&b, &core->hs->seg, pr->ext_off, pr->ext_off + core->hs->sh->ext_size);
        em_send(&b, (int)k, EM_RELEASE, ic);
        em_free(&b);
    }
}

static void print_line(MPI_Comm ic, const MPI_Status *st, bool ack)
{
    int n = 0;
    MPI_Get_count(st, MPI_CHAR, &n);
    char *text = malloc((size_t)n + 1);
    if (!text)
        core->host_error("ebsp_spmd", "out of memory");
    MPI_Recv(text, n, MPI_CHAR, st->MPI_SOURCE, EM_LINE, ic, MPI_STATUS_IGNORE);
    core->host_print_line((uint32_t)st->MPI_SOURCE, text, (uint32_t)n);
    fflush(stdout);
    free(text);
    if (ack)
        MPI_Send(NULL, 0, MPI_BYTE, st->MPI_SOURCE, EM_ACK, ic);
}

/* The run failed (a kernel's bsp_abort or error line): every kernel is
 * told to leave (EM_STOP; kmpi.c, mpi.c), and each answers EM_STOPPED and
 * ends with status 0, so the host survives, as on shm. */
static void stop_kernels(MPI_Comm ic)
{
    for (uint32_t k = 0; k < core->hs->p; k++)
        MPI_Send(NULL, 0, MPI_BYTE, (int)k, EM_STOP, ic);
}

/* em_wait, but false after 'until' (ns; 0: never). */
static bool wait_until(MPI_Comm ic, MPI_Status *st, int64_t until)
{
    return mpi_wait_probe(MPI_ANY_SOURCE, MPI_ANY_TAG, ic, st, until);
}

/* Serve the kernels until all have ended (0) or, after a failure, all
 * have stopped (1).  A kernel sees the stop at its next wait in Superstep
 * (a sync, a line, bsp_end); one computing longer than
 * SUPERSTEP_ABORT_TIMEOUT is ended with the whole job. */
static int serve(MPI_Comm ic)
{
    uint32_t ended = 0, arrived = 0, stopped = 0;
    bool stopping = false;
    int64_t until = 0; /* stopping: the kernels have until then (0: no limit) */
    while (stopping ? stopped < core->hs->p : ended < core->hs->p) {
        MPI_Status st;
        if (!wait_until(ic, &st, until)) {
            unsigned long long limit = (unsigned long long)mpi_abort_limit();
            core->host_error("ebsp_spmd", "%u of %u kernels did not stop within %llu s after the run failed (a kernel "
                       "on mpi stops at its next call that waits): the time limit expired "
                       "(SUPERSTEP_ABORT_TIMEOUT=%llu)", core->hs->p - stopped, core->hs->p, limit, limit);
        }
        switch (st.MPI_TAG) {
        case EM_LINE:
            print_line(ic, &st, !stopping); /* no ack once stopping: the kernel takes the stop instead */
            break;
        case EM_HSYNC:
            take_back(ic, st.MPI_SOURCE, EM_HSYNC);
            if (++arrived == core->hs->p && !stopping) {
                arrived = 0;
                release(ic);
            }
            break;
        case EM_END:
            take_back(ic, st.MPI_SOURCE, EM_END);
            ended++;
            break;
        case EM_ABORT: /* Epiphany BSP's bsp_abort: ebsp_spmd prints the host's line */
        case EM_FAILED: /* the kernel printed its line */
            MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, ic, MPI_STATUS_IGNORE);
            if (st.MPI_TAG == EM_ABORT)
                atomic_store(&core->hs->sh->aborted, 1);
            if (!stopping) {
                stopping = true;
                stop_kernels(ic);
                until = mpi_abort_deadline();
            }
            break;
        case EM_STOPPED:
            MPI_Recv(NULL, 0, MPI_BYTE, st.MPI_SOURCE, EM_STOPPED, ic, MPI_STATUS_IGNORE);
            stopped++;
            break;
        default:
            core->host_error("ebsp_spmd", "unexpected message (tag %d) from processor %d", st.MPI_TAG, st.MPI_SOURCE);
        }
    }
    if (stopping)
        return 1;
    for (uint32_t k = 0; k < core->hs->p; k++) /* each waits for it before MPI_Comm_disconnect */
        MPI_Send(NULL, 0, MPI_BYTE, (int)k, EM_BYE, ic);
    return 0;
}

/* Does the program at path use Superstep (its messages, or the shared
 * library's name)?  A spawned program that never starts MPI cannot be
 * noticed: the spawn would wait for it for ever. */
static bool uses_superstep(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return true; /* the spawn reports it */
    static char buf[1 << 16];
    const char *mark = "superstep";
    size_t keep = 0, n;
    bool found = false;
    while (!found && (n = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
        size_t have = keep + n;
        found = memmem(buf, have, mark, strlen(mark)) != NULL;
        keep = have < strlen(mark) - 1 ? have : strlen(mark) - 1;
        memmove(buf, buf + have - keep, keep); /* the last bytes, for a mark cut in two */
    }
    fclose(f);
    return found;
}

/* The last line of an MPI error text (docs/mpi.md, "Vendor notes",
 * error-stack): an error line stays one line. */
static const char *mpi_why(int rc, char *buf, size_t size)
{
    int n = 0;
    if (size < MPI_MAX_ERROR_STRING || MPI_Error_string(rc, buf, &n) != MPI_SUCCESS)
        return "unknown MPI error";
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
        buf[--n] = 0;
    char *nl = strrchr(buf, '\n');
    return nl ? nl + 1 : buf;
}

/* Set when this MPI cannot start processes and the kernels run on this
 * machine instead (spawn_failed). */
static bool run_here;

/* MPI_Comm_spawn failed: say why in one line.  An MPI without dynamic
 * processes fails every spawn having lost the reason: it cannot open the
 * port the kernels would connect to, and MPI_Open_port says so (docs/mpi.md, "Vendor notes",
 * ucx-no-spawn).
 * Then, as a device that cannot be used falls back to shm, the kernels run
 * as local processes of the host (one warning; an error with
 * SUPERSTEP_DEVICE_MANDATORY=1). */
static void spawn_failed(int rc, const char *path)
{
    static char why[MPI_MAX_ERROR_STRING], port_why[MPI_MAX_ERROR_STRING];
    char port[MPI_MAX_PORT_NAME];
    /* No communicator: MPI-3 reports on MPI_COMM_WORLD, MPI-4 on MPI_COMM_SELF. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int prc = MPI_Open_port(MPI_INFO_NULL, port);
    if (prc == MPI_SUCCESS) {
        MPI_Close_port(port);
    } else if (core->setting_num(SET_DEVICE_MANDATORY) == 1) {
        core->host_error("ebsp_spmd", "cannot start kernel %s on device mpi: this MPI cannot start processes "
                   "(MPI_Comm_spawn and MPI_Open_port fail: %s); run the host on shm, or build Superstep "
                   "with an MPI that has dynamic processes (Open MPI; MPICH with ch3, ch4:ofi, or 4.1 and "
                   "later) (SUPERSTEP_DEVICE_MANDATORY=1)", path, mpi_why(prc, port_why, sizeof port_why));
    } else {
        fflush(stdout);
        fprintf(stderr, "superstep: warning: device mpi cannot start kernel %s (this MPI cannot start processes: "
                "MPI_Comm_spawn and MPI_Open_port fail: %s); its kernels run on this machine (shm)\n", path,
                mpi_why(prc, port_why, sizeof port_why));
        fflush(stderr);
        run_here = true;
        return;
    }
    core->host_error("ebsp_spmd", "cannot start %u process%s of kernel %s on device mpi: MPI_Comm_spawn: %s"
#ifdef OPEN_MPI
               " (Open MPI: mpirun --oversubscribe allows more processes than cores)"
#endif
               , core->hs->p, core->hs->p == 1 ? "" : "es", path, mpi_why(rc, why, sizeof why));
}

/* ---- a spawn that does not come back -------------------------------------- */

/* A spawn can hang (docs/mpi.md, "Vendor notes", spawn-hang).  The host
 * cannot leave MPI_Comm_spawn, so a thread watches it: when the spawn has
 * not returned after SUPERSTEP_SPAWN_TIMEOUT seconds, it prints the job's
 * line and ends the host's process (no MPI call: the main thread is inside
 * MPI, initialised for one thread), which makes mpirun stop the job. */
static struct {
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    bool done;
    uint64_t limit;
    uint32_t p;
    const char *path;
} sg = { .lock = PTHREAD_MUTEX_INITIALIZER, .done_cv = PTHREAD_COND_INITIALIZER };

static void *spawn_watch(void *arg)
{
    (void)arg;
    struct timespec until; /* on the monotonic clock: a change of the date moves no limit */
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += (time_t)sg.limit;
    pthread_mutex_lock(&sg.lock);
    int rc = 0;
    while (!sg.done && rc != ETIMEDOUT)
        rc = pthread_cond_clockwait(&sg.done_cv, &sg.lock, CLOCK_MONOTONIC, &until);
    bool late = !sg.done;
    pthread_mutex_unlock(&sg.lock);
    if (late) {
        fflush(stdout);
        fprintf(stderr, "superstep: ebsp_spmd: host: starting %u process%s of kernel %s took longer than %llu s "
                        "(SUPERSTEP_SPAWN_TIMEOUT=%llu): MPI_Comm_spawn did not return; the job ends\n",
                sg.p, sg.p == 1 ? "" : "es", sg.path, (unsigned long long)sg.limit, (unsigned long long)sg.limit);
        fflush(stderr);
        lines_flush();
        lines_drain(mpi_drain_deadline());
        _exit(LAUNCH_EXIT_ERROR);
    }
    return NULL;
}

static int spawn_watched(const char *path, char *const argv[], MPI_Comm *ic, int *errs)
{
    sg.limit = core->setting_num(SET_SPAWN_TIMEOUT);
    sg.p = core->hs->p;
    sg.path = path;
    sg.done = false;
    pthread_t t;
    bool watched = sg.limit && pthread_create(&t, NULL, spawn_watch, NULL) == 0;
    int rc = MPI_Comm_spawn(path, argv[1] ? (char **)argv + 1 : MPI_ARGV_NULL, (int)core->hs->p, MPI_INFO_NULL, 0,
                            MPI_COMM_SELF, ic, errs);
    if (watched) {
        pthread_mutex_lock(&sg.lock);
        sg.done = true;
        pthread_cond_signal(&sg.done_cv);
        pthread_mutex_unlock(&sg.lock);
        pthread_join(t, NULL);
    }
    return rc;
}

int hmpi_run(const char *path, char *const argv[])
{
    if (run_here)
        return HMPI_RUN_HERE;
    if (!uses_superstep(path))
        core->host_error("ebsp_spmd", "cannot start kernel %s on device mpi: it does not use Superstep (build it with "
                   "bspcc); a kernel that never calls bsp_begin cannot be noticed there", path);
    MPI_Comm ic;
    int *errs = calloc(core->hs->p, sizeof *errs);
    if (!errs)
        core->host_error("ebsp_spmd", "out of memory");
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
    int rc = spawn_watched(path, argv, &ic, errs);
    free(errs);
    if (rc != MPI_SUCCESS) {
        spawn_failed(rc, path);
        return HMPI_RUN_HERE;
    }
    send_session(ic);
    int failed = serve(ic);
    MPI_Comm_disconnect(&ic);
    return failed;
}
