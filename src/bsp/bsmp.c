/*
 * bsmp.c - bulk synchronous message passing: bsp_send and the queue.
 *
 * Messages sent in one superstep are in the destination's queue during the
 * next, in order of source processor, then send order.  The queue is one
 * buffer that holds tags and payloads together, so bsp_hpmove can hand out
 * pointers that stay valid until the next sync.
 */
#include "bsp/bsp_impl.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TAGSIZE (1ll << 20)

void bsmp_reset(void)
{
    bsp.mq_len = 0;
    bsp.nmsgs = 0;
    bsp.head = 0;
    bsp.mq_bytes_left = 0;
}

void bsmp_free(void)
{
    free(bsp.mq);
    free(bsp.msgs);
    bsp.mq = NULL;
    bsp.msgs = NULL;
    bsp.mq_cap = bsp.capmsgs = 0;
    bsmp_reset();
    bsp.tagsize = bsp.tagsize_next = 0;
    bsp.tagsize_calls = 0;
}

void bsp_impl_send(int64_t pid, const void *tag, const void *payload, int64_t nbytes)
{
    bsp_require_begun("bsp_send");
    if (pid < 0 || pid >= (int64_t)bsp.p)
        bsp_error("bsp_send", "pid %lld out of range (nprocs %u)", (long long)pid, bsp.p);
    check_size("bsp_send", "nbytes", nbytes);
    if (!payload && nbytes > 0)
        bsp_error("bsp_send", "NULL payload with nbytes %s", size_str(nbytes).s);
    if (!tag && bsp.tagsize > 0)
        bsp_error("bsp_send", "NULL tag with tag size %llu", (unsigned long long)bsp.tagsize);
    struct rec_send r = { REC_SEND, (uint32_t)bsp.tagsize, (uint64_t)nbytes };
    size_t total = sizeof r + bsp.tagsize + (size_t)nbytes;
    char *at = total <= 256 ? stream_claim((uint32_t)pid, total) : NULL;
    if (at) { /* small messages go straight into the stream */
        memcpy(at, &r, sizeof r);
        copy_small(at + sizeof r, tag, bsp.tagsize);
        copy_small(at + sizeof r + bsp.tagsize, payload, (size_t)nbytes);
        return;
    }
    stream_write((uint32_t)pid, &r, sizeof r);
    stream_write((uint32_t)pid, tag, bsp.tagsize);
    stream_write((uint32_t)pid, payload, (size_t)nbytes);
}

static char *queue_message(const struct rec_send *r)
{
    uint64_t need = bsp.mq_len + r->tagsize + r->nbytes;
    if (need > bsp.mq_cap)
        bsp.mq = grow(bsp.mq, &bsp.mq_cap, need, 1);
    if (bsp.nmsgs + 1 > bsp.capmsgs)
        bsp.msgs = grow(bsp.msgs, &bsp.capmsgs, bsp.nmsgs + 1, sizeof *bsp.msgs);
    struct msg *m = &bsp.msgs[bsp.nmsgs++];
    m->tag = bsp.mq_len;
    m->tagsize = r->tagsize;
    m->payload = bsp.mq_len + r->tagsize;
    m->nbytes = r->nbytes;
    char *at = bsp.mq + bsp.mq_len;
    bsp.mq_len = need;
    bsp.mq_bytes_left += r->nbytes;
    return at;
}

void bsmp_deliver_here(const struct rec_send *r, const void *data)
{
    copy_small(queue_message(r), data, r->tagsize + r->nbytes);
}

void bsmp_deliver(uint32_t src, const struct rec_send *r)
{
    stream_read(src, queue_message(r), r->tagsize + r->nbytes);
}

void bsmp_set_initial_tagsize(uint64_t tagsize)
{
    bsp.tagsize = bsp.tagsize_next = tagsize;
}

int64_t bsp_impl_set_tagsize(int64_t size)
{
    bsp_require_begun("bsp_set_tagsize");
    if (size < 0 || size > MAX_TAGSIZE)
        bsp_error("bsp_set_tagsize", "tag size %s out of range (0..%lld)", size_str(size).s, MAX_TAGSIZE);
    /* The size last requested (the one in force if none was): a second call
     * in one superstep returns what the first asked for, as in BSPonMPI. */
    int64_t old = (int64_t)bsp.tagsize_next;
    bsp.tagsize_next = (uint64_t)size;
    bsp.tagsize_calls++;
    return old;
}

void bsp_impl_qsize(uint64_t *packets, uint64_t *bytes)
{
    bsp_require_begun("bsp_qsize");
    *packets = bsp.nmsgs - bsp.head;
    *bytes = bsp.mq_bytes_left;
}

int64_t bsp_impl_get_tag(void *tag)
{
    bsp_require_begun("bsp_get_tag");
    if (bsp.head == bsp.nmsgs)
        return -1;
    const struct msg *m = &bsp.msgs[bsp.head];
    if (m->tagsize) {
        if (!tag)
            bsp_error("bsp_get_tag", "NULL tag buffer for a %llu-byte tag", (unsigned long long)m->tagsize);
        copy_small(tag, bsp.mq + m->tag, m->tagsize);
    }
    return (int64_t)m->nbytes;
}

static const struct msg *dequeue(void)
{
    const struct msg *m = &bsp.msgs[bsp.head++];
    bsp.mq_bytes_left -= m->nbytes;
    return m;
}

void bsp_impl_move(void *payload, int64_t max)
{
    bsp_require_begun("bsp_move");
    if (bsp.head == bsp.nmsgs)
        bsp_error("bsp_move", "the message queue is empty");
    if (max < 0)
        bsp_error("bsp_move", "negative reception_nbytes %lld", (long long)max);
    const struct msg *m = dequeue();
    uint64_t n = m->nbytes < (uint64_t)max ? m->nbytes : (uint64_t)max;
    if (n && !payload)
        bsp_error("bsp_move", "NULL payload buffer for a %llu-byte message", (unsigned long long)m->nbytes);
    copy_small(payload, bsp.mq + m->payload, n);
}

int64_t bsp_impl_hpmove(void **tag, void **payload)
{
    bsp_require_begun("bsp_hpmove");
    if (!tag || !payload)
        bsp_error("bsp_hpmove", "NULL %s pointer", tag ? "payload" : "tag");
    if (bsp.head == bsp.nmsgs)
        return -1;
    const struct msg *m = dequeue();
    *tag = bsp.mq + m->tag;
    *payload = bsp.mq + m->payload;
    return (int64_t)m->nbytes;
}
