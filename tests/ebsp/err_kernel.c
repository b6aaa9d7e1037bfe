/* err_kernel.c - kernel of err_host: commits the error named by the host's
 * message (the mode), or runs cleanly for mode "ok". */
// NORUN: the kernel of err_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static int global;

/* tests/mpi/ehost.sh hoststop: say that the run is on (DIR/ready), then
 * wait until the script has stopped the host (DIR/go). */
static void await_host_stopped(void)
{
    const char *dir = getenv("ERR_HOSTSTOP_DIR");
    CHECK(dir, "ERR_HOSTSTOP_DIR is not set");
    char path[512];
    snprintf(path, sizeof path, "%s/ready", dir);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    CHECK(fd >= 0, "cannot create %s", path);
    close(fd);
    snprintf(path, sizeof path, "%s/go", dir);
    while (access(path, F_OK) != 0) {
        struct timespec nap = { 0, 10000000 };
        nanosleep(&nap, NULL);
    }
}

/* A real NULL dereference; the sanitizers are told to let it happen. */
__attribute__((noinline, no_sanitize("address", "undefined")))
static void write_null(int *volatile *where)
{
    **where = 1;
}

int main(void)
{
    bsp_begin();
    int s = bsp_pid(), p = bsp_nprocs();
    char mode[64] = "";
    int n, bytes;
    bsp_qsize(&n, &bytes);
    CHECK(n == 1, "processor %d: no mode", s);
    bsp_move(mode, sizeof mode - 1);
#define IS(m) (strcmp(mode, m) == 0)
    int *x = ebsp_malloc(16 * sizeof(int));
    bsp_push_reg(x, 16 * sizeof(int));
    bsp_sync(); /* superstep 1 */
    ebsp_stream st;
    int v = 5;
    if (IS("put_pid") && s == p - 1)
        bsp_put(p, &v, x, 0, sizeof v);
    if (IS("hpput_unreg") && s == 0)
        bsp_hpput(0, &v, &global, 0, sizeof v);
    if (IS("put_unreg") && s == 1)
        bsp_put(0, &v, &global, 0, sizeof v);
    if (IS("get_unreg") && s == 0)
        bsp_get(1, &global, 0, &v, sizeof v);
    if (IS("hpput_null"))
        bsp_hpput(0, &v, NULL, 0, sizeof v);
    if (IS("hpget_bounds") && s == 0)
        bsp_hpget(p - 1, x, 60, &v, 8);
    if (IS("hpput_pid") && s == 0)
        bsp_hpput(-1, &v, x, 0, sizeof v);
    if (IS("direct_pid") && s == 0)
        ebsp_get_direct_address(p, x);
    if (IS("direct_null") && s == 0)
        ebsp_get_direct_address(0, NULL);
    if (IS("stream_id") && s == 0)
        bsp_stream_open(&st, 5);
    if (IS("stream_neg") && s == 0)
        bsp_stream_open(&st, -1);
    if (IS("stream_twice") && s == 0) {
        bsp_stream_open(&st, 0);
        ebsp_stream st2;
        bsp_stream_open(&st2, 0);
    }
    if (IS("stream_busy")) {
        if (s == 0)
            bsp_stream_open(&st, 0);
        bsp_sync(); /* superstep 2: the others try */
        if (s == p - 1)
            bsp_stream_open(&st, 0);
        bsp_sync();
    }
    if (IS("token_big") && s == 0) {
        bsp_stream_open(&st, 0);
        char big[100] = { 0 };
        bsp_stream_move_up(&st, big, sizeof big, 1);
    }
    if (IS("stream_full") && s == 0) {
        bsp_stream_open(&st, 0);
        char tok[16] = { 0 };
        for (int i = 0; i < 100; i++)
            bsp_stream_move_up(&st, tok, sizeof tok, 0);
    }
    if (IS("stream_closed") && s == 0) {
        bsp_stream_open(&st, 0);
        bsp_stream_close(&st);
        void *buf;
        bsp_stream_move_down(&st, &buf, 0);
    }
    if (IS("sync_after_up") && s == 0) {
        ebsp_send_up(NULL, &v, sizeof v);
        bsp_sync();
    }
    if (IS("send_after_up") && s == 0) {
        ebsp_send_up(NULL, &v, sizeof v);
        bsp_send(0, NULL, &v, sizeof v);
    }
    if (IS("up_neg") && s == 0)
        ebsp_send_up(NULL, &v, -4);
    if (IS("free_bad") && s == 0)
        ebsp_free(&v);
    if (IS("free_twice") && s == 0) {
        void *m = ebsp_malloc(8);
        ebsp_free(m);
        ebsp_free(m);
    }
    if (IS("free_null") && s == 0)
        ebsp_free(NULL);
    if (IS("hsync_mismatch")) {
        if (s == 0)
            ebsp_host_sync();
        else
            bsp_sync();
    }
    if (IS("hsync"))
        ebsp_host_sync();
    if (IS("begin_twice") && s == 0)
        bsp_begin();
    if (IS("dma_null") && s == 0)
        ebsp_dma_push(NULL, &v, &v, sizeof v);
    if (IS("reg_order")) { /* upstream: by order, whatever the superstep; nbytes ignored */
        int y[2] = { -1, -1 };
        bsp_push_reg(y, sizeof(int));
        if (s == 0)
            bsp_push_reg(&v, sizeof(int));
        bsp_sync(); /* superstep 2: 0 registered y and v, the others y */
        if (s != 0)
            bsp_push_reg(&v, sizeof(int));
        bsp_sync(); /* superstep 3: v everywhere */
        int pair[2] = { s, 100 + s };
        bsp_put((s + 1) % p, pair, &v, 0, sizeof(int));
        bsp_put((s + 1) % p, pair, y, 0, sizeof pair); /* 8 bytes into a 4-byte registration */
        bsp_sync();
        int from = (s + p - 1) % p;
        CHECK(v == from && y[0] == from && y[1] == 100 + from, "processor %d: v %d y %d %d", s, v, y[0], y[1]);
        if (s == p - 1)
            ebsp_message("registrations by order ok");
    }
    if ((IS("abort") || IS("abort_up")) && s == p - 1)
        bsp_abort("abort test %d", 42);
    if (IS("abort_hoststop") && s == p - 1) {
        await_host_stopped();
        bsp_abort("abort test %d", 42);
    }
    if (IS("abort_nl") && s == p - 1)
        bsp_abort("bad value %d\nsecond line\n", 3);
    if (IS("abort_stuck") && s == p - 1)
        bsp_abort("abort test %d", 42);
    if (IS("abort_stuck") && s == 0)
        for (;;) /* computes on: never sees that the run failed */
            pause();
    if (IS("crash") && s == 0) {
        int *volatile null = NULL;
        write_null(&null);
    }
    if (IS("exit") && s == 0)
        _exit(5);
    bsp_sync();
    if (IS("ok")) {
        int ok = 1;
        ebsp_send_up(NULL, &ok, sizeof ok);
    }
    bsp_end();
    return 0;
}
