/*
 * hmsg.c - the host's messages (down before a run, up after it) and its
 * reads and writes of the processors' local memories.
 */
#include <host_bsp.h>

#include "bsp/bsp_impl.h"
#include "host/host.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TAGSIZE (1 << 20)

void host_msgs_free(void)
{
    if (hs.down)
        for (uint32_t q = 0; q < hs.p; q++)
            free(hs.down[q].data);
    free(hs.down);
    free(hs.up);
    hs.down = NULL;
    hs.up = NULL;
    hs.nup = hs.capup = hs.uphead = hs.up_bytes_left = 0;
    hs.ndown = 0;
}

/* ---- down ---------------------------------------------------------------- */

void ebsp_set_tagsize(int *tag_bytes)
{
    /* Between bsp_init and bsp_begin too, as upstream allows. */
    if (hs.phase == H_NONE)
        host_error("ebsp_set_tagsize", "called before bsp_init");
    if (hs.phase == H_RUNNING)
        host_error("ebsp_set_tagsize", "called while the kernels run (from a callback); call it between runs");
    if (!tag_bytes)
        host_error("ebsp_set_tagsize", "NULL argument");
    int want = *tag_bytes;
    if (want < 0 || want > MAX_TAGSIZE)
        host_error("ebsp_set_tagsize", "tag size %d out of range (0..%d)", want, MAX_TAGSIZE);
    if (hs.ndown && (uint32_t)want != hs.tagsize)
        host_error("ebsp_set_tagsize", "tag size %d set after %llu messages were sent down with tag size %u", want,
                   (unsigned long long)hs.ndown, hs.tagsize);
    *tag_bytes = (int)hs.tagsize;
    hs.tagsize = (uint32_t)want;
}

void ebsp_send_down(int pid, const void *tag, const void *payload, int nbytes)
{
    const char *call = "ebsp_send_down";
    host_require_session(call, true);
    uint32_t q = host_check_pid(call, pid);
    if (nbytes < 0)
        host_error(call, "negative nbytes %d", nbytes);
    if (!payload && nbytes > 0)
        host_error(call, "NULL payload with nbytes %d", nbytes);
    if (!tag && hs.tagsize > 0)
        host_error(call, "NULL tag with tag size %u", hs.tagsize);
    struct host_buf *b = &hs.down[q];
    uint64_t need = ebsp_rec_size(hs.tagsize, (uint64_t)nbytes);
    if (b->len + need > b->cap) {
        uint64_t cap = b->cap ? 2 * b->cap : 4096;
        while (cap < b->len + need)
            cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d)
            host_error(call, "out of memory for %llu bytes of messages", (unsigned long long)cap);
        b->data = d;
        b->cap = cap;
    }
    char *p = b->data + b->len;
    struct ebsp_rec r = { hs.tagsize, 0, (uint64_t)nbytes };
    memset(p, 0, need);
    memcpy(p, &r, sizeof r);
    if (hs.tagsize)
        memcpy(p + sizeof r, tag, hs.tagsize);
    if (nbytes)
        memcpy(p + sizeof r + hs.tagsize, payload, (size_t)nbytes);
    b->len += need;
    b->count++;
    hs.ndown++;
}

void host_msgs_prepare(void)
{
    for (uint32_t q = 0; q < hs.p; q++) {
        struct ebsp_proc *pr = &hs.sh->proc[q];
        struct host_buf *b = &hs.down[q];
        if (b->len > pr->down_cap) {
            uint64_t off = seg_alloc(&hs.seg, b->len, EBSP_ALIGN);
            if (!off)
                host_error("ebsp_spmd", "the session segment is exhausted by %llu bytes of messages for processor %u",
                           (unsigned long long)b->len, q);
            pr->down_off = off;
            pr->down_cap = b->len;
        }
        if (b->len)
            memcpy(hs.seg.base + pr->down_off, b->data, b->len);
        pr->down_len = b->len;
        pr->down_count = b->count;
        b->len = b->count = 0;
        pr->up_len = pr->up_count = 0;
    }
    hs.ndown = 0;
    hs.nup = hs.uphead = hs.up_bytes_left = 0;
}

/* ---- up -------------------------------------------------------------------- */

void host_msgs_collect(void)
{
    hs.nup = hs.uphead = hs.up_bytes_left = 0;
    hs.ran = true;
    for (uint32_t q = 0; q < hs.p; q++) {
        struct ebsp_proc *pr = &hs.sh->proc[q];
        uint64_t pos = 0, len = pr->up_len;
        if (len > pr->up_cap)
            len = 0; /* a kernel died while growing it: nothing to trust */
        for (uint64_t i = 0; i < pr->up_count && pos + sizeof(struct ebsp_rec) <= len; i++) {
            struct ebsp_rec r;
            memcpy(&r, hs.seg.base + pr->up_off + pos, sizeof r);
            uint64_t size = ebsp_rec_size(r.tagsize, r.nbytes);
            if (size > len - pos)
                break;
            if (hs.nup == hs.capup) {
                uint64_t cap = hs.capup ? 2 * hs.capup : 64;
                uint64_t *u = realloc(hs.up, cap * sizeof *u);
                if (!u)
                    host_error("ebsp_spmd", "out of memory indexing the messages sent up");
                hs.up = u;
                hs.capup = cap;
            }
            hs.up[hs.nup++] = pr->up_off + pos;
            hs.up_bytes_left += r.nbytes;
            pos += size;
        }
    }
}

static const struct ebsp_rec *next_up(void)
{
    return hs.uphead < hs.nup ? seg_ptr(&hs.seg, hs.up[hs.uphead]) : NULL;
}

int ebsp_host_get_tagsize(void)
{
    if (hs.ran && hs.sh)
        return (int)atomic_load(&hs.sh->up_tagsize);
    return (int)hs.tagsize;
}

void ebsp_qsize(int *packets, int *accum_bytes)
{
    if (packets)
        *packets = (int)(hs.nup - hs.uphead);
    if (accum_bytes)
        *accum_bytes = hs.up_bytes_left > INT_MAX ? INT_MAX : (int)hs.up_bytes_left;
}

void ebsp_get_tag(int *status, void *tag)
{
    if (!status)
        host_error("ebsp_get_tag", "NULL status pointer");
    const struct ebsp_rec *r = next_up();
    if (!r) {
        *status = -1;
        return;
    }
    if (r->tagsize) {
        if (!tag)
            host_error("ebsp_get_tag", "NULL tag buffer for a %u-byte tag", r->tagsize);
        memcpy(tag, r + 1, r->tagsize);
    }
    *status = r->nbytes > INT_MAX ? INT_MAX : (int)r->nbytes;
}

void ebsp_move(void *payload, int buffer_size)
{
    const struct ebsp_rec *r = next_up();
    if (!r)
        host_error("ebsp_move", "the message queue is empty");
    if (buffer_size < 0)
        host_error("ebsp_move", "negative buffer_size %d", buffer_size);
    uint64_t n = r->nbytes < (uint64_t)buffer_size ? r->nbytes : (uint64_t)buffer_size;
    if (n && !payload)
        host_error("ebsp_move", "NULL payload buffer for a %llu-byte message", (unsigned long long)r->nbytes);
    if (n)
        memcpy(payload, (const char *)(r + 1) + r->tagsize, n);
    hs.uphead++;
    hs.up_bytes_left -= r->nbytes;
}

int ebsp_hpmove(void **tag_ptr_buf, void **payload_ptr_buf)
{
    if (!tag_ptr_buf || !payload_ptr_buf)
        host_error("ebsp_hpmove", "NULL %s pointer", tag_ptr_buf ? "payload" : "tag");
    const struct ebsp_rec *r = next_up();
    if (!r)
        return -1;
    *tag_ptr_buf = (void *)(r + 1);
    *payload_ptr_buf = (char *)(r + 1) + r->tagsize;
    hs.uphead++;
    hs.up_bytes_left -= r->nbytes;
    return r->nbytes > INT_MAX ? INT_MAX : (int)r->nbytes;
}

/* ---- local memory ---------------------------------------------------------- */

static char *local_at(const char *call, int pid, off_t off, int size, const void *buf, const char *buf_name)
{
    host_require_session(call, false);
    uint32_t q = host_check_pid(call, pid);
    if (off < 0)
        host_error(call, "negative offset %lld", (long long)off);
    if (size < 0)
        host_error(call, "negative size %d", size);
    if (!buf && size > 0)
        host_error(call, "NULL %s with size %d", buf_name, size);
    struct ebsp_shared *sh = host_segment(call);
    if ((uint64_t)off + (uint64_t)size > sh->local_size)
        host_error(call, "offset %lld + size %d exceeds the %llu bytes of local memory of processor %u "
                   "(SUPERSTEP_LOCAL_MEMORY)", (long long)off, size, (unsigned long long)sh->local_size, q);
    return hs.seg.base + sh->proc[q].local_off + off;
}

int ebsp_write(int pid, void *src, off_t dst, int size)
{
    char *d = local_at("ebsp_write", pid, dst, size, src, "source");
    if (size)
        memcpy(d, src, (size_t)size);
    return 1;
}

int ebsp_read(int pid, off_t src, void *dst, int size)
{
    const char *s = local_at("ebsp_read", pid, src, size, dst, "destination");
    if (size)
        memcpy(dst, s, (size_t)size);
    return 1;
}
