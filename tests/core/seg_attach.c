/* seg_attach.c - attaching to a segment passed through a descriptor checks
 * the file against its header instead of trusting it: a file shorter than
 * the header, or shorter than the size the header records (a truncated
 * segment, whose tables would lie past the end of the mapping), is refused
 * with EINVAL instead of crashing later (SIGBUS, SIGSEGV); a whole one is
 * accepted. */
// RUN: n=1 out="^seg_attach ok$"
#include "segment/segment.h"
#include "check.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* A memfd of 'file' bytes whose header says 'claimed'. */
static int fake_segment(size_t file, uint64_t claimed)
{
    int fd = memfd_create("seg_attach-test", MFD_CLOEXEC);
    CHECK(fd >= 0, "memfd_create");
    CHECK(ftruncate(fd, (off_t)file) == 0, "ftruncate");
    struct seg_header h;
    memset(&h, 0, sizeof h);
    h.magic = SEG_MAGIC;
    h.size = claimed;
    size_t n = file < sizeof h ? file : sizeof h;
    CHECK(pwrite(fd, &h, n, 0) == (ssize_t)n, "pwrite");
    return fd;
}

int main(void)
{
    struct segment s;
    int rc = seg_attach(&s, fake_segment(1 << 16, 1 << 16));
    CHECK(rc == 0, "a whole segment refused: %d", rc);
    seg_detach(&s);
    rc = seg_attach(&s, fake_segment(4096, 1 << 20));
    CHECK(rc == -EINVAL, "a segment truncated to 4096 of its 1 MiB accepted: %d", rc);
    rc = seg_attach(&s, fake_segment(16, 1 << 16));
    CHECK(rc == -EINVAL, "a file shorter than the header accepted: %d", rc);
    printf("seg_attach ok\n");
    return 0;
}
