/*
 * hprint.c - the host prints the kernels' ebsp_message lines.
 *
 * Every line carries a ticket (src/ebsp/message.c): the run's lines
 * numbered in the order they were written, over all processors.  The host
 * prints them strictly in ticket order, so a line written after a barrier
 * never comes out before one written before it.  A ticket that is not yet
 * in its ring (its writer is between taking it and publishing) holds back
 * the later ones until the writer publishes and rings the bell.  After the
 * run a ticket can be missing for good (its writer died): the final pass
 * skips such gaps.
 *
 * A ring's tail moves only after stdout has been flushed, so a kernel that
 * waits for its ring to be empty before printing an error on stderr knows
 * its lines are out first.
 */
#include <host_bsp.h>

#include "barrier/barrier.h"
#include "host/host.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct cursor {
    uint64_t tail, head;
} *cur;
static uint32_t ncur;
static uint64_t next_ticket;
static uint32_t last_q; /* where the previous line came from: look there first */

void host_print_reset(void)
{
    free(cur);
    ncur = hs.p;
    cur = calloc(ncur, sizeof *cur);
    if (!cur)
        host_error("ebsp_spmd", "out of memory");
    next_ticket = 0;
    last_q = 0;
    atomic_store(&hs.sh->msg_ticket, 0);
    atomic_store(&hs.sh->aborted, 0);
    for (uint32_t q = 0; q < hs.p; q++) {
        atomic_store(&hs.sh->proc[q].ring_head, 0);
        atomic_store(&hs.sh->proc[q].ring_tail, 0);
    }
}

static void ring_read(const char *ring, uint64_t pos, void *dst, uint64_t n)
{
    uint64_t at = pos & (EBSP_RING - 1), first = n < EBSP_RING - at ? n : EBSP_RING - at;
    memcpy(dst, ring + at, first);
    if (n > first)
        memcpy((char *)dst + first, ring, n - first);
}

static const char *ring_of(uint32_t q)
{
    return hs.seg.base + hs.sh->proc[q].ring_off;
}

/* The ticket of the first unprinted line of ring q; false when none. */
static bool front(uint32_t q, uint64_t *ticket)
{
    if (cur[q].tail >= cur[q].head)
        return false;
    ring_read(ring_of(q), cur[q].tail + 4, ticket, 8);
    return true;
}

/* Each line of a message gets the prefix. */
static void print_lines(uint32_t pid, const char *s, uint32_t n)
{
    uint32_t i = 0;
    do {
        uint32_t j = i;
        while (j < n && s[j] != '\n')
            j++;
        if (j < n || j > i || i == 0)
            printf("$%02u: %.*s\n", pid, (int)(j - i), s + i);
        i = j + 1;
    } while (i < n);
}

void host_print_line(uint32_t pid, const char *s, uint32_t n)
{
    print_lines(pid, s, n);
}

static void print_front(uint32_t q)
{
    static char line[EBSP_MAX_LINE + 1];
    uint32_t len;
    ring_read(ring_of(q), cur[q].tail, &len, 4);
    if (len > EBSP_MAX_LINE || cur[q].tail + ebsp_msg_size(len) > cur[q].head) {
        cur[q].tail = cur[q].head; /* never happens unless the ring was overwritten */
        return;
    }
    ring_read(ring_of(q), cur[q].tail + EBSP_MSG_HDR, line, len);
    print_lines(q, line, len);
    cur[q].tail += ebsp_msg_size(len);
}

/* The ring whose front line has the ticket 'want'; with 'lowest', the
 * ring with the smallest front ticket instead when none has it. */
static bool find(uint64_t want, bool lowest, uint32_t *out)
{
    uint64_t t, best = UINT64_MAX;
    if (last_q < ncur && front(last_q, &t) && t == want) {
        *out = last_q;
        return true;
    }
    for (uint32_t q = 0; q < ncur; q++) {
        if (!front(q, &t))
            continue;
        if (t == want) {
            *out = q;
            return true;
        }
        if (t < best) {
            best = t;
            *out = q;
        }
    }
    return lowest && best != UINT64_MAX;
}

void host_print(bool final)
{
    if (!cur || !hs.sh)
        return;
    for (uint32_t q = 0; q < ncur; q++)
        cur[q].head = atomic_load_explicit(&hs.sh->proc[q].ring_head, memory_order_acquire);
    bool any = false;
    uint32_t q = 0;
    while (find(next_ticket, final, &q)) {
        uint64_t t;
        front(q, &t);
        print_front(q);
        next_ticket = t + 1;
        last_q = q;
        any = true;
    }
    if (!any)
        return;
    fflush(stdout);
    for (q = 0; q < ncur; q++) {
        struct ebsp_proc *pr = &hs.sh->proc[q];
        if (atomic_load_explicit(&pr->ring_tail, memory_order_relaxed) == cur[q].tail)
            continue;
        atomic_store_explicit(&pr->ring_tail, cur[q].tail, memory_order_release);
        atomic_fetch_add(&pr->ring_drained, 1);
        wake_word(&pr->ring_drained);
    }
}
