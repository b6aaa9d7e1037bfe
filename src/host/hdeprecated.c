/*
 * hdeprecated.c - the host half of Epiphany BSP's deprecated streams:
 * per-core streams, described in a table of the session segment that the
 * kernels read (src/ebsp/deprecated.c).
 */
#include <host_bsp.h>

#include "host/host.h"

#include <string.h>

#define MIN_CHUNK 16 /* upstream's minimum chunk size: four ints */

static void check(const char *call, int core, int nbytes, int chunksize)
{
    host_require_session(call, true);
    host_check_pid(call, core);
    if (nbytes < 0)
        host_error(call, "negative size %d", nbytes);
    if (chunksize < MIN_CHUNK)
        host_error(call, "chunk size %d is below the minimum of %d bytes", chunksize, MIN_CHUNK);
}

static void add(const char *call, int core, uint64_t off, uint64_t nbytes, int chunksize, bool down)
{
    struct ebsp_shared *sh = hs.sh;
    if (sh->ndeps == sh->capdeps) {
        uint32_t cap = sh->capdeps ? 2 * sh->capdeps : 64;
        uint64_t toff = seg_alloc(&hs.seg, cap * sizeof(struct ebsp_dep_desc), SEG_LINE);
        if (!toff)
            host_error(call, "the session segment is exhausted by %u streams", cap);
        if (sh->ndeps)
            memcpy(seg_ptr(&hs.seg, toff), seg_ptr(&hs.seg, sh->deps_off), sh->ndeps * sizeof(struct ebsp_dep_desc));
        sh->deps_off = toff;
        sh->capdeps = cap;
    }
    struct ebsp_dep_desc *d = (struct ebsp_dep_desc *)seg_ptr(&hs.seg, sh->deps_off) + sh->ndeps;
    *d = (struct ebsp_dep_desc){ off, nbytes, (uint32_t)core, (uint32_t)chunksize, down, 0 };
    sh->ndeps++;
}

void ebsp_create_down_stream(const void *src, int dst_core_id, int nbytes, int chunksize)
{
    const char *call = "ebsp_create_down_stream";
    check(call, dst_core_id, nbytes, chunksize);
    if (!src && nbytes > 0)
        host_error(call, "NULL data with size %d", nbytes);
    host_segment(call);
    uint64_t size, off = host_stream_layout(call, nbytes, chunksize, src, &size);
    add(call, dst_core_id, off, size, chunksize, true);
}

void *ebsp_create_up_stream(int dst_core_id, int max_nbytes, int chunksize)
{
    const char *call = "ebsp_create_up_stream";
    check(call, dst_core_id, max_nbytes, chunksize);
    host_segment(call);
    uint64_t off = seg_alloc(&hs.seg, max_nbytes ? (uint64_t)max_nbytes : 1, EBSP_ALIGN);
    if (!off)
        host_error(call, "the session segment is exhausted by a stream of %d bytes", max_nbytes);
    add(call, dst_core_id, off, (uint64_t)max_nbytes, chunksize, false);
    return seg_ptr(&hs.seg, off);
}
