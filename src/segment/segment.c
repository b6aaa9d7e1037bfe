/*
 * segment.c - create, map and carve the shared segment.
 *
 * memfd_create gives an anonymous file that never appears in /dev/shm, so
 * nothing is left behind whatever way the job ends; the mapping is
 * MAP_NORESERVE so a large reservation costs only the pages touched.
 */
#include "segment/segment.h"
#include "settings/settings.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int seg_map(struct segment *s, int fd, size_t size)
{
    void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_NORESERVE, fd, 0);
    if (p == MAP_FAILED)
        return -errno;
    s->fd = fd;
    s->size = size;
    s->base = p;
    s->hdr = p;
    return 0;
}

int seg_create(struct segment *s, size_t size, uint32_t nprocs)
{
    int fd = memfd_create("superstep", MFD_CLOEXEC);
    if (fd < 0)
        return -errno;
    /* Beyond RLIMIT_FSIZE ftruncate raises SIGXFSZ, which would kill the
     * program without a word: ignored here, the call fails with EFBIG. */
    struct sigaction ign = { .sa_handler = SIG_IGN }, old;
    sigaction(SIGXFSZ, &ign, &old);
    int trunc = ftruncate(fd, (off_t)size) != 0 ? -errno : 0;
    sigaction(SIGXFSZ, &old, NULL);
    if (trunc) {
        close(fd);
        return trunc;
    }
    int rc = seg_map(s, fd, size);
    if (rc) {
        close(fd);
        return rc;
    }
    s->hdr->magic = SEG_MAGIC;
    s->hdr->size = size;
    s->hdr->nprocs = nprocs;
    atomic_store(&s->hdr->brk, (sizeof(struct seg_header) + 4095) & ~4095ull);
    return 0;
}

int seg_attach(struct segment *s, int fd)
{
    /* The descriptor came through an exec without FD_CLOEXEC; nothing this
     * process execs in turn (popen, system) may inherit it. */
    fcntl(fd, F_SETFD, FD_CLOEXEC);
    struct stat st;
    if (fstat(fd, &st) != 0)
        return -errno;
    /* Trust the file no further than its size: too short for the header,
     * or shorter than the size the header records (truncated), and the
     * tables it points to would lie past the mapping. */
    if ((uint64_t)st.st_size < sizeof(struct seg_header))
        return -EINVAL;
    int rc = seg_map(s, fd, (size_t)st.st_size);
    if (rc)
        return rc;
    if (s->hdr->magic != SEG_MAGIC || s->hdr->size > (uint64_t)st.st_size) {
        seg_detach(s);
        return -EINVAL;
    }
    return 0;
}

void seg_detach(struct segment *s)
{
    if (s->base)
        munmap(s->base, s->size);
    if (s->fd >= 0)
        close(s->fd);
    memset(s, 0, sizeof *s);
    s->fd = -1;
}

uint64_t seg_alloc(struct segment *s, size_t n, size_t align)
{
    uint64_t cur = atomic_load_explicit(&s->hdr->brk, memory_order_relaxed);
    for (;;) {
        uint64_t start = (cur + align - 1) & ~(uint64_t)(align - 1);
        if (start + n > s->size || start + n < start)
            return 0;
        if (atomic_compare_exchange_weak(&s->hdr->brk, &cur, start + n))
            return start;
    }
}

size_t seg_size_from_env(void)
{
    return (size_t)setting_num(SET_SEGMENT_SIZE);
}
