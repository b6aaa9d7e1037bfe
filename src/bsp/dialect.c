/*
 * dialect.c - the two public BSPlib dialects over bsp_impl_*.
 *
 * The 1998 standard's int ids and sizes arrive sign-extended, so negative
 * values reach the checks as negative; MulticoreBSP's unsigned ids and
 * size_t sizes arrive as they are, and anything above 2^63 reads as negative
 * and is refused the same way.
 */
#include "bsp/bsp_impl.h"

#include <stdbool.h>
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
    *tag_nbytes = (int)bsp_impl_set_tagsize(*tag_nbytes, false);
}

void bsp_send(int pid, const void *tag, const void *payload, int payload_nbytes)
{
    bsp_impl_send(pid, tag, payload, payload_nbytes);
}

void bsp_qsize(int *nmessages, int *accum_nbytes)
{
    uint64_t n, b;
    bsp_impl_qsize(&n, &b);
    if (!nmessages || !accum_nbytes)
        bsp_error("bsp_qsize", "NULL %s pointer", nmessages ? "accum_nbytes" : "nmessages");
    *nmessages = (int)n;
    *accum_nbytes = b > INT32_MAX ? INT32_MAX : (int)b;
}

void bsp_get_tag(int *status, void *tag)
{
    int64_t n = bsmp_get_tag(tag);
    if (!status)
        bsp_error("bsp_get_tag", "NULL status pointer");
    *status = n > INT32_MAX ? INT32_MAX : (int)n;
}

void bsp_move(void *payload, int reception_nbytes) { bsmp_move(payload, reception_nbytes); }
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
    *size = (size_t)bsp_impl_set_tagsize(SZ(*size), true);
}

void bsp_mc_send(unsigned int pid, const void *tag, const void *payload, size_t size)
{
    bsp_impl_send(pid, tag, payload, SZ(size));
}

void bsp_mc_qsize(unsigned int *packets, size_t *accumulated_size)
{
    uint64_t n, b;
    bsp_impl_qsize(&n, &b);
    if (!packets)
        bsp_error("bsp_qsize", "NULL packets pointer");
    *packets = (unsigned int)n;
    if (accumulated_size)
        *accumulated_size = b;
}

void bsp_mc_get_tag(size_t *status, void *tag)
{
    int64_t n = bsmp_get_tag(tag);
    if (!status)
        bsp_error("bsp_get_tag", "NULL status pointer");
    *status = n < 0 ? SIZE_MAX : (size_t)n;
}

void bsp_mc_move(void *payload, size_t max_copy_size)
{
    bsmp_move(payload, max_copy_size > INT64_MAX ? INT64_MAX : SZ(max_copy_size));
}

size_t bsp_mc_hpmove(void **p_tag, void **p_payload)
{
    int64_t n = bsp_impl_hpmove(p_tag, p_payload);
    return n < 0 ? SIZE_MAX : (size_t)n;
}

/* ---- the default: either dialect's types (bsp.h without a flag) ---------- */

/* The kind of a pointed-to integer, as bsp.h's SUPERSTEP_KIND computes it. */
#define KIND_SIGNED 0x100
#define KIND_BYTES(k) ((k) & 0xff)

static int64_t kind_read(const void *p, int kind)
{
    bool sig = kind & KIND_SIGNED;
    switch (KIND_BYTES(kind)) {
    case 4: return sig ? *(const int32_t *)p : (int64_t)*(const uint32_t *)p;
    case 8: return *(const int64_t *)p; /* an unsigned value above 2^63 reads as negative: refused */
    default: return 0;
    }
}

/* Store v; -1 ("none") becomes the type's maximum in an unsigned type, and a
 * value the type cannot hold is clamped to its maximum. */
static void kind_write(void *p, int kind, int64_t v)
{
    bool sig = kind & KIND_SIGNED;
    if (KIND_BYTES(kind) == 8) {
        *(int64_t *)p = v;
    } else if (sig) {
        *(int32_t *)p = v > INT32_MAX ? INT32_MAX : (int32_t)v;
    } else {
        *(uint32_t *)p = v < 0 ? UINT32_MAX : v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
    }
}

static void kind_check(const char *call, const char *what, const void *p, int kind)
{
    if (!p)
        bsp_error(call, "NULL %s pointer", what);
    if (KIND_BYTES(kind) != 4 && KIND_BYTES(kind) != 8)
        bsp_error(call, "%s points to an integer of another type (expected int, unsigned int, long or size_t)",
                  what);
}

void bsp_any_begin(long long p) { bsp_impl_begin(p); }
void bsp_any_push_reg(const void *ident, long long size) { bsp_impl_push_reg(ident, size); }

void bsp_any_put(long long pid, const void *src, const void *dst, long long offset, long long nbytes)
{
    bsp_impl_put(pid, src, dst, offset, nbytes, "bsp_put");
}

void bsp_any_get(long long pid, const void *src, long long offset, void *dst, long long nbytes)
{
    bsp_impl_get(pid, src, offset, dst, nbytes, "bsp_get");
}

void bsp_any_hpput(long long pid, const void *src, const void *dst, long long offset, long long nbytes)
{
    bsp_impl_hpput(pid, src, dst, offset, nbytes);
}

void bsp_any_hpget(long long pid, const void *src, long long offset, void *dst, long long nbytes)
{
    bsp_impl_hpget(pid, src, offset, dst, nbytes);
}

void bsp_any_send(long long pid, const void *tag, const void *payload, long long nbytes)
{
    bsp_impl_send(pid, tag, payload, nbytes);
}

long long bsp_any_hpmove(void **tag, void **payload) { return bsp_impl_hpmove(tag, payload); }

/* An unsigned size (bsp_size_t) is a MulticoreBSP program's: a second
 * call in a superstep returns the size in force; an int, the 1998 rule. */
void bsp_any_set_tagsize(void *size, int kind)
{
    kind_check("bsp_set_tagsize", "size", size, kind);
    kind_write(size, kind, bsp_impl_set_tagsize(kind_read(size, kind), !(kind & KIND_SIGNED)));
}

/* A NULL nmessages is an error in every dialect; a NULL nbytes is allowed
 * where the other argument is unsigned (MulticoreBSP documents it as
 * optional) and an error with the 1998 int types (as in BSPonMPI). */
void bsp_any_qsize(void *nmessages, int nkind, void *nbytes, int bkind)
{
    uint64_t n, b;
    bsp_impl_qsize(&n, &b);
    kind_check("bsp_qsize", "nmessages", nmessages, nkind);
    if (nbytes || (nkind & KIND_SIGNED))
        kind_check("bsp_qsize", "accum_nbytes", nbytes, bkind);
    kind_write(nmessages, nkind, (int64_t)n);
    if (nbytes)
        kind_write(nbytes, bkind, (int64_t)b);
}

void bsp_any_get_tag(void *status, int kind, void *tag)
{
    int64_t n = bsmp_get_tag(tag);
    if (__builtin_expect(kind == (KIND_SIGNED | 4) && status, 1)) { /* an int, as most programs pass */
        *(int32_t *)status = n > INT32_MAX ? INT32_MAX : (int32_t)n;
        return;
    }
    kind_check("bsp_get_tag", "status", status, kind);
    kind_write(status, kind, n);
}

/* An unsigned size above 2^63 (SIZE_MAX: "all of it") copies the whole
 * payload; a negative signed one is refused. */
void bsp_any_move(void *payload, long long nbytes, int is_signed)
{
    bsmp_move(payload, !is_signed && nbytes < 0 ? INT64_MAX : nbytes);
}

void bsp_any_direct_get(long long pid, const void *src, long long offset, void *dst, long long nbytes)
{
    bsp_impl_direct_get(pid, src, offset, dst, nbytes);
}

void bsp_any_hpsend(long long pid, const void *tag, const void *payload, long long nbytes)
{
    bsp_impl_send(pid, tag, payload, nbytes);
}
