/*
 * deprecated.c - the kernel half of Epiphany BSP's deprecated streams
 * (e_bsp_deprecated.h).
 *
 * The host describes each core's streams in a table of the session
 * segment (src/host/hdeprecated.c); this processor's are its streams 0, 1,
 * ... in table order.  A down stream has the layout of bsp_stream_create's
 * streams (8-byte headers: previous size, this size); an up stream is raw
 * bytes.  Everything else is private to the process: the cursor, the chunk
 * buffers (blocks of local memory, so a program may register them), the
 * chunk sizes (kept here, not in front of the buffers, so the address a
 * program gets is the start of an allocation) and the DMA handle.
 */
#include <e_bsp.h>

#include "bsp/bsp_impl.h"
#include "ebsp/ebsp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dep {
    const struct ebsp_dep_desc *d;
    char *start, *end, *cursor;     /* the stream in the segment; next chunk (down) or write position (up) */
    void *cur, *next;               /* chunk buffers */
    int cur_size, next_size;        /* down: sizes of their chunks; up: cur_size is the size to send */
    ebsp_dma_handle dma;
};

static struct dep *deps;
static uint32_t ndeps;
static bool found;

/* This processor's streams, from the host's table (once per run). */
static void find_mine(void)
{
    found = true;
    const struct ebsp_dep_desc *t = seg_ptr(&ek.seg, ek.sh->deps_off);
    for (uint32_t i = 0; i < ek.sh->ndeps; i++) {
        if (t[i].core != bsp.me)
            continue;
        struct dep *n = realloc(deps, (ndeps + 1) * sizeof *deps);
        if (!n)
            bsp_error("ebsp_open_down_stream", "out of memory");
        deps = n;
        char *start = ek.seg.base + t[i].off;
        deps[ndeps++] = (struct dep){ .d = &t[i], .start = start, .end = start + t[i].nbytes, .cursor = start };
    }
}

/* Stream 'id' of this processor, of the kind 'down'; NULL (reported as
 * upstream does) when there is none or it is of the other kind. */
static struct dep *dep_of(const char *call, long long id, int down)
{
    ebsp_require_begun(call);
    if (!found)
        find_mine();
    if (id < 0 || id >= ndeps) {
        ebsp_soft_error(call, "stream does not exist", "stream %lld does not exist (this processor has %u)", id,
                        ndeps);
        return NULL;
    }
    struct dep *s = &deps[id];
    if (down >= 0 && (int)s->d->down != down) {
        ebsp_soft_error(call, "mixed up and down streams", "stream %lld is an %s stream", id,
                        s->d->down ? "down" : "up");
        return NULL;
    }
    return s;
}

static void *buffer(const char *call, struct dep *s)
{
    void *b = arena_alloc(&ek.local, s->d->chunk);
    if (!b)
        ebsp_soft_error(call, "could not allocate enough memory for stream",
                        "no local memory left for a %u-byte chunk buffer", s->d->chunk);
    return b;
}

static void release(void **b)
{
    if (*b)
        arena_free(&ek.local, *b); /* false when the program freed it itself: harmless, as upstream */
    *b = NULL;
}

static void need_address(const char *call, void **address)
{
    if (!address)
        bsp_error(call, "NULL address pointer");
}

/* ---- down --------------------------------------------------------------------- */

/* The header at the cursor, checked against the stream's bounds. */
static struct ebsp_token header(const char *call, struct dep *s)
{
    struct ebsp_token t;
    if (s->cursor < s->start || s->cursor + sizeof t > s->end)
        bsp_error(call, "stream cursor outside the stream");
    memcpy(&t, s->cursor, sizeof t);
    if (t.next < 0 || (uint32_t)t.next > s->d->chunk || t.next > s->end - s->cursor - (long)sizeof t || t.prev < 0 ||
        t.prev > s->cursor - s->start)
        bsp_error(call, "stream is corrupt at byte %lld (a chunk header was overwritten?)",
                  (long long)(s->cursor - s->start));
    return t;
}

/* Start copying the chunk at the cursor into buf; its size (0: the end). */
static int fetch(const char *call, struct dep *s, void *buf)
{
    struct ebsp_token t = header(call, s);
    if (t.next) {
        ebsp_dma_push(&s->dma, buf, s->cursor + sizeof t, (size_t)t.next);
        s->cursor += sizeof t + (size_t)t.next;
    }
    return t.next;
}

int ebsp_open_down_stream(void **address, unsigned stream_id)
{
    const char *call = "ebsp_open_down_stream";
    struct dep *s = dep_of(call, stream_id, 1);
    if (!s)
        return 0;
    if (s->cur || s->next) {
        ebsp_soft_error(call, "tried to open opened stream", "stream %u is open already", stream_id);
        return 0;
    }
    need_address(call, address);
    s->cursor = s->start;
    if (!(s->next = buffer(call, s)))
        return 0;
    s->next_size = fetch(call, s, s->next);
    *address = s->next;
    return (int)s->d->chunk;
}

int ebsp_move_chunk_down(void **address, unsigned stream_id, int prealloc)
{
    const char *call = "ebsp_move_chunk_down";
    struct dep *s = dep_of(call, stream_id, 1);
    if (!s)
        return 0;
    if (!s->cur && !s->next)
        bsp_error(call, "stream %u is not open (ebsp_open_down_stream it first)", stream_id);
    need_address(call, address);
    if (s->next) { /* fetched ahead: take it */
        void *t = s->cur;
        s->cur = s->next;
        s->next = t;
        s->cur_size = s->next_size;
    } else {
        s->cur_size = fetch(call, s, s->cur);
    }
    ebsp_dma_wait(&s->dma);
    if (!s->cur_size) {
        release(&s->next);
        *address = NULL;
        return 0;
    }
    *address = s->cur;
    if (prealloc) {
        if (!s->next && !(s->next = buffer(call, s)))
            return 0;
        s->next_size = fetch(call, s, s->next);
    } else {
        release(&s->next);
    }
    return s->cur_size;
}

void ebsp_move_down_cursor(int stream_id, int jump_n_chunks)
{
    const char *call = "ebsp_move_down_cursor";
    struct dep *s = dep_of(call, stream_id, 1);
    if (!s)
        return;
    for (; jump_n_chunks > 0; jump_n_chunks--) {
        struct ebsp_token t = header(call, s);
        if (!t.next) {
            ebsp_soft_error(call, "tried jumping past bounds of stream", "jump past the end of stream %d", stream_id);
            return;
        }
        s->cursor += sizeof t + (size_t)t.next;
    }
    for (; jump_n_chunks < 0; jump_n_chunks++) {
        struct ebsp_token t = header(call, s);
        if (s->cursor == s->start) {
            ebsp_soft_error(call, "tried jumping past bounds of stream", "jump before the start of stream %d",
                            stream_id);
            return;
        }
        s->cursor -= sizeof t + (size_t)t.prev;
    }
}

void ebsp_reset_down_cursor(int stream_id)
{
    struct dep *s = dep_of("ebsp_reset_down_cursor", stream_id, 1);
    if (s)
        s->cursor = s->start;
}

static void close_stream(const char *call, unsigned stream_id, int down)
{
    struct dep *s = dep_of(call, stream_id, down);
    if (!s)
        return;
    if (!s->cur && !s->next) {
        ebsp_soft_error(call, "tried to close closed stream", "stream %u is not open", stream_id);
        return;
    }
    ebsp_dma_wait(&s->dma);
    release(&s->cur);
    release(&s->next);
}

void ebsp_close_down_stream(unsigned stream_id)
{
    close_stream("ebsp_close_down_stream", stream_id, 1);
}

/* ---- up ------------------------------------------------------------------------- */

int ebsp_open_up_stream(void **address, unsigned stream_id)
{
    const char *call = "ebsp_open_up_stream";
    struct dep *s = dep_of(call, stream_id, 0);
    if (!s)
        return 0;
    if (s->cur) {
        ebsp_soft_error(call, "tried creating opened stream", "stream %u is open already", stream_id);
        return 0;
    }
    need_address(call, address);
    if (!(s->cur = buffer(call, s)))
        return 0;
    s->cur_size = (int)s->d->chunk;
    s->cursor = s->start;
    *address = s->cur;
    return (int)s->d->chunk;
}

int ebsp_move_chunk_up(void **address, unsigned stream_id, int prealloc)
{
    const char *call = "ebsp_move_chunk_up";
    struct dep *s = dep_of(call, stream_id, 0);
    if (!s)
        return 0;
    if (!s->cur)
        bsp_error(call, "stream %u is not open (ebsp_open_up_stream it first)", stream_id);
    need_address(call, address);
    ebsp_dma_wait(&s->dma); /* the previous chunk has gone up */
    int n = s->cur_size;
    if (n > s->end - s->cursor)
        bsp_error(call, "chunk of %d bytes at byte %lld does not fit in stream %u (%lld bytes)", n,
                  (long long)(s->cursor - s->start), stream_id, (long long)(s->end - s->start));
    ebsp_dma_push(&s->dma, s->cursor, s->cur, (size_t)n);
    s->cursor += n;
    if (prealloc) { /* the next chunk goes into the other buffer meanwhile */
        if (!s->next && !(s->next = buffer(call, s)))
            return 0;
        void *t = s->cur;
        s->cur = s->next;
        s->next = t;
    } else {
        ebsp_dma_wait(&s->dma);
        release(&s->next);
    }
    s->cur_size = (int)s->d->chunk;
    *address = s->cur;
    return (int)s->d->chunk;
}

void ebsp_set_up_chunk_size(unsigned stream_id, int nbytes)
{
    const char *call = "ebsp_set_up_chunk_size";
    struct dep *s = dep_of(call, stream_id, 0);
    if (!s)
        return;
    if (nbytes < 0 || (unsigned)nbytes > s->d->chunk)
        bsp_error(call, "chunk size %d out of range (0..%u)", nbytes, s->d->chunk);
    s->cur_size = nbytes;
}

void ebsp_close_up_stream(unsigned stream_id)
{
    close_stream("ebsp_close_up_stream", stream_id, 0);
}
