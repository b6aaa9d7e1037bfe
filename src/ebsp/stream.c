/*
 * stream.c - streams on the kernel side: open, close, seek, move down, move up.
 *
 * A stream's memory is in the session segment: tokens, each behind an
 * 8-byte header (previous token's size, this token's size), ended by a
 * header of size 0.  The handle's cursor is the header of the next token.
 * A prefetch (move_down with preload) copies the token at the cursor into
 * the second buffer on the DMA engine and remembers where it was; the next
 * move_down returns it if the cursor has not moved since.
 */
#include <e_bsp.h>

#include "bsp/bsp_impl.h"
#include "ebsp/ebsp.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

#define STREAM_MAGIC 0x5354524du /* "STRM": an open handle */

static struct ebsp_stream_desc *table(void)
{
    return seg_ptr(&ek.seg, ek.sh->streams_off);
}

/* The stream behind an open handle of this processor. */
static struct ebsp_stream_desc *open_desc(const char *call, ebsp_stream *s)
{
    ebsp_require_begun(call);
    if (!s)
        bsp_error(call, "NULL stream handle");
    if (s->magic != STREAM_MAGIC || s->id < 0 || (uint32_t)s->id >= ek.sh->nstreams)
        bsp_error(call, "stream handle %p is not open (bsp_stream_open it first)", (void *)s);
    struct ebsp_stream_desc *d = &table()[s->id];
    int32_t owner = atomic_load(&d->owner);
    if (owner != (int32_t)bsp.me)
        bsp_error(call, "stream %d is not open on this processor (%s %d)", s->id,
                  owner < 0 ? "open on no processor," : "open on processor", owner);
    return d;
}

static void corrupt(const char *call, ebsp_stream *s, const char *pos)
{
    bsp_error(call, "stream %d is corrupt at byte %lld (a token header was overwritten?)", s->id,
              (long long)(pos - (const char *)s->extmem_start));
}

/* The header at pos, checked against the stream's bounds. */
static struct ebsp_token header_at(const char *call, ebsp_stream *s, const char *pos)
{
    const char *start = s->extmem_start, *end = s->extmem_end;
    struct ebsp_token t;
    if (pos < start || pos + sizeof t > end)
        corrupt(call, s, pos);
    memcpy(&t, pos, sizeof t);
    if (t.next < 0 || (uint32_t)t.next > s->max_chunksize || t.next > end - pos - (long)sizeof t ||
        t.prev < 0 || (pos == start ? t.prev != 0 : t.prev > pos - start - (long)sizeof t))
        corrupt(call, s, pos);
    return t;
}

/* Wait for the copy in flight and forget a prefetched token. */
static void settle(ebsp_stream *s)
{
    ebsp_dma_wait(&s->e_dma_desc);
    s->next_cursor = NULL;
}

static void *buffer(const char *call, ebsp_stream *s, void **slot)
{
    if (!*slot) {
        *slot = arena_alloc(&ek.local, s->max_chunksize);
        if (!*slot)
            bsp_error(call, "no local memory left for a %u-byte token buffer of stream %d (local memory: %llu bytes)",
                      s->max_chunksize, s->id, (unsigned long long)ek.local.size);
    }
    return *slot;
}

int bsp_stream_open(ebsp_stream *stream, int stream_id)
{
    const char *call = "bsp_stream_open";
    ebsp_require_begun(call);
    if (!stream)
        bsp_error(call, "NULL stream handle");
    uint32_t n = ek.sh->nstreams;
    char up[64];
    if (stream_id < 0 || (uint32_t)stream_id >= n) {
        snprintf(up, sizeof up, "stream with id %d does not exist", stream_id);
        ebsp_soft_error(call, up, "stream id %d does not exist (%u streams were created)", stream_id, n);
        return 0;
    }
    struct ebsp_stream_desc *d = &table()[stream_id];
    int32_t owner = -1;
    if (!atomic_compare_exchange_strong(&d->owner, &owner, (int32_t)bsp.me)) {
        snprintf(up, sizeof up, "stream with id %d is in use", stream_id);
        if (owner == (int32_t)bsp.me)
            ebsp_soft_error(call, up, "stream %d is open on this processor already", stream_id);
        else
            ebsp_soft_error(call, up, "stream %d is open on processor %d (it must bsp_stream_close it first)",
                            stream_id, owner);
        return 0;
    }
    memset(stream, 0, sizeof *stream);
    stream->id = stream_id;
    stream->extmem_start = ek.seg.base + d->off;
    stream->extmem_end = ek.seg.base + d->off + d->nbytes;
    stream->cursor = stream->extmem_start;
    stream->max_chunksize = d->token_size;
    stream->magic = STREAM_MAGIC;
    return (int)d->token_size;
}

void bsp_stream_close(ebsp_stream *stream)
{
    struct ebsp_stream_desc *d = open_desc("bsp_stream_close", stream);
    settle(stream);
    if (stream->current_buffer)
        arena_free(&ek.local, stream->current_buffer);
    if (stream->next_buffer)
        arena_free(&ek.local, stream->next_buffer);
    stream->current_buffer = stream->next_buffer = NULL;
    stream->magic = 0;
    atomic_store(&d->owner, -1);
}

void ebsp_streams_end(void)
{
    if (!ek.sh->nstreams)
        return;
    struct ebsp_stream_desc *t = table();
    for (uint32_t i = 0; i < ek.sh->nstreams; i++) {
        int32_t mine = (int32_t)bsp.me;
        atomic_compare_exchange_strong(&t[i].owner, &mine, -1);
    }
}

void bsp_stream_seek(ebsp_stream *stream, int delta_tokens)
{
    open_desc("bsp_stream_seek", stream);
    settle(stream);
    char *pos = stream->cursor, *start = stream->extmem_start;
    if (delta_tokens == INT_MIN) {
        pos = start;
    } else if (delta_tokens < 0) {
        for (int i = delta_tokens; i < 0 && pos > start; i++) {
            struct ebsp_token t = header_at("bsp_stream_seek", stream, pos);
            pos -= t.prev + (long)sizeof t;
        }
    } else {
        for (int i = 0; i < delta_tokens; i++) {
            struct ebsp_token t = header_at("bsp_stream_seek", stream, pos);
            if (!t.next)
                break;
            pos += sizeof t + (size_t)t.next;
        }
    }
    stream->cursor = pos;
}

int bsp_stream_move_down(ebsp_stream *stream, void **buf, int preload)
{
    const char *call = "bsp_stream_move_down";
    open_desc(call, stream);
    if (!buf)
        bsp_error(call, "NULL buffer pointer");
    char *pos = stream->cursor;
    int size;
    if (stream->next_cursor == pos && pos) { /* prefetched: swap it in */
        ebsp_dma_wait(&stream->e_dma_desc);
        void *t = stream->current_buffer;
        stream->current_buffer = stream->next_buffer;
        stream->next_buffer = t;
        size = stream->next_size;
        stream->next_cursor = NULL;
        ebsp_stats.prefetch_used++;
    } else {
        settle(stream);
        struct ebsp_token t = header_at(call, stream, pos);
        size = t.next;
        if (!size) {
            *buf = NULL;
            return 0;
        }
        memcpy(buffer(call, stream, &stream->current_buffer), pos + sizeof t, (size_t)size);
    }
    pos += sizeof(struct ebsp_token) + (size_t)size;
    stream->cursor = pos;
    *buf = stream->current_buffer;
    if (preload) {
        struct ebsp_token t = header_at(call, stream, pos);
        if (t.next) {
            ebsp_dma_push(&stream->e_dma_desc, buffer(call, stream, &stream->next_buffer), pos + sizeof t,
                          (size_t)t.next);
            stream->next_cursor = pos;
            stream->next_size = t.next;
        }
    }
    return size;
}

int bsp_stream_move_up(ebsp_stream *stream, const void *data, int data_size, int wait_for_completion)
{
    const char *call = "bsp_stream_move_up";
    open_desc(call, stream);
    if (data_size < 0)
        bsp_error(call, "negative data_size %d", data_size);
    if ((unsigned)data_size > stream->max_chunksize)
        bsp_error(call, "token of %d bytes is larger than stream %d's token size %u", data_size, stream->id,
                  stream->max_chunksize);
    if (!data && data_size > 0)
        bsp_error(call, "NULL data with data_size %d", data_size);
    settle(stream); /* the previous token has gone up; no prefetch survives a write */
    char *pos = stream->cursor, *end = stream->extmem_end;
    struct ebsp_token here = header_at(call, stream, pos), t;
    if ((size_t)(end - pos) < 2 * sizeof t + (size_t)data_size)
        bsp_error(call, "token of %d bytes at byte %lld does not fit in stream %d (%lld bytes with headers)",
                  data_size, (long long)(pos - (char *)stream->extmem_start), stream->id,
                  (long long)(end - (char *)stream->extmem_start));
    if (!data_size)
        return 0; /* a 0-byte token would end the stream: nothing to write */
    t = (struct ebsp_token){ here.prev, data_size };
    memcpy(pos, &t, sizeof t);
    char *next = pos + sizeof t + data_size;
    t = (struct ebsp_token){ data_size, 0 };
    memcpy(next, &t, sizeof t);
    ebsp_dma_push(&stream->e_dma_desc, pos + sizeof t, data, (size_t)data_size);
    stream->cursor = next;
    if (wait_for_completion)
        ebsp_dma_wait(&stream->e_dma_desc);
    return data_size;
}
