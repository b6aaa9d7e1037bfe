/*
 * channel.h - single-writer single-reader byte FIFOs in the shared segment.
 *
 * A channel is a circular list of rings.  The writer fills its ring; when the
 * ring is full it moves on to the next ring in the list if the reader has
 * freed it, and otherwise links a new, larger ring in front of it.  So a
 * writer never waits for the reader, however much it writes, and the rings a
 * channel owns stop growing once they hold the largest burst in flight.
 * Growth needs no lock: only the writer links rings, and it publishes a
 * ring's link before closing it, so the reader follows a link only after
 * the ring it leaves is closed.
 *
 * The writer and the reader each keep a cursor in their own memory; the
 * shared part holds only offsets, so either side may map the segment
 * anywhere.  Writes become visible to the reader when published
 * (chan_publish), or marked (chan_mark) for a superstep boundary.
 *
 * Ordering contract.  The reader reads bytes only up to a limit it loaded
 * with acquire: a ring's head, the channel's 'published', or a mark; and it
 * follows a ring's link only after loading the ring's CLOSED state with
 * acquire.  Every store that moves such a limit (head, published, mark,
 * state, first) is a release made after the bytes or the link it covers.
 * Symmetrically the reader frees room with a release store of the ring's
 * tail (or FREE state) that the writer loads with acquire before reusing
 * it.  So the channel is race-free in the C11 model on any CPU, not only on
 * x86; tests/tsan checks it under ThreadSanitizer.
 */
#ifndef SUPERSTEP_CHANNEL_H
#define SUPERSTEP_CHANNEL_H

#include "segment/segment.h"

#include <stdbool.h>

#define CHAN_MIN_RING 4096u

/* Shared state of one channel: two cache lines, one per side. */
struct channel {
    _Atomic uint64_t first;      /* offset of the reader's starting ring (0: none yet) */
    _Atomic uint64_t mark[2];    /* positions marked at superstep boundaries */
    _Atomic uint64_t published;  /* total bytes published (streaming use) */
    char pad0[SEG_LINE - 4 * sizeof(uint64_t)];
    _Atomic uint64_t consumed;   /* total bytes the reader has consumed */
    _Atomic uint32_t waiting;    /* reader asleep on 'published' (futex) */
    char pad1[SEG_LINE - sizeof(uint64_t) - sizeof(uint32_t)];
};

struct chan_ring;

struct chan_writer {
    struct segment *seg;
    struct channel *ch;
    struct chan_ring *ring;
    char *data;
    uint64_t head;       /* bytes written into the current ring */
    uint64_t tail_seen;  /* last tail read from the ring */
    uint64_t mask;
    uint64_t total;      /* bytes written into the channel */
};

struct chan_reader {
    struct segment *seg;
    struct channel *ch;
    struct chan_ring *ring;
    char *data;
    uint64_t tail;
    uint64_t mask;
    uint64_t total;      /* bytes consumed from the channel */
};

void chan_writer_init(struct chan_writer *w, struct segment *seg, struct channel *ch);
void chan_reader_init(struct chan_reader *r, struct segment *seg, struct channel *ch);

/* Append n bytes; returns false only when the segment is exhausted. */
bool chan_write_slow(struct chan_writer *w, const void *buf, size_t n);

static inline bool chan_write(struct chan_writer *w, const void *buf, size_t n)
{
    if (n == 0)
        return true;
    uint64_t pos = w->head & w->mask;
    if (w->data && w->head + n - w->tail_seen <= w->mask + 1 && pos + n <= w->mask + 1) {
        __builtin_memcpy(w->data + pos, buf, n);
        w->head += n;
        w->total += n;
        return true;
    }
    return chan_write_slow(w, buf, n);
}

/* Contiguous room for n bytes at the write position, or NULL (then use
 * chan_write); the bytes count as written once chan_commit(w, n) is called. */
static inline void *chan_reserve(struct chan_writer *w, size_t n)
{
    uint64_t pos = w->head & w->mask;
    if (w->data && w->head + n - w->tail_seen <= w->mask + 1 && pos + n <= w->mask + 1)
        return w->data + pos;
    return NULL;
}

/* All contiguous free room at the write position (NULL if no ring yet),
 * as known without reading the reader's position again. */
static inline void *chan_room(struct chan_writer *w, size_t *room)
{
    if (!w->data) {
        *room = 0;
        return NULL;
    }
    uint64_t pos = w->head & w->mask;
    uint64_t free_bytes = w->mask + 1 - (w->head - w->tail_seen);
    uint64_t to_end = w->mask + 1 - pos;
    *room = (size_t)(free_bytes < to_end ? free_bytes : to_end);
    return w->data + pos;
}

static inline void chan_commit(struct chan_writer *w, size_t n)
{
    w->head += n;
    w->total += n;
}

/* Make everything written so far visible to the reader. */
void chan_publish(struct chan_writer *w);

/* Publish and record the position in mark[slot] for the boundary 'tag'. */
void chan_mark(struct chan_writer *w, int slot, uint64_t tag);

/* Bytes from the read position up to the mark in 'slot', if that mark was
 * made at boundary 'tag'; 0 if the writer marked nothing there. */
uint64_t chan_marked(struct chan_reader *r, int slot, uint64_t tag);

/* Start loading (prefetch) the lines of the first n bytes at the read
 * position, at most CHAN_PREFETCH of them, and the ring's head: after a
 * barrier they are in the writer's cache, and a reader that only reads them
 * in order pays one cross-core transfer after another.  A hint only: the
 * bytes may be in the next ring, then nothing useful is loaded. */
#define CHAN_PREFETCH 1024u
void chan_prefetch(const struct chan_reader *r, uint64_t n);

/* Bytes readable now: up to what the writer published. */
uint64_t chan_available(struct chan_reader *r);

/*
 * Contiguous readable bytes at the read position, at most 'limit' (the caller
 * knows how many bytes are there: a marked or published position).
 */
const void *chan_peek(struct chan_reader *r, uint64_t limit, size_t *len);
void chan_consume(struct chan_reader *r, size_t n);

/* Copy out exactly n bytes that the caller knows are there. */
void chan_read(struct chan_reader *r, void *buf, size_t n);

/* Tell the writer how far the reader has got, so it can reuse ring space. */
void chan_release(struct chan_reader *r);

/* A copy of a reader cursor that reads without consuming (pre-scan). */
static inline struct chan_reader chan_scan_cursor(const struct chan_reader *r)
{
    return *r;
}
void chan_scan_read(struct chan_reader *c, void *buf, size_t n);
void chan_scan_skip(struct chan_reader *c, uint64_t n);

/* Bytes of ring memory a channel holds (for tests and the memory benchmark). */
uint64_t chan_capacity(struct segment *seg, struct channel *ch);

#endif
