/*
 * hstream.c - bsp_stream_create: streams in the session segment.
 */
#include <host_bsp.h>

#include "host/host.h"

#include <string.h>

/* A stream of stream_size bytes in tokens of token_size in the session
 * segment, filled from initial_data (or empty): its offset and size. */
uint64_t host_stream_layout(const char *call, int stream_size, int token_size, const void *initial_data,
                            uint64_t *nbytes_out)
{
    uint64_t ntokens = ((uint64_t)stream_size + (uint64_t)token_size - 1) / (uint64_t)token_size;
    uint64_t nbytes = (uint64_t)stream_size + (ntokens + 1) * sizeof(struct ebsp_token);
    uint64_t off = seg_alloc(&hs.seg, nbytes, EBSP_ALIGN);
    if (!off)
        host_error(call, "the session segment is exhausted by a stream of %llu bytes", (unsigned long long)nbytes);
    char *p = seg_ptr(&hs.seg, off);
    struct ebsp_token t = { 0, 0 };
    if (initial_data) {
        const char *src = initial_data;
        for (int left = stream_size; left > 0; left -= token_size) {
            t.next = left < token_size ? left : token_size;
            memcpy(p, &t, sizeof t);
            memcpy(p + sizeof t, src, (size_t)t.next);
            p += sizeof t + (size_t)t.next;
            src += t.next;
            t.prev = t.next;
        }
        t.next = 0;
    }
    memcpy(p, &t, sizeof t);
    *nbytes_out = nbytes;
    return off;
}

void *bsp_stream_create(int stream_size, int token_size, const void *initial_data)
{
    const char *call = "bsp_stream_create";
    host_require_session(call, true);
    if (token_size <= 0)
        host_error(call, "token size %d (must be positive)", token_size);
    if (stream_size < 0)
        host_error(call, "negative stream size %d", stream_size);
    struct ebsp_shared *sh = host_segment(call);
    uint64_t nbytes, off = host_stream_layout(call, stream_size, token_size, initial_data, &nbytes);
    if (sh->nstreams == sh->capstreams) {
        uint32_t cap = sh->capstreams ? 2 * sh->capstreams : 16;
        uint64_t toff = seg_alloc(&hs.seg, cap * sizeof(struct ebsp_stream_desc), SEG_LINE);
        if (!toff)
            host_error(call, "the session segment is exhausted by %u streams", cap);
        if (sh->nstreams)
            memcpy(seg_ptr(&hs.seg, toff), seg_ptr(&hs.seg, sh->streams_off),
                   sh->nstreams * sizeof(struct ebsp_stream_desc));
        sh->streams_off = toff;
        sh->capstreams = cap;
    }
    struct ebsp_stream_desc *d = (struct ebsp_stream_desc *)seg_ptr(&hs.seg, sh->streams_off) + sh->nstreams;
    d->off = off;
    d->nbytes = nbytes;
    d->token_size = (uint32_t)token_size;
    atomic_store(&d->owner, -1);
    sh->nstreams++;
    return seg_ptr(&hs.seg, off);
}

void host_streams_prepare(void)
{
    struct ebsp_stream_desc *d = seg_ptr(&hs.seg, hs.sh->streams_off);
    for (uint32_t i = 0; i < hs.sh->nstreams; i++)
        atomic_store(&d[i].owner, -1);
}
