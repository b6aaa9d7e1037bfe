/*
 * kmpi.c - an Epiphany BSP kernel on the mpi device: the session segment
 * received from the host and sent back, ebsp_message lines, ebsp_host_sync,
 * bsp_abort (the protocol and the packets both sides use:
 * session/session_mpi.h).
 */
#include <mpi.h>

#include "bsp/bsp_impl.h"
#include "device/device.h"
#include "device/mpi_fail.h"
#include "ebsp/ebsp.h"
#include "ebsp/ebsp_mpi.h"
#include "session/session_mpi.h"
#include "launch/launch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static MPI_Comm parent = MPI_COMM_NULL;
static char *was;          /* the segment above the memories as last sent: what changed is sent back */
static uint64_t was_lo, was_hi;

/* ---- the kernel ----------------------------------------------------------------- */

bool kmpi_spawned(void)
{
    uint32_t world, me;
    if (strcmp(device_choose()->name, "mpi") || !dev->world || !dev->world(&world, &me))
        return false; /* world() starts MPI */
    MPI_Comm_get_parent(&parent);
    return parent != MPI_COMM_NULL;
}

static void remember_high(void)
{
    was_lo = ek.sh->mem_end;
    was_hi = atomic_load(&ek.seg.hdr->brk);
    free(was);
    was = malloc(was_hi - was_lo + 1);
    if (!was)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: out of memory copying the session segment");
    memcpy(was, ek.seg.base + was_lo, was_hi - was_lo);
}

int kmpi_begin(void)
{
    uint64_t h[3]; /* segment size, extents, p */
    MPI_Bcast(h, 3, MPI_UINT64_T, 0, parent);
    int rc = seg_create(&ek.seg, (size_t)h[0], (uint32_t)h[2]);
    if (rc)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: cannot make a copy of the host's session segment (%llu bytes): %s",
                    (unsigned long long)h[0], strerror(-rc));
    uint64_t *ext = malloc(16 * h[1] + 16);
    if (!ext)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: out of memory");
    MPI_Bcast(ext, (int)(2 * h[1]), MPI_UINT64_T, 0, parent);
    for (uint64_t i = 0; i < h[1]; i++) {
        char *at = ek.seg.base + ext[2 * i];
        for (uint64_t n = ext[2 * i + 1]; n;) {
            int k = (int)(n < EM_PIECE ? n : EM_PIECE);
            MPI_Bcast(at, k, MPI_BYTE, 0, parent);
            at += k;
            n -= (uint64_t)k;
        }
    }
    free(ext);
    ek.sh = ebsp_shared_of(&ek.seg);
    if (ek.sh->magic != EBSP_MAGIC)
        launch_fail(LAUNCH_EXIT_ERROR, "bsp_begin: the host sent no session segment");
    remember_high();
    return (int)h[2];
}

void kmpi_line(const char *text, uint32_t len)
{
    MPI_Send(text, (int)len, MPI_CHAR, 0, EM_LINE, parent);
    MPI_Recv(NULL, 0, MPI_BYTE, 0, EM_ACK, parent, MPI_STATUS_IGNORE);
}

/* What this processor owns in the session segment, to the host. */
static void send_back(int tag, bool with_up)
{
    struct em_build b = { 0 };
    const struct ebsp_proc *pr = ek.mine;
    em_add_extents(&b, &ek.seg, pr->local_off, pr->local_off + ek.sh->local_size);
    em_add_extents(&b, &ek.seg, pr->ext_off, pr->ext_off + ek.sh->ext_size);
    em_add_changes(&b, &ek.seg, was_lo, was_hi, was);
    if (with_up) {
        b.h.up_len = pr->up_len;
        b.h.up_count = pr->up_count;
        b.up = ek.seg.base + pr->up_off;
    }
    b.h.up_tagsize = atomic_load(&ek.sh->up_tagsize);
    em_send(&b, 0, tag, parent);
    em_free(&b);
    memcpy(was, ek.seg.base + was_lo, was_hi - was_lo);
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
    uint64_t sum = dev->meet(EBSP_BARRIER_FLAGS, &other, &theirs);
    if (XGET(sum, XF_END) == bsp.p && XGET(sum, XF_REGS) == bsp.p)
        return;
    bool in_end = XGET(theirs, XF_END) && !XGET(theirs, XF_REGS);
    bsp_error("ebsp_host_sync", "called ebsp_host_sync while processor %u called %s", other,
              in_end ? "bsp_end" : "bsp_sync");
}

void kmpi_host_sync(void)
{
    bsp_set_call(CALL_HOST_SYNC);
    meet_kernels();
    bsp_set_call(CALL_NONE);
    send_back(EM_HSYNC, false);
    struct em_build b;
    MPI_Status st;
    em_wait(0, EM_RELEASE, parent, &st);
    em_recv(&b, 0, EM_RELEASE, parent);
    if (!em_apply(&b, &ek.seg))
        launch_fail(LAUNCH_EXIT_ERROR, "ebsp_host_sync: the host's memory update does not fit the segment");
    em_free(&b);
}

void kmpi_end(void)
{
    send_back(EM_END, true);
    MPI_Comm_disconnect(&parent);
}

void kmpi_abort(void)
{
    MPI_Send(NULL, 0, MPI_BYTE, 0, EM_ABORT, parent);
    MPI_Recv(NULL, 0, MPI_BYTE, 0, EM_ACK, parent, MPI_STATUS_IGNORE);
    fflush(NULL);
    mpi_abort_job(LAUNCH_EXIT_ERROR);
}
