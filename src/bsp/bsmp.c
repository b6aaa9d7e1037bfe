/*
 * bsmp.c - bulk synchronous message passing: bsp_send and the queue.
 *
 * Messages sent in one superstep are in the destination's queue during the
 * next, in order of source processor, then send order.  The queue is one
 * buffer holding the messages' records as they came in the streams (header,
 * tag, payload), so the drain copies each run of consecutive messages with
 * one memcpy, and bsp_hpmove can hand out pointers that stay valid until
 * the next sync.  A message's record carries its own tag size, so the queue
 * needs no other table, and a tag size changed at the sync does not touch
 * the messages already queued.
 */
#include "bsp/bsp_impl.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TAGSIZE (1ll << 20)

void bsmp_reset(void)
{
    bsp.mq_len = 0;
    bsp.mq_at = 0;
    bsp.mq_count = 0;
    bsp.mq_bytes_left = 0;
}

void bsmp_free(void)
{
    free(bsp.mq);
    bsp.mq = NULL;
    bsp.mq_cap = 0;
    bsmp_reset();
    bsp.tagsize = bsp.tagsize_next = 0;
    bsp.tagsize_calls = 0;
}

static const char zeros[8];

/* Every check of bsp_send, then the record written in pieces: messages
 * that are not small, or when the stream has no room at hand. */
static __attribute__((noinline)) void send_checked(int64_t pid, const void *tag, const void *payload,
                                                   int64_t nbytes)
{
    bsp_require_begun("bsp_send");
    if (pid < 0 || pid >= (int64_t)bsp.p)
        bsp_error("bsp_send", "pid %lld out of range (nprocs %u)", (long long)pid, bsp.p);
    check_size("bsp_send", "nbytes", nbytes);
    if (!payload && nbytes > 0)
        bsp_error("bsp_send", "NULL payload with nbytes %s", size_str(nbytes).s);
    if (!tag && bsp.tagsize > 0)
        bsp_error("bsp_send", "NULL tag with tag size %llu", (unsigned long long)bsp.tagsize);
    uint64_t ts = bsp.tagsize, nb = (uint64_t)nbytes;
    if (ts > MSG_MAX_TAGSIZE || nb > MSG_MAX_NBYTES) {
        struct rec_send r = { REC_SEND, (uint32_t)ts, nb };
        stream_write((uint32_t)pid, &r, sizeof r);
        stream_write((uint32_t)pid, tag, ts);
        stream_write((uint32_t)pid, payload, nb);
        return;
    }
    uint32_t word = MSG_WORD(ts, nb);
    size_t total = MSG_SIZE(ts, nb), at_payload = MSG_PAYLOAD_AT(ts);
    char *at = total <= 512 ? stream_claim((uint32_t)pid, total) : NULL;
    if (at) {
        memcpy(at, &word, sizeof word);
        copy_small(at + at_payload - ts, tag, ts);
        copy_small(at + at_payload, payload, nb);
        return;
    }
    stream_write((uint32_t)pid, &word, sizeof word);
    stream_write((uint32_t)pid, zeros, at_payload - ts - sizeof word);
    stream_write((uint32_t)pid, tag, ts);
    stream_write((uint32_t)pid, payload, nb);
    stream_write((uint32_t)pid, zeros, MSG_ROUND(nb) - nb);
}

/* The common case inline and short: begun, a valid pid, tag and payload of
 * at most 64 bytes each with their pointers, room in the stream's window.
 * Anything else takes send_checked, which reports the errors. */
void bsp_impl_send(int64_t pid, const void *tag, const void *payload, int64_t nbytes)
{
    uint64_t ts = bsp.tagsize;
    if (__builtin_expect(bsp_live() && (uint64_t)pid < bsp.p && (uint64_t)nbytes <= 64 && ts <= 64 &&
                         (payload || !nbytes) && (tag || !ts), 1)) {
        size_t at_payload = MSG_PAYLOAD_AT(ts);
        char *at = window_claim((uint32_t)pid, at_payload + MSG_ROUND((uint64_t)nbytes));
        if (__builtin_expect(at != NULL, 1)) {
            uint32_t word = MSG_WORD(ts, nbytes);
            memcpy(at, &word, sizeof word);
            copy_small(at + at_payload - ts, tag, ts);
            copy_small(at + at_payload, payload, (size_t)nbytes);
            return;
        }
    }
    send_checked(pid, tag, payload, nbytes);
}

/* Room for n more bytes at the end of the queue, from a multiple of 8. */
static char *mq_room(uint64_t n)
{
    uint64_t start = MSG_ROUND(bsp.mq_len), need = start + n;
    if (need > bsp.mq_cap)
        bsp.mq = grow(bsp.mq, &bsp.mq_cap, need, 1);
    bsp.mq_len = need;
    return bsp.mq + start;
}

size_t bsmp_take_run(const char *p, size_t len)
{
    size_t used = 0, n = 0;
    uint64_t count = 0, bytes = 0;
    uint32_t last = 0; /* no record's word: its kind is 0 */
    while (len - used >= sizeof(uint32_t)) {
        uint32_t word;
        memcpy(&word, p + used, sizeof word);
        if (word != last) { /* messages of one size and tag size repeat the word */
            if (REC_KIND(word) != REC_MSG)
                break;
            n = MSG_SIZE(MSG_TAGSIZE(word), MSG_NBYTES(word));
            last = word;
        }
        if (len - used < n)
            break;
        used += n;
        count++;
        bytes += MSG_NBYTES(word);
    }
    if (used) {
        memcpy(mq_room(used), p, used);
        bsp.mq_count += count;
        bsp.mq_bytes_left += bytes;
    }
    return used;
}

/* Queue a rec_send: returns where its tag goes; its payload goes at
 * QUEUED_SEND_PAYLOAD_AT from the record. */
static char *queue_send(const struct rec_send *r)
{
    char *at = mq_room(QUEUED_SEND_PAYLOAD_AT(r->tagsize) + r->nbytes);
    memcpy(at, r, sizeof *r);
    bsp.mq_count++;
    bsp.mq_bytes_left += r->nbytes;
    return at + sizeof *r;
}

void bsmp_deliver_here(const struct rec_send *r, const void *data)
{
    char *tag = queue_send(r);
    memcpy(tag, data, r->tagsize);
    memcpy(tag - sizeof *r + QUEUED_SEND_PAYLOAD_AT(r->tagsize), (const char *)data + r->tagsize, r->nbytes);
}

void bsmp_deliver(uint32_t src, const struct rec_send *r)
{
    char *tag = queue_send(r);
    stream_read(src, tag, r->tagsize);
    stream_read(src, tag - sizeof *r + QUEUED_SEND_PAYLOAD_AT(r->tagsize), r->nbytes);
}

/* A REC_MSG across a ring's end, its word read: queued as it came. */
void bsmp_deliver_msg(uint32_t src, uint32_t word)
{
    uint64_t size = MSG_SIZE(MSG_TAGSIZE(word), MSG_NBYTES(word));
    char *at = mq_room(size);
    memcpy(at, &word, sizeof word);
    stream_read(src, at + sizeof word, size - sizeof word);
    bsp.mq_count++;
    bsp.mq_bytes_left += MSG_NBYTES(word);
}

void bsmp_set_initial_tagsize(uint64_t tagsize)
{
    bsp.tagsize = bsp.tagsize_next = tagsize;
}

int64_t bsp_impl_set_tagsize(int64_t size, bool in_force)
{
    bsp_require_begun("bsp_set_tagsize");
    if (size < 0 || size > MAX_TAGSIZE)
        bsp_error("bsp_set_tagsize", "tag size %s out of range (0..%lld)", size_str(size).s, MAX_TAGSIZE);
    /* A second call in one superstep returns, by the 1998 rule (BSPonMPI,
     * the Oxford toolset), the size the first asked for; by MulticoreBSP's
     * and LPF's, the size in force. */
    int64_t old = (int64_t)(in_force ? bsp.tagsize : bsp.tagsize_next);
    bsp.tagsize_next = (uint64_t)size;
    bsp.tagsize_calls++;
    return old;
}

void bsp_impl_qsize(uint64_t *packets, uint64_t *bytes)
{
    bsp_require_begun("bsp_qsize");
    *packets = bsp.mq_count;
    *bytes = bsp.mq_bytes_left;
}

void bsmp_null_tag(uint64_t tagsize)
{
    bsp_error("bsp_get_tag", "NULL tag buffer for a %llu-byte tag", (unsigned long long)tagsize);
}

void bsmp_bad_move(int64_t max, uint64_t nbytes)
{
    bsp_require_begun("bsp_move");
    if (!bsp.mq_count)
        bsp_error("bsp_move", "the message queue is empty");
    if (max < 0)
        bsp_error("bsp_move", "negative reception_nbytes %lld", (long long)max);
    bsp_error("bsp_move", "NULL payload buffer for a %llu-byte message", (unsigned long long)nbytes);
}

int64_t bsp_impl_get_tag(void *tag)
{
    return bsmp_get_tag(tag);
}

void bsp_impl_move(void *payload, int64_t max)
{
    bsmp_move(payload, max);
}

int64_t bsp_impl_hpmove(void **tag, void **payload)
{
    bsp_require_begun("bsp_hpmove");
    if (!tag || !payload)
        bsp_error("bsp_hpmove", "NULL %s pointer", tag ? "payload" : "tag");
    if (!bsp.mq_count)
        return -1;
    struct queued m = bsmp_head();
    bsmp_dequeue(&m);
    *tag = m.tag;
    *payload = m.payload;
    return (int64_t)m.nbytes;
}
