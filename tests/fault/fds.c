/* fds.c - no descriptor of Superstep's (segment, pidfds, eventfd) survives
 * an exec of another program started from a processor (popen: sh, ls):
 *   bsp:  every BSPlib processor, in the first superstep and after a sync
 *   mp:   every mp.h node
 *   ends: processor 0 after bsp_end, and node 1 after mp_quit
 *   profile: the trace file processor 0 writes at bsp_end (SUPERSTEP_PROFILE
 *         names a FIFO here, so the writer is held with the file open while
 *         another thread of processor 0 execs)
 * Usage: fds bsp|mp|profile */
// RUN: n=3 args="bsp" out="^fds ok 3$"
// RUN: n=3 args="mp" out="^fds ok 3$"
// RUN: n=2 args="profile" out="^fds ok 2$"
#include <bsp.h>
#include <mp.h>

#include "fds_check.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[] = "/tmp/superstep-fds-XXXXXX", fifo[64];

/* Another descriptor than 'mine' open on the FIFO: the profiler's. */
static bool writer_open(int mine)
{
    DIR *d = opendir("/proc/self/fd");
    CHECK(d, "opendir /proc/self/fd");
    bool found = false;
    struct dirent *e;
    while (!found && (e = readdir(d))) {
        char link[300], target[PATH_MAX];
        snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0 && atoi(e->d_name) != mine) {
            target[n] = 0;
            found = !strcmp(target, fifo);
        }
    }
    closedir(d);
    return found;
}

/* While bsp_end writes the trace into the FIFO (and blocks once it is
 * full), exec a program and look at what it holds; then drain.  The read
 * end is open before bsp_end (a FIFO with no reader then gets no trace). */
static int reader_fd = -1;

static void *trace_reader(void *arg)
{
    (void)arg;
    int fd = reader_fd;
    while (!writer_open(fd)) {
        struct timespec nap = { 0, 1000000 };
        nanosleep(&nap, NULL);
    }
    check_exec_sees_no_fds_or("processor 0 writing its trace", fifo);
    fcntl(fd, F_SETFL, 0);
    char buf[1 << 16];
    size_t total = 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) != 0) {
        if (n > 0)
            total += (size_t)n;
        else
            CHECK(errno == EINTR || errno == EAGAIN, "read: %s", strerror(errno));
    }
    close(fd);
    CHECK(total > (1 << 17), "the trace (%zu bytes) is too short to hold its writer", total);
    return NULL;
}

static int profile_case(void)
{
    CHECK(mkdtemp(dir), "mkdtemp");
    snprintf(fifo, sizeof fifo, "%s/trace", dir);
    CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
    setenv("SUPERSTEP_PROFILE", fifo, 1);
    bsp_begin(bsp_nprocs());
    for (int s = 0; s < 3000; s++)
        bsp_sync();
    unsigned p = bsp_nprocs(), me = bsp_pid();
    pthread_t t;
    if (me == 0) {
        reader_fd = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        CHECK(reader_fd >= 0, "open %s", fifo);
        CHECK(pthread_create(&t, NULL, trace_reader, NULL) == 0, "pthread_create");
    }
    bsp_end();
    if (me == 0) {
        pthread_join(t, NULL);
        unlink(fifo);
        rmdir(dir);
        printf("fds ok %u\n", p);
    }
    return 0;
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: fds bsp|mp|profile");
    char who[32];
    if (!strcmp(argv[1], "profile"))
        return profile_case();
    if (!strcmp(argv[1], "mp")) {
        CHECK(mp_start(&argc, &argv), "mp_start");
        snprintf(who, sizeof who, "node %d", mp_this_pe());
        check_exec_sees_no_fds(who);
        CHECK(mp_sync(), "mp_sync");
        int n = mp_npes();
        bool main_node = mp_is_main();
        mp_quit(0);
        if (main_node) {
            check_exec_sees_no_fds("node 1 after mp_quit");
            printf("fds ok %d\n", n);
        }
        return 0;
    }
    bsp_begin(bsp_nprocs());
    snprintf(who, sizeof who, "processor %u", bsp_pid());
    check_exec_sees_no_fds(who);
    bsp_sync();
    check_exec_sees_no_fds(who);
    unsigned p = bsp_nprocs(), me = bsp_pid();
    bsp_end();
    if (me == 0) {
        check_exec_sees_no_fds("processor 0 after bsp_end");
        printf("fds ok %u\n", p);
    }
    return 0;
}
