/* dep_kernel.c - kernel of dep_host: Epiphany BSP's deprecated streams.
 * This core's streams (made by dep_host): 0 up (4 chunks of 16 bytes),
 * 1 down (4 chunks of 4 ints: 100 s + i), 2 down (40 bytes in chunks of
 * 16: 16, 16, 8).  Mode "ok" (and "adjacent", the same here) checks them and the errors upstream survives;
 * the other modes commit one fatal error each. */
// NORUN: the kernel of dep_host.c, which starts it (started alone: tests/ebsp/spmd_kernel.c)
#include <e_bsp.h>
#include <string.h>

#include "check.h"

static int s;

static void expect_chunk(int *buf, int n, int k)
{
    CHECK(n == 16 && buf, "processor %d: chunk %d: size %d", s, k, n);
    for (int i = 0; i < 4; i++)
        CHECK(buf[i] == 100 * s + 4 * k + i, "processor %d: chunk %d int %d is %d", s, k, i, buf[i]);
}

static void down(void)
{
    int *buf = NULL;
    CHECK(ebsp_open_down_stream((void **)&buf, 1) == 16, "open down: chunk size");
    for (int k = 0; k < 4; k++)
        expect_chunk(buf, ebsp_move_chunk_down((void **)&buf, 1, k % 2), k);
    CHECK(ebsp_move_chunk_down((void **)&buf, 1, 0) == 0 && !buf, "no end of stream");
    ebsp_move_down_cursor(1, -2);
    expect_chunk(buf, ebsp_move_chunk_down((void **)&buf, 1, 0), 2);
    int *same = buf;
    ebsp_reset_down_cursor(1);
    expect_chunk(buf, ebsp_move_chunk_down((void **)&buf, 1, 0), 0);
    CHECK(buf == same, "single buffering moved the buffer");
    ebsp_move_down_cursor(1, 1);
    expect_chunk(buf, ebsp_move_chunk_down((void **)&buf, 1, 1), 2);
    ebsp_close_down_stream(1);

    char *c;
    ebsp_open_down_stream((void **)&c, 2);
    int sizes[4];
    for (int k = 0; k < 4; k++)
        sizes[k] = ebsp_move_chunk_down((void **)&c, 2, 1);
    CHECK(sizes[0] == 16 && sizes[1] == 16 && sizes[2] == 8 && sizes[3] == 0, "sizes %d %d %d %d", sizes[0],
          sizes[1], sizes[2], sizes[3]);
    ebsp_close_down_stream(2);
}

static void up(void)
{
    int *buf;
    CHECK(ebsp_open_up_stream((void **)&buf, 0) == 16, "open up: chunk size");
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < 4; i++)
            buf[i] = 1000 * s + 4 * k + i;
        if (k == 3)
            ebsp_set_up_chunk_size(0, 8);
        CHECK(ebsp_move_chunk_up((void **)&buf, 0, k % 2) == 16, "move up: chunk size");
    }
    ebsp_close_up_stream(0);
}

int main(int argc, char **argv)
{
    bsp_begin();
    s = bsp_pid();
    const char *mode = argc > 1 ? argv[1] : "ok";
    void *a;
    if (!strcmp(mode, "ok") || !strcmp(mode, "adjacent")) {
        down();
        up();
        if (s == 0) { /* upstream's surviving errors, in order with the messages */
            ebsp_message("errors:");
            ebsp_open_down_stream(&a, 0);
            ebsp_open_up_stream(&a, 9);
            ebsp_close_down_stream(1);
            ebsp_open_up_stream(&a, 0);
            ebsp_open_up_stream(&a, 0);
            ebsp_close_up_stream(0);
            ebsp_open_down_stream(&a, 1);
            ebsp_move_down_cursor(1, 5);
            ebsp_move_down_cursor(1, -1);
            ebsp_open_down_stream(&a, 1);
            ebsp_close_down_stream(1);
            ebsp_message("end");
        }
    } else if (s == 0) {
        if (!strcmp(mode, "chunk_size")) {
            ebsp_open_up_stream(&a, 0);
            ebsp_set_up_chunk_size(0, 17);
        }
        if (!strcmp(mode, "not_open"))
            ebsp_move_chunk_down(&a, 1, 0);
        if (!strcmp(mode, "null"))
            ebsp_open_down_stream(NULL, 1);
        if (!strcmp(mode, "up_full")) {
            ebsp_open_up_stream(&a, 0);
            for (int k = 0; k < 5; k++)
                ebsp_move_chunk_up(&a, 0, 0);
        }
        if (!strcmp(mode, "strict"))
            ebsp_open_up_stream(&a, 9);
    }
    bsp_end();
    return 0;
}
