/*
 * message.c - a kernel's output: ebsp_message, its error lines, bsp_abort.
 *
 * Each processor writes its lines into its own ring in the session
 * segment; the host prints them.  Order: every line takes a ticket from
 * one counter of the run just before it is written, so a line written
 * after a barrier has a larger ticket than every line written (completely)
 * before it, by any processor; the host prints in ticket order.  Waiting
 * for room in the ring happens before the ticket is taken, so a processor
 * never holds a ticket while it waits, and the host can always print the
 * smallest ticket outstanding.
 *
 * A fatal error of this processor is printed by the launch layer on
 * stderr; so that it never overtakes this processor's earlier lines,
 * the failure hook first waits until the host has printed (and flushed)
 * everything in the ring, for as long as that takes: the wait ends on
 * the host's progress or the job's failure, never on a clock.
 */
#include <e_bsp.h>

#include "barrier/barrier.h"
#include "bsp/bsp_impl.h"
#include "ebsp/ebsp.h"
#include "ebsp/ebsp_mpi.h"
#include "launch/launch.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void ring_copy(char *ring, uint64_t pos, const void *src, uint64_t n)
{
    uint64_t at = pos & (EBSP_RING - 1), first = n < EBSP_RING - at ? n : EBSP_RING - at;
    memcpy(ring + at, src, first);
    if (n > first)
        memcpy(ring, (const char *)src + first, n - first);
}

/* Wait until this processor's ring has room for 'need' bytes (EBSP_RING:
 * until the host has printed, and flushed, all of it: hprint.c moves the
 * tail only after its flush); false when the job failed meanwhile.  The
 * wait follows the host's progress (ring_drained) and has no bound: a host
 * that stops printing holds the run, as any stopped process of it does. */
static bool await_room(uint64_t need)
{
    struct ebsp_proc *me = ek.mine;
    uint64_t head = atomic_load_explicit(&me->ring_head, memory_order_relaxed);
    for (;;) {
        uint32_t drained = atomic_load(&me->ring_drained);
        if (head + need - atomic_load(&me->ring_tail) <= EBSP_RING)
            return true;
        ebsp_ring_doorbell(ek.sh);
        if (!wait_word(&job.ls->barrier, &me->ring_drained, drained, -1))
            return false;
    }
}

/* Write one line (n bytes of text) to this processor's ring. */
static void ring_write(const char *text, uint32_t len)
{
    if (ek.mpi) { /* to the host, which prints it before it answers */
        kmpi_line(text, len);
        return;
    }
    struct ebsp_proc *me = ek.mine;
    char *ring = ek.seg.base + me->ring_off;
    uint64_t need = ebsp_msg_size(len);
    uint64_t head = atomic_load_explicit(&me->ring_head, memory_order_relaxed);
    if (!await_room(need))
        launch_stopped();
    uint64_t ticket = atomic_fetch_add(&ek.sh->msg_ticket, 1);
    ring_copy(ring, head, &len, 4);
    ring_copy(ring, head + 4, &ticket, 8);
    ring_copy(ring, head + EBSP_MSG_HDR, text, len);
    atomic_store_explicit(&me->ring_head, head + need, memory_order_release);
    ebsp_ring_doorbell(ek.sh);
}

static void vmessage(const char *format, va_list ap)
{
    char line[EBSP_MAX_LINE];
    int n = vsnprintf(line, sizeof line, format ? format : "(null)", ap);
    if (n < 0)
        n = 0;
    if ((size_t)n >= sizeof line)
        n = (int)sizeof line - 1;
    bsp_require_not_forked("ebsp_message");
    if (!ek.begun) { /* no host to print it: print it here, as one write */
        char out[EBSP_MAX_LINE + 16];
        int len = snprintf(out, sizeof out, "$--: %.*s\n", n, line);
        fflush(stdout);
        (void)!write(1, out, (size_t)len < sizeof out ? (size_t)len : sizeof out - 1);
        return;
    }
    ring_write(line, (uint32_t)n);
}

void ebsp_message(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    vmessage(format, ap);
    va_end(ap);
}

/* ---- errors ------------------------------------------------------------------- */

void ebsp_soft_error(const char *call, const char *upstream, const char *fmt, ...)
{
    if (ek.strict) {
        char what[768];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(what, sizeof what, fmt, ap);
        va_end(ap);
        bsp_error(call, "%s", what);
    }
    ebsp_message("BSP ERROR: %s", upstream);
}

/* bsp_abort in a kernel, as Epiphany BSP shows it: the message as one of
 * this processor's lines, then the host says "(BSP) ERROR: bsp_abort was
 * called" and ebsp_spmd returns 0.  The run fails without a Superstep
 * error line (with SUPERSTEP_STRICT=1: BSPlib's bsp_abort line). */
void ebsp_core_abort(const char *format, ...)
{
    va_list ap;
    va_start(ap, format);
    if (ek.strict || !ek.begun)
        bsp_vabort(format, ap);
    char line[EBSP_MAX_LINE];
    vsnprintf(line, sizeof line, format ? format : "(no message)", ap);
    va_end(ap);
    launch_one_line(line, sizeof line); /* one line, as every user message (oneline.c) */
    ebsp_message("%s", line);
    if (ek.mpi) /* the host says so and stops the run (kmpi.c) */
        kmpi_abort();
    atomic_store(&ek.sh->aborted, 1);
    launch_report(LAUNCH_EXIT_ERROR, NULL); /* the line was this processor's message */
    launch_stopped();
}

/* Before the launch layer prints this processor's failure line: let the
 * host print what this processor wrote before it (not when the job has
 * failed already: the host stops printing then). */
static void fail_hook(uint32_t code, const char *msg)
{
    (void)code;
    if (msg && ek.begun)
        await_room(EBSP_RING);
}

void ebsp_messages_begin(void)
{
    if (!ek.mpi) /* on mpi each line is printed before ebsp_message returns */
        launch_fail_hook = fail_hook;
}
