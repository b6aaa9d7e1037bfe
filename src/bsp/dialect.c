/*
 * dialect.c - the two public BSPlib dialects over bsp_impl_*.
 *
 * The 1998 standard's int ids and sizes arrive sign-extended, so negative
 * values reach the checks as negative; MulticoreBSP's unsigned ids and
 * size_t sizes arrive as they are, and anything above 2^63 reads as negative
 * and is refused the same way.
 */
#include "bsp/bsp_impl.h"

#include <stdint.h>

#define SZ(x) ((int64_t)(x))

/* ---- BSPlib 1998 ---------------------------------------------------------- */

void bsp_begin(int maxprocs) { bsp_impl_begin(maxprocs); }
int bsp_nprocs(void) { return (int)bsp_impl_nprocs(); }
int bsp_pid(void) { return (int)bsp_impl_pid(); }
void bsp_push_reg(const void *ident, int size) { bsp_impl_push_reg(ident, size); }

void bsp_put(int pid, const void *src, void *dst, int offset, int nbytes)
{
    bsp_impl_put(pid, src, dst, offset, nbytes, "bsp_put");
}

void bsp_get(int pid, const void *src, int offset, void *dst, int nbytes)
{
    bsp_impl_get(pid, src, offset, dst, nbytes, "bsp_get");
}

void bsp_hpput(int pid, const void *src, void *dst, int offset, int nbytes)
{
    bsp_impl_hpput(pid, src, dst, offset, nbytes);
}

void bsp_hpget(int pid, const void *src, int offset, void *dst, int nbytes)
{
    bsp_impl_hpget(pid, src, offset, dst, nbytes);
}

void bsp_set_tagsize(int *tag_nbytes)
{
    if (!tag_nbytes)
        bsp_error("bsp_set_tagsize", "NULL argument");
    *tag_nbytes = (int)bsp_impl_set_tagsize(*tag_nbytes);
}

void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes)
{
    bsp_impl_send(pid, tag, payload, payload_nbytes);
}

void bsp_qsize(int *nmessages, int *accum_nbytes)
{
    uint64_t n, b;
    bsp_impl_qsize(&n, &b);
    if (nmessages)
        *nmessages = (int)n;
    if (accum_nbytes)
        *accum_nbytes = b > INT32_MAX ? INT32_MAX : (int)b;
}

void bsp_get_tag(int *status, void *tag)
{
    int64_t n = bsp_impl_get_tag(tag);
    if (!status)
        bsp_error("bsp_get_tag", "NULL status pointer");
    *status = n > INT32_MAX ? INT32_MAX : (int)n;
}

void bsp_move(void *payload, int reception_nbytes) { bsp_impl_move(payload, reception_nbytes); }
int bsp_hpmove(void **tag_ptr_buf, void **payload_ptr_buf) { return (int)bsp_impl_hpmove(tag_ptr_buf, payload_ptr_buf); }

/* ---- MulticoreBSP for C 2.x -------------------------------------------------- */

/* A program uses one dialect; its begin tells the error messages which. */
void bsp_mc_begin(unsigned int p)
{
    bsp.mc = true;
    bsp_impl_begin(p);
}
unsigned int bsp_mc_nprocs(void) { return (unsigned int)bsp_impl_nprocs(); }
unsigned int bsp_mc_pid(void) { return (unsigned int)bsp_impl_pid(); }
void bsp_mc_push_reg(const void *address, size_t size) { bsp_impl_push_reg(address, SZ(size)); }

void bsp_mc_put(unsigned int pid, const void *source, const void *destination, size_t offset, size_t size)
{
    bsp_impl_put(pid, source, destination, SZ(offset), SZ(size), "bsp_put");
}

void bsp_mc_get(unsigned int pid, const void *source, size_t offset, void *destination, size_t size)
{
    bsp_impl_get(pid, source, SZ(offset), destination, SZ(size), "bsp_get");
}

void bsp_mc_hpput(unsigned int pid, const void *source, const void *destination, size_t offset, size_t size)
{
    bsp_impl_hpput(pid, source, destination, SZ(offset), SZ(size));
}

void bsp_mc_hpget(unsigned int pid, const void *source, size_t offset, void *destination, size_t size)
{
    bsp_impl_hpget(pid, source, SZ(offset), destination, SZ(size));
}

void bsp_mc_set_tagsize(size_t *size)
{
    if (!size)
        bsp_error("bsp_set_tagsize", "NULL argument");
    *size = (size_t)bsp_impl_set_tagsize(SZ(*size));
}

void bsp_mc_send(unsigned int pid, const void *tag, const void *payload, size_t size)
{
    bsp_impl_send(pid, tag, payload, SZ(size));
}

void bsp_mc_qsize(unsigned int *packets, size_t *accumulated_size)
{
    uint64_t n, b;
    bsp_impl_qsize(&n, &b);
    if (packets)
        *packets = (unsigned int)n;
    if (accumulated_size)
        *accumulated_size = b;
}

void bsp_mc_get_tag(size_t *status, void *tag)
{
    int64_t n = bsp_impl_get_tag(tag);
    if (!status)
        bsp_error("bsp_get_tag", "NULL status pointer");
    *status = n < 0 ? SIZE_MAX : (size_t)n;
}

void bsp_mc_move(void *payload, size_t max_copy_size)
{
    bsp_impl_move(payload, max_copy_size > INT64_MAX ? INT64_MAX : SZ(max_copy_size));
}

size_t bsp_mc_hpmove(void **p_tag, void **p_payload)
{
    int64_t n = bsp_impl_hpmove(p_tag, p_payload);
    return n < 0 ? SIZE_MAX : (size_t)n;
}
