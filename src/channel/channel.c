/*
 * channel.c - the growable single-writer single-reader FIFO.
 *
 * Ring states move WRITING -> CLOSED (writer left it) -> FREE (reader left
 * it) -> WRITING (writer took it again).  Exactly one ring is WRITING.  The
 * rings after the writer's ring in the circular list, up to the reader's
 * ring, are FREE; so the writer may take its successor when that is FREE,
 * and must insert a new ring otherwise.
 */
#include "channel/channel.h"

#include <string.h>

enum { RING_WRITING = 0, RING_CLOSED = 1, RING_FREE = 2 };

struct chan_ring {
    _Atomic uint64_t head;     /* written by the writer */
    uint64_t cap;
    _Atomic uint64_t next;     /* offset of the next ring in the list */
    _Atomic uint32_t state;
    char pad0[SEG_LINE - 3 * sizeof(uint64_t) - sizeof(uint32_t)];
    _Atomic uint64_t tail;     /* written by the reader */
    char pad1[SEG_LINE - sizeof(uint64_t)];
};

#define RING_DATA(r) ((char *)(r) + sizeof(struct chan_ring))

static struct chan_ring *ring_at(struct segment *seg, uint64_t off)
{
    return off ? seg_ptr(seg, off) : NULL;
}

void chan_writer_init(struct chan_writer *w, struct segment *seg, struct channel *ch)
{
    memset(w, 0, sizeof *w);
    w->seg = seg;
    w->ch = ch;
    uint64_t first = atomic_load(&ch->first);
    if (first) { /* adopting an existing channel: continue in its WRITING ring */
        struct chan_ring *r = ring_at(seg, first);
        while (atomic_load(&r->state) != RING_WRITING)
            r = ring_at(seg, atomic_load(&r->next));
        w->ring = r;
        w->data = RING_DATA(r);
        w->mask = r->cap - 1;
        w->head = atomic_load(&r->head);
        w->tail_seen = atomic_load(&r->tail);
        w->total = atomic_load(&ch->published);
    }
}

void chan_reader_init(struct chan_reader *r, struct segment *seg, struct channel *ch)
{
    memset(r, 0, sizeof *r);
    r->seg = seg;
    r->ch = ch;
    r->total = atomic_load(&ch->consumed);
}

static struct chan_ring *ring_new(struct segment *seg, uint64_t cap)
{
    uint64_t off = seg_alloc(seg, sizeof(struct chan_ring) + cap, SEG_LINE);
    if (!off)
        return NULL;
    struct chan_ring *r = seg_ptr(seg, off);
    atomic_store_explicit(&r->head, 0, memory_order_relaxed);
    atomic_store_explicit(&r->tail, 0, memory_order_relaxed);
    atomic_store_explicit(&r->state, RING_WRITING, memory_order_relaxed);
    r->cap = cap;
    return r;
}

static uint64_t pow2_at_least(uint64_t n)
{
    uint64_t c = CHAN_MIN_RING;
    while (c < n)
        c <<= 1;
    return c;
}

static void writer_enter(struct chan_writer *w, struct chan_ring *r)
{
    w->ring = r;
    w->data = RING_DATA(r);
    w->mask = r->cap - 1;
    w->head = atomic_load_explicit(&r->head, memory_order_relaxed);
    w->tail_seen = atomic_load_explicit(&r->tail, memory_order_acquire);
}

/* Leave the full current ring for one with room for 'need' more bytes. */
static bool writer_advance(struct chan_writer *w, uint64_t need)
{
    struct chan_ring *cur = w->ring;
    struct chan_ring *next = ring_at(w->seg, atomic_load_explicit(&cur->next, memory_order_relaxed));
    if (next != cur && atomic_load_explicit(&next->state, memory_order_acquire) == RING_FREE) {
        atomic_store_explicit(&next->head, 0, memory_order_relaxed);
        atomic_store_explicit(&next->tail, 0, memory_order_relaxed);
        atomic_store_explicit(&next->state, RING_WRITING, memory_order_relaxed);
    } else {
        uint64_t cap = pow2_at_least(need > 2 * cur->cap ? need : 2 * cur->cap);
        struct chan_ring *fresh = ring_new(w->seg, cap);
        if (!fresh)
            return false;
        atomic_store_explicit(&fresh->next, seg_off(w->seg, next), memory_order_relaxed);
        atomic_store_explicit(&cur->next, seg_off(w->seg, fresh), memory_order_relaxed);
        next = fresh;
    }
    /* Publish the last bytes and the link, then close: the reader follows
     * the link only after it sees the ring closed.  The head is a limit the
     * reader reads up to, so its store is a release like every other. */
    atomic_store_explicit(&cur->head, w->head, memory_order_release);
    atomic_store_explicit(&cur->state, RING_CLOSED, memory_order_release);
    writer_enter(w, next);
    return true;
}

static bool writer_first(struct chan_writer *w, uint64_t need)
{
    struct chan_ring *r = ring_new(w->seg, pow2_at_least(need));
    if (!r)
        return false;
    uint64_t off = seg_off(w->seg, r);
    atomic_store_explicit(&r->next, off, memory_order_relaxed);
    atomic_store_explicit(&w->ch->first, off, memory_order_release);
    writer_enter(w, r);
    return true;
}

bool chan_write_slow(struct chan_writer *w, const void *buf, size_t n)
{
    const char *src = buf;
    if (!w->data && !writer_first(w, n))
        return false;
    while (n) {
        uint64_t cap = w->mask + 1;
        uint64_t room = cap - (w->head - w->tail_seen);
        if (room < n) {
            w->tail_seen = atomic_load_explicit(&w->ring->tail, memory_order_acquire);
            room = cap - (w->head - w->tail_seen);
        }
        if (room == 0) {
            if (!writer_advance(w, n))
                return false;
            continue;
        }
        uint64_t chunk = n < room ? n : room;
        uint64_t pos = w->head & w->mask;
        uint64_t first = cap - pos < chunk ? cap - pos : chunk;
        memcpy(w->data + pos, src, first);
        memcpy(w->data, src + first, chunk - first);
        w->head += chunk;
        w->total += chunk;
        src += chunk;
        n -= chunk;
    }
    return true;
}

void chan_publish(struct chan_writer *w)
{
    if (w->ring)
        atomic_store_explicit(&w->ring->head, w->head, memory_order_release);
    atomic_store_explicit(&w->ch->published, w->total, memory_order_release);
}

/* A mark packs the boundary's tag (high bits) with the position (low bits),
 * so a reader can tell a fresh mark from one left by an older boundary. */
#define MARK_POS_BITS 44
#define MARK_POS_MASK ((1ull << MARK_POS_BITS) - 1)

void chan_mark(struct chan_writer *w, int slot, uint64_t tag)
{
    chan_publish(w);
    uint64_t m = (tag << MARK_POS_BITS) | (w->total & MARK_POS_MASK);
    atomic_store_explicit(&w->ch->mark[slot], m, memory_order_release);
}

uint64_t chan_marked(struct chan_reader *r, int slot, uint64_t tag)
{
    uint64_t m = atomic_load_explicit(&r->ch->mark[slot], memory_order_acquire);
    if ((m >> MARK_POS_BITS) != (tag & ((1ull << (64 - MARK_POS_BITS)) - 1)))
        return 0;
    uint64_t n = ((m & MARK_POS_MASK) - r->total) & MARK_POS_MASK;
    return n >> (MARK_POS_BITS - 1) ? 0 : n; /* behind us: an aliased old mark */
}

void chan_prefetch(const struct chan_reader *r, uint64_t n)
{
    if (!r->ring)
        return;
    __builtin_prefetch(&r->ring->head);
    uint64_t pos = r->tail & r->mask, to_end = r->mask + 1 - pos;
    if (n > to_end)
        n = to_end;
    if (n > CHAN_PREFETCH)
        n = CHAN_PREFETCH;
    const char *at = r->data + pos;
    for (uint64_t i = 0; i < n; i += SEG_LINE)
        __builtin_prefetch(at + i);
    if (n)
        __builtin_prefetch(at + n - 1); /* the last line when 'at' is not line-aligned */
}

uint64_t chan_available(struct chan_reader *r)
{
    return atomic_load_explicit(&r->ch->published, memory_order_acquire) - r->total;
}

static void reader_enter(struct chan_reader *r, struct chan_ring *ring)
{
    r->ring = ring;
    r->data = RING_DATA(ring);
    r->mask = ring->cap - 1;
    r->tail = atomic_load_explicit(&ring->tail, memory_order_relaxed);
}

/*
 * Contiguous bytes readable in the cursor's ring; moves to the next ring when
 * this one is drained and closed.  'release' says whether leaving a ring
 * frees it (consuming reader) or not (a pre-scan must leave rings alone).
 */
static size_t cursor_span(struct chan_reader *r, bool release)
{
    if (!r->ring) {
        uint64_t first = atomic_load_explicit(&r->ch->first, memory_order_acquire);
        if (!first)
            return 0;
        reader_enter(r, ring_at(r->seg, first));
    }
    for (;;) {
        uint64_t head = atomic_load_explicit(&r->ring->head, memory_order_acquire);
        if (head != r->tail) {
            uint64_t pos = r->tail & r->mask;
            uint64_t n = head - r->tail;
            uint64_t to_end = r->mask + 1 - pos;
            return n < to_end ? n : to_end;
        }
        if (atomic_load_explicit(&r->ring->state, memory_order_acquire) != RING_CLOSED)
            return 0;
        if (atomic_load_explicit(&r->ring->head, memory_order_acquire) != r->tail)
            continue;
        struct chan_ring *old = r->ring;
        struct chan_ring *next = ring_at(r->seg, atomic_load_explicit(&old->next, memory_order_acquire));
        if (release) {
            atomic_store_explicit(&old->tail, r->tail, memory_order_relaxed);
            atomic_store_explicit(&old->state, RING_FREE, memory_order_release);
        }
        reader_enter(r, next);
        if (!release)
            r->tail = 0; /* a pre-scan sees the ring as the consumer will */
    }
}

const void *chan_peek(struct chan_reader *r, uint64_t limit, size_t *len)
{
    size_t n = limit ? cursor_span(r, true) : 0;
    if (n > limit)
        n = limit;
    *len = n;
    return n ? r->data + (r->tail & r->mask) : NULL;
}

void chan_consume(struct chan_reader *r, size_t n)
{
    r->tail += n;
    r->total += n;
}

void chan_read(struct chan_reader *r, void *buf, size_t n)
{
    char *dst = buf;
    while (n) {
        size_t len;
        const void *p = chan_peek(r, n, &len);
        memcpy(dst, p, len);
        chan_consume(r, len);
        dst += len;
        n -= len;
    }
}

void chan_release(struct chan_reader *r)
{
    if (r->ring)
        atomic_store_explicit(&r->ring->tail, r->tail, memory_order_release);
    atomic_store_explicit(&r->ch->consumed, r->total, memory_order_release);
}

void chan_scan_read(struct chan_reader *c, void *buf, size_t n)
{
    char *dst = buf;
    while (n) {
        size_t span = cursor_span(c, false);
        size_t len = span < n ? span : n;
        memcpy(dst, c->data + (c->tail & c->mask), len);
        c->tail += len;
        c->total += len;
        dst += len;
        n -= len;
    }
}

void chan_scan_skip(struct chan_reader *c, uint64_t n)
{
    while (n) {
        size_t span = cursor_span(c, false);
        size_t len = span < n ? span : n;
        c->tail += len;
        c->total += len;
        n -= len;
    }
}

uint64_t chan_capacity(struct segment *seg, struct channel *ch)
{
    uint64_t first = atomic_load(&ch->first), total = 0;
    if (!first)
        return 0;
    uint64_t off = first;
    do {
        struct chan_ring *r = ring_at(seg, off);
        total += r->cap;
        off = atomic_load(&r->next);
    } while (off != first && off);
    return total;
}
