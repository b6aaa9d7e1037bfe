/*
 * segment.h - the shared segment: one sparse memfd every processor maps.
 *
 * Everything stored in the segment is addressed by offset from its base,
 * never by pointer, because each process (a forked child or an exec'd
 * kernel) may map it at its own address.  Memory is handed out by a bump
 * allocator and never returned: the layers above recycle what they take.
 */
#ifndef SUPERSTEP_SEGMENT_H
#define SUPERSTEP_SEGMENT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#define SEG_MAGIC 0x5355504552535431ull /* "SUPERST1" */
#define SEG_LINE 64
#define SEG_ROOTS 16

struct seg_header {
    uint64_t magic;
    uint64_t size;
    _Atomic uint64_t brk;            /* first unallocated offset */
    uint32_t nprocs;
    uint32_t pad;
    uint64_t root[SEG_ROOTS];        /* offsets of each layer's own tables */
};

struct segment {
    int fd;
    size_t size;
    char *base;
    struct seg_header *hdr;
};

/* Roots: fixed slots so a process that maps the segment finds each table. */
enum seg_root { ROOT_LAUNCH, ROOT_CHANNELS, ROOT_SHM, ROOT_BSP, ROOT_MP, ROOT_HOST };

/* Default reservation (sparse: pages cost nothing until touched). */
#define SEG_DEFAULT_SIZE (16ull << 30)

int seg_create(struct segment *s, size_t size, uint32_t nprocs);
int seg_attach(struct segment *s, int fd);
void seg_detach(struct segment *s);

/* Allocate n bytes aligned to align (a power of two); 0 when exhausted. */
uint64_t seg_alloc(struct segment *s, size_t n, size_t align);

static inline void *seg_ptr(const struct segment *s, uint64_t off)
{
    return s->base + off;
}

static inline uint64_t seg_off(const struct segment *s, const void *p)
{
    return (uint64_t)((const char *)p - s->base);
}

static inline int seg_contains(const struct segment *s, const void *p, size_t n)
{
    const char *c = p;
    return c >= s->base && c <= s->base + s->size && n <= (size_t)(s->base + s->size - c);
}

/* A size from the environment variable 'name' (bytes, or with a K/M/G
 * suffix), or 'def' when it is unset. */

/* The size asked for by SUPERSTEP_SEGMENT_SIZE, or the default. */
size_t seg_size_from_env(void);

#endif
