/*
 * kmpi.c - an Epiphany BSP kernel on the mpi device: the session segment
 * received from the host and sent back, ebsp_message lines, ebsp_host_sync,
 * bsp_abort (the protocol and the packets both sides use:
 * session/session_mpi.h).
 */
#include <mpi.h>

#include "bsp/bsp_impl.h"
#include "device/device.h"
#include "mpi/mpi_fail.h"
#include "mpi/mpi_wait.h"
#include "ebsp/ebsp.h"
#include "ebsp/ebsp_mpi.h"
#include "mpi/session_mpi.h"
#include "mpi/lines.h"
#include "launch/launch.h"
#include "settings/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

static MPI_Comm parent = MPI_COMM_NULL;
static char *was;          /* the segment above the memories as last sent: what changed is sent back */
static uint64_t was_lo, was_hi;
static MPI_Request acking = MPI_REQUEST_NULL; /* the host's acknowledgement of a line, awaited */

/* ---- the host's stop ------------------------------------------------------------ */

/* The run has failed (a kernel's bsp_abort or error line) and the host has
 * said so (EM_STOP): answer, leave the host and end this process with
 * status 0.  A kernel that ended otherwise (MPI_Abort, a non-zero status,
 * no MPI_Finalize) would make mpirun stop the whole job, the host with it;
 * so the host survives a failed run, as on shm.  What this kernel waited
 * for in the BSP layer (an exchange with the kernel that failed) stays
 * unfinished: MPI_Finalize leaves it. */
static void leave_stopped(void) __attribute__((noreturn));
static void leave_stopped(void)
{
    mpi_idle_poll = NULL;
    if (acking != MPI_REQUEST_NULL) { /* the host prints no more lines: no ack comes */
        MPI_Cancel(&acking);
        MPI_Wait(&acking, MPI_STATUS_IGNORE);
    }
    mpi_leave_stopped(parent);
}

/* At every look of a wait (mpi_idle_poll, wait_host). */
static void look_for_stop(void)
{
    int any = 0;
    MPI_Iprobe(0, EM_STOP, parent, &any, MPI_STATUS_IGNORE);
    if (!any)
        return;
    MPI_Recv(NULL, 0, MPI_BYTE, 0, EM_STOP, parent, MPI_STATUS_IGNORE);
    leave_stopped();
}

/* Wait for the host's message with 'tag' (em_wait), or its stop. */
static void wait_host(int tag)
{
    void (*poll)(void) = mpi_idle_poll;
    mpi_idle_poll = look_for_stop;
    mpi_wait_probe(0, tag, parent, MPI_STATUS_IGNORE, 0);
    mpi_idle_poll = poll;
}

/* ---- the kernel ----------------------------------------------------------------- */

bool kmpi_spawned(void)
{
    uint32_t world, me;
    if (strcmp(core->device_choose()->name, "mpi") || !(*core->dev)->world || !(*core->dev)->world(&world, &me))
        return false; /* world() starts MPI */
    MPI_Comm_get_parent(&parent);
    if (parent != MPI_COMM_NULL)
        mpi_idle_poll = look_for_stop;
    return parent != MPI_COMM_NULL;
}

static void remember_high(void)
{
    was_lo = core->ek->sh->mem_end;
    was_hi = atomic_load(&core->ek->seg.hdr->brk);
    free(was);
    was = malloc(was_hi - was_lo + 1);
    if (!was)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: out of memory copying the session segment");
    memcpy(was, core->ek->seg.base + was_lo, was_hi - was_lo);
}

/* Kernels on one machine share one copy of the session segment, as on
 * shm: the memfd kernel 0 makes, which the others open through /proc (the
 * same user's process).  So their local and external memories are one
 * memory, and ebsp_get_direct_address, DMA and e-lib reach another
 * kernel's memory during the run.  Kernels spread over machines keep a
 * copy each (ebsp_get_direct_address of another kernel is then an error). */
static bool share_segment(uint64_t size, uint32_t p)
{
    if (core->setting_num(SET_MPI_NO_SHARE)) /* tests the path of kernels on several machines */
        return false;
    int world = 1, me = 0, local = 0;
    MPI_Comm_size(MPI_COMM_WORLD, &world);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &local);
    MPI_Comm_free(&node);
    if (local != world) /* the same answer on every kernel */
        return false;
    int64_t where[2] = { getpid(), -1 }; /* kernel 0's pid and descriptor */
    if (me == 0 && core->seg_create(&core->ek->seg, (size_t)size, p) == 0)
        where[1] = core->ek->seg.fd;
    MPI_Bcast(where, 2, MPI_INT64_T, 0, MPI_COMM_WORLD);
    int ok = where[1] >= 0;
    if (ok && me != 0) {
        char path[64];
        snprintf(path, sizeof path, "/proc/%lld/fd/%lld", (long long)where[0], (long long)where[1]);
        int fd = open(path, O_RDWR | O_CLOEXEC);
        ok = fd >= 0 && core->seg_attach(&core->ek->seg, fd) == 0;
        if (!ok && fd >= 0)
            close(fd);
    }
    int all = 0;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!all && ok)
        core->seg_detach(&core->ek->seg);
    return all;
}

/* Every kernel has written the shared segment (the same bytes): none may
 * run on and write its own memory while another still copies. */
static void shared_barrier(void)
{
    MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    mpi_wait_all(1, &r);
}

int kmpi_begin(void)
{
    uint64_t h[3]; /* segment size, extents, p */
    MPI_Request r; /* the host sends it once every kernel has started: wait without a busy core */
    MPI_Ibcast(h, 3, MPI_UINT64_T, 0, parent, &r);
    mpi_wait_all(1, &r);
    core->ek->mpi_shared = share_segment(h[0], (uint32_t)h[2]);
    int rc = core->ek->mpi_shared ? 0 : core->seg_create(&core->ek->seg, (size_t)h[0], (uint32_t)h[2]);
    if (rc)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: cannot make a copy of the host's session segment (%llu bytes): %s",
                    (unsigned long long)h[0], strerror(-rc));
    uint64_t *ext = malloc(16 * h[1] + 16);
    if (!ext)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: out of memory");
    MPI_Bcast(ext, (int)(2 * h[1]), MPI_UINT64_T, 0, parent);
    for (uint64_t i = 0; i < h[1]; i++) {
        char *at = core->ek->seg.base + ext[2 * i];
        for (uint64_t n = ext[2 * i + 1]; n;) {
            int k = (int)(n < EM_PIECE ? n : EM_PIECE);
            MPI_Bcast(at, k, MPI_BYTE, 0, parent);
            at += k;
            n -= (uint64_t)k;
        }
    }
    free(ext);
    if (core->ek->mpi_shared)
        shared_barrier();
    core->ek->sh = ebsp_shared_of(&core->ek->seg);
    if (core->ek->sh->magic != EBSP_MAGIC)
        core->launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: the host sent no session segment");
    remember_high();
    return (int)h[2];
}

void kmpi_line(const char *text, uint32_t len)
{
    MPI_Send(text, (int)len, MPI_CHAR, 0, EM_LINE, parent);
    MPI_Irecv(NULL, 0, MPI_BYTE, 0, EM_ACK, parent, &acking);
    mpi_wait_all(1, &acking);
}

/* What this processor owns in the session segment, to the host. */
static void send_back(int tag, bool with_up)
{
    struct em_build b = { 0 };
    const struct ebsp_proc *pr = core->ek->mine;
    em_add_extents(&b, &core->ek->seg, pr->local_off, pr->local_off + core->ek->sh->local_size);
    em_add_extents(&b, &core->ek->seg, pr->ext_off, pr->ext_off + core->ek->sh->ext_size);
    if (!core->ek->mpi_shared || core->bsp->me == 0) /* shared: one kernel sends what all wrote there */
        em_add_changes(&b, &core->ek->seg, was_lo, was_hi, was);
    if (with_up) {
        b.h.up_len = pr->up_len;
        b.h.up_count = pr->up_count;
        b.up = core->ek->seg.base + pr->up_off;
    }
    b.h.up_tagsize = atomic_load(&core->ek->sh->up_tagsize);
    em_send(&b, 0, tag, parent);
    em_free(&b);
    memcpy(was, core->ek->seg.base + was_lo, was_hi - was_lo);
}

/* Every kernel must be in ebsp_host_sync: they meet first in the flags
 * round of an exchange, where kernels in bsp_sync or bsp_end (ebsp_barrier
 * is a bsp_sync on mpi) meet them too.  With the flags of ebsp_barrier on
 * shm (EBSP_BARRIER_FLAGS), each side sees the mismatch: those in bsp_sync
 * or bsp_end wait for the report (bsp_collective_mismatch), those here
 * report it (the lowest prints), as the host does on shm. */
static void meet_kernels(void)
{
    uint32_t other;
    uint64_t theirs;
    uint64_t sum = (*core->dev)->meet(EBSP_BARRIER_FLAGS, &other, &theirs);
    if (XGET(sum, XF_END) == core->bsp->p && XGET(sum, XF_REGS) == core->bsp->p)
        return;
    bool in_end = XGET(theirs, XF_END) && !XGET(theirs, XF_REGS);
    core->bsp_error("ebsp_host_sync", "called ebsp_host_sync while processor %u called %s", other,
              in_end ? "bsp_end" : "bsp_sync");
}

void kmpi_host_sync(void)
{
    core->bsp_set_call(CALL_HOST_SYNC);
    meet_kernels();
    core->bsp_set_call(CALL_NONE);
    send_back(EM_HSYNC, false);
    struct em_build b;
    wait_host(EM_RELEASE);
    em_recv(&b, 0, EM_RELEASE, parent);
    if (!em_apply(&b, &core->ek->seg))
        core->launch_fail(LAUNCH_EXIT_ERROR, "ebsp_host_sync: the host's memory update does not fit the segment");
    em_free(&b);
    if (core->ek->mpi_shared) /* no kernel reads another's memory before the host's update is in */
        shared_barrier();
}

/* Leave the host once every kernel has ended (EM_BYE; MPI_Comm_disconnect
 * would wait for the others polling without a pause). */
void kmpi_end(void)
{
    if (core->ek->mpi_shared) {
        /* Kernel 0 sends what every kernel wrote above the memories (the
         * streams): all must have stopped writing.  They meet as in
         * bsp_end's barrier, whose mismatches (a kernel in bsp_sync) are
         * reported the same way. */
        uint32_t other;
        uint64_t theirs;
        core->bsp_set_call(CALL_END);
        uint64_t sum = (*core->dev)->meet(XFLAG(XF_END), &other, &theirs);
        if (XGET(sum, XF_END) != core->bsp->p || XGET(sum, XF_REGS))
            core->bsp_collective_mismatch();
        core->bsp_set_call(CALL_NONE);
    }
    send_back(EM_END, true);
    wait_host(EM_BYE); /* or EM_STOP: leave_stopped */
    MPI_Recv(NULL, 0, MPI_BYTE, 0, EM_BYE, parent, MPI_STATUS_IGNORE);
    mpi_idle_poll = NULL;
    MPI_Comm_disconnect(&parent);
}

/* The host prints Epiphany BSP's line and stops the run (EM_STOP): the
 * host survives and ebsp_spmd returns 0, as on shm. */
void kmpi_abort(void)
{
    fflush(NULL);
    MPI_Send(NULL, 0, MPI_BYTE, 0, EM_ABORT, parent);
    wait_host(EM_STOP);
    look_for_stop(); /* takes it and leaves */
    mpi_abort_job(LAUNCH_EXIT_ERROR); /* not reached */
}
