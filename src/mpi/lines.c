/*
 * lines.c - whole output lines under an MPI launcher.
 *
 * mpirun forwards each rank's stdout and stderr: it reads what the rank
 * wrote from a pipe or a pseudo-terminal in pieces of its own size
 * (docs/mpi.md, "Vendor notes", pty-stdout) and writes each piece out as it comes,
 * so a line that reaches it in two pieces can have another rank's piece in
 * between.  stdio's line buffering is not enough: a line longer than its
 * buffer goes out in several writes, and two short lines written one after
 * the other can be read as one piece that ends inside the second.
 *
 * So stdout and stderr become streams (fopencookie) that keep a partial
 * line, of any length, until its newline, and write whole lines only,
 * each group of lines in one write(); to a pipe they write only when the
 * launcher has read everything before (FIONREAD), in groups of at most
 * PIPE_BUF bytes, which a pipe delivers whole.  A launcher reading
 * pieces of at least PIPE_BUF then always reads whole lines.  What stays
 * possible: a single line longer than PIPE_BUF (4096 bytes) to a pipe, or
 * any line to a pseudo-terminal, which delivers a write in smaller
 * pieces, can still be cut (docs/mpi.md, "Output").
 */
#include "mpi/lines.h"
#include "barrier/barrier.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mpi/plugin.h" /* core: the core's services */

/* Pacing: a line waits at most this long for the launcher to read the
 * lines before it, then goes anyway (output must never hang on a launcher
 * that reads slowly; at worst the lines can be cut, as without pacing). */
#define PACE_WAIT_NS 1000000000ll

struct line_out {
    int fd;
    bool pipe;
    char *buf;                 /* the pending partial line */
    size_t len, cap;
    FILE *f;
};

static struct line_out outs[2] = { { .fd = 1 }, { .fd = 2 } };

/* After a failure (lines_failing): when writes give up (0: never). */
static bool failing;
static int64_t give_up_at;

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        size_t k = n;
        if (failing) { /* a pipe that takes output takes PIPE_BUF bytes without blocking */
            if (!core->launch_output_until(fd, give_up_at))
                return; /* nobody reads: the rest is lost (docs/mpi.md, "Output") */
            k = n < PIPE_BUF ? n : PIPE_BUF;
        }
        ssize_t w = write(fd, p, k);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return; /* the launcher is gone: nothing to do about it */
        p += w;
        n -= (size_t)w;
    }
}

void lines_await_drained(int fd, int64_t deadline)
{
    struct timespec nap = { 0, 20000 };
    for (;;) {
        int queued = 0;
        if (ioctl(fd, FIONREAD, &queued) != 0 || queued <= 0)
            return;
        struct pollfd reader = { fd, POLLOUT, 0 };
        if (poll(&reader, 1, 0) > 0 && (reader.revents & POLLERR))
            return; /* nobody is left to read them (the launcher ended) */
        if (deadline && core->now_ns() >= deadline)
            return;
        nanosleep(&nap, NULL);
    }
}

/* Write the whole lines among p[0..n) (n ends at a newline, or is all
 * that is left at the end). */
static void emit(struct line_out *o, const char *p, size_t n)
{
    while (n) {
        size_t k = n;
        if (n > PIPE_BUF) { /* as many whole lines as fit in PIPE_BUF, or one longer line */
            const char *nl = memrchr(p, '\n', PIPE_BUF);
            if (!nl)
                nl = memchr(p, '\n', n);
            k = nl ? (size_t)(nl - p) + 1 : n;
        }
        if (o->pipe) {
            int64_t pace = core->now_ns() + PACE_WAIT_NS;
            lines_await_drained(o->fd, failing && give_up_at && give_up_at < pace ? give_up_at : pace);
        }
        write_all(o->fd, p, k);
        p += k;
        n -= k;
    }
}

static ssize_t line_write(void *cookie, const char *p, size_t n)
{
    struct line_out *o = cookie;
    const char *nl = memrchr(p, '\n', n);
    size_t whole = nl ? (size_t)(nl - p) + 1 : 0;
    if (whole && o->len) { /* the pending line ends here: one write for it */
        if (o->len + whole > o->cap) {
            size_t c = o->cap ? o->cap : 4096;
            while (c < o->len + whole)
                c *= 2;
            char *b = realloc(o->buf, c);
            if (!b) { /* no room: out in two writes rather than lost */
                emit(o, o->buf, o->len);
                o->len = 0;
                goto direct;
            }
            o->buf = b, o->cap = c;
        }
        memcpy(o->buf + o->len, p, whole);
        emit(o, o->buf, o->len + whole);
        o->len = 0;
    } else if (whole) {
    direct:
        emit(o, p, whole);
    }
    size_t rest = n - whole;
    if (rest) {
        if (o->len + rest > o->cap) {
            size_t c = o->cap ? o->cap : 4096;
            while (c < o->len + rest)
                c *= 2;
            char *b = realloc(o->buf, c);
            if (!b) {
                emit(o, o->buf, o->len);
                emit(o, p + whole, rest);
                o->len = 0;
                return (ssize_t)n;
            }
            o->buf = b, o->cap = c;
        }
        memcpy(o->buf + o->len, p + whole, rest);
        o->len += rest;
    }
    return (ssize_t)n;
}

void lines_flush(void)
{
    if (!outs[0].f)
        return;
    for (int i = 0; i < 2; i++) {
        fflush(outs[i].f);
        if (outs[i].len)
            emit(&outs[i], outs[i].buf, outs[i].len);
        outs[i].len = 0;
    }
}

void lines_failing(int64_t deadline)
{
    if (!failing)
        give_up_at = deadline;
    failing = true;
}

void lines_drain(int64_t deadline)
{
    for (int i = 0; i < 2; i++) {
        struct stat st;
        if (fstat(outs[i].fd, &st) == 0 && S_ISFIFO(st.st_mode))
            lines_await_drained(outs[i].fd, deadline);
    }
}

/* At exit (after every exit handler, before stdio's last flush). */
__attribute__((destructor)) static void lines_at_exit(void)
{
    lines_flush();
}

void lines_whole(void)
{
    if (outs[0].f)
        return;
    FILE **std[2] = { &stdout, &stderr };
    for (int i = 0; i < 2; i++) {
        struct line_out *o = &outs[i];
        struct stat st;
        o->pipe = fstat(o->fd, &st) == 0 && S_ISFIFO(st.st_mode);
        FILE *f = fopencookie(o, "w", (cookie_io_functions_t){ .write = line_write });
        if (!f)
            return; /* stdio's own streams stay */
        setvbuf(f, NULL, _IONBF, 0);
        fflush(*std[i]);
        o->f = f;
        *std[i] = f;
    }
}
