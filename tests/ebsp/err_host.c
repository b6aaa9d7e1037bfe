/* err_host.c - bad input on the host and in kernels.  Usage: err_host MODE.
 * A mode starting with "h_" is a host error (the program ends with status 1
 * at once); any other mode is sent to err_kernel, whose run must fail
 * (ebsp_spmd returns 0; this program then exits with status 1).  Mode
 * "rerun": a kernel aborts in the first run, the second run is clean. */
// RUN: n=1 args="h_send_early" fail="^superstep: ebsp_send_down: host: called before bsp_init and bsp_begin$"
// RUN: n=1 args="h_send_init" fail="^superstep: ebsp_send_down: host: called before bsp_begin$"
// RUN: n=1 args="h_spmd_early" fail="^superstep: ebsp_spmd: host: called before bsp_begin$"
// RUN: n=1 args="h_begin_early" fail="^superstep: bsp_begin: host: called before bsp_init$"
// RUN: n=2 args="h_begin_twice" fail="^superstep: bsp_begin: host: called twice \(a session on 2 processors"
// RUN: n=2 args="h_begin_zero" fail="^superstep: bsp_begin: host: 0 processors requested"
// RUN: n=1 args="h_end_early" fail="^superstep: bsp_end: host: called before bsp_init$"
// RUN: n=4 args="h_send_pid" fail="^superstep: ebsp_send_down: host: pid 4 out of range \(nprocs 4\)$"
// RUN: n=2 args="h_send_neg" fail="^superstep: ebsp_send_down: host: negative nbytes -1$"
// RUN: n=2 args="h_send_null" fail="^superstep: ebsp_send_down: host: NULL payload with nbytes 4$"
// RUN: n=2 args="h_send_notag" fail="^superstep: ebsp_send_down: host: NULL tag with tag size 4$"
// RUN: n=2 args="h_tagsize_late" fail="^superstep: ebsp_set_tagsize: host: tag size 8 set after 1 messages were sent down with tag size 0$"
// RUN: n=2 args="h_write_bounds" fail="^superstep: ebsp_write: host: offset 65532 \+ size 8 exceeds the 65536 bytes of local memory of processor 1" env="SUPERSTEP_LOCAL_MEMORY=64K"
// RUN: n=2 args="h_read_pid" fail="^superstep: ebsp_read: host: pid -1 out of range \(nprocs 2\)$"
// RUN: n=2 args="h_write_neg" fail="^superstep: ebsp_write: host: negative offset -8$"
// RUN: n=2 args="h_move_empty" fail="^superstep: ebsp_move: host: the message queue is empty$"
// RUN: n=2 args="h_stream_token" fail="^superstep: bsp_stream_create: host: token size 0 \(must be positive\)$"
// RUN: n=2 args="h_stream_early" fail="^superstep: bsp_stream_create: host: called before bsp_begin$"
// RUN: n=2 args="h_nokernel" fail="^superstep: ebsp_spmd: host: cannot find kernel \"no_such_kernel\": tried /.*/tests/ebsp/no_such_kernel and /.*/no_such_kernel$"
// RUN: n=2 args="h_notexec" fail="^superstep: ebsp_spmd: host: cannot start kernel /.*/err_host.c: not executable"
// RUN: n=2 args="h_notprogram" fail="^superstep: ebsp_spmd: host: cannot start kernel /.*: not a program for this machine"
// RUN: n=2 args="h_notkernel" fail="^superstep: processor [01] exited with status 0 in superstep 0 without calling bsp_end$" nompi="a spawned program that never starts MPI cannot be noticed: ebsp_spmd refuses it (tests/mpi/ehost.sh)"
// RUN: n=3 args="h_bspkernel" out="^bspkernel ok$"
// RUN: n=2 args="h_callback" fail="^superstep: ebsp_send_down: host: called while the kernels run"
// RUN: n=3 args="put_pid" fail="^superstep: bsp_put: processor 2, superstep 1: pid 3 out of range \(nprocs 3\)$"
// RUN: n=2 args="hpput_unreg" fail="^superstep: bsp_hpput: processor 0, superstep 1: address 0x[0-9a-f]+ is not registered$" env="SUPERSTEP_STRICT=1"
// RUN: n=2 args="hpput_null" fail="^superstep: bsp_hpput: processor [01], superstep 1: NULL registered address$"
// RUN: n=2 args="hpget_bounds" fail="^superstep: bsp_hpget: processor 0, superstep 1: offset 60 \+ nbytes 8 exceeds the 64 bytes registered on processor 1$" env="SUPERSTEP_STRICT=1"
// RUN: n=2 args="hpput_pid" fail="^superstep: bsp_hpput: processor 0, superstep 1: pid -1 out of range \(nprocs 2\)$"
// RUN: n=4 args="direct_pid" fail="^superstep: ebsp_get_direct_address: processor 0, superstep 1: pid 4 out of range \(nprocs 4\)$"
// RUN: n=1 args="direct_null" fail="^superstep: ebsp_get_direct_address: processor 0, superstep 1: NULL variable$"
// RUN: n=2 args="stream_id" fail="^superstep: bsp_stream_open: processor 0, superstep 1: stream id 5 does not exist \(1 streams were created\)$" env="SUPERSTEP_STRICT=1"
// RUN: n=2 args="stream_neg" fail="^superstep: bsp_stream_open: processor 0, superstep 1: stream id -1 does not exist" env="SUPERSTEP_STRICT=1"
// RUN: n=1 args="stream_twice" fail="^superstep: bsp_stream_open: processor 0, superstep 1: stream 0 is open on this processor already$" env="SUPERSTEP_STRICT=1"
// RUN: n=3 args="stream_busy" fail="^superstep: bsp_stream_open: processor 2, superstep 2: stream 0 is open on processor 0 " env="SUPERSTEP_STRICT=1" nompi="which processor has a stream open is not shared between kernels on mpi"
// RUN: n=2 args="token_big" fail="^superstep: bsp_stream_move_up: processor 0, superstep 1: token of 100 bytes is larger than stream 0's token size 16$"
// RUN: n=2 args="stream_full" fail="^superstep: bsp_stream_move_up: processor 0, superstep 1: token of 16 bytes at byte 96 does not fit in stream 0 \(104 bytes with headers\)$"
// RUN: n=2 args="stream_closed" fail="^superstep: bsp_stream_move_down: processor 0, superstep 1: stream handle 0x[0-9a-f]+ is not open"
// RUN: n=2 args="sync_after_up" fail="^superstep: bsp_sync: processor 0, superstep 1: called after ebsp_send_up"
// RUN: n=2 args="send_after_up" fail="^superstep: bsp_send: processor 0, superstep 1: called after ebsp_send_up"
// RUN: n=2 args="up_neg" fail="^superstep: ebsp_send_up: processor 0, superstep 1: negative nbytes -4$"
// RUN: n=2 args="free_bad" fail="^superstep: ebsp_free: processor 0, superstep 1: pointer 0x[0-9a-f]+ was not returned by ebsp_malloc or ebsp_ext_malloc"
// RUN: n=2 args="free_twice" fail="^superstep: ebsp_free: processor 0, superstep 1: pointer 0x[0-9a-f]+ was not returned by ebsp_malloc or ebsp_ext_malloc, or was freed already$"
// RUN: n=1 args="free_null" fail="^superstep: ebsp_free: processor 0, superstep 1: NULL pointer$"
// RUN: n=3 args="hsync_mismatch" fail="^superstep: ebsp_host_sync: processor 0, superstep 1: called ebsp_host_sync while processor 1 called bsp_sync"
// RUN: n=2 args="begin_twice" fail="^superstep: bsp_begin: processor 0, superstep 1: called twice$"
// RUN: n=2 args="dma_null" fail="^superstep: ebsp_dma_push: processor 0, superstep 1: NULL handle$"
// RUN: n=4 args="abort" fail="^superstep: bsp_abort: processor 3, superstep 1: abort test 42$" env="SUPERSTEP_STRICT=1"
// RUN: n=2 args="hpput_unreg" out="^[$]00: BSP ERROR: could not find bsp var 0x[0-9a-f]+$"
// RUN: n=2 args="put_unreg" out="^[$]01: BSP ERROR: could not find bsp var 0x[0-9a-f]+$"
// RUN: n=2 args="get_unreg" out="^[$]00: BSP ERROR: could not find bsp var 0x[0-9a-f]+$"
// RUN: n=2 args="put_unreg" env="SUPERSTEP_STRICT=1" fail="^superstep: bsp_put: processor 1, superstep 1: address 0x[0-9a-f]+ is not registered$"
// RUN: n=2 args="stream_id" out="^[$]00: BSP ERROR: stream with id 5 does not exist$"
// RUN: n=2 args="stream_neg" out="^[$]00: BSP ERROR: stream with id -1 does not exist$"
// RUN: n=1 args="stream_twice" out="^[$]00: BSP ERROR: stream with id 0 is in use$"
// RUN: n=3 args="stream_busy" out="^[$]02: BSP ERROR: stream with id 0 is in use$" nompi="which processor has a stream open is not shared between kernels on mpi"
// RUN: n=4 args="reg_order" out="^[$]03: registrations by order ok$"
// RUN: n=4 args="reg_order" env="SUPERSTEP_STRICT=1" fail="^superstep: bsp_sync: processor 0, superstep 1: registrations differ: processor 0 pushed 2, processor 1 pushed 1$"
// RUN: n=4 args="abort_up" out="^[$]03: abort test 42$"
// RUN: n=2 args="abort_nl" fail="^superstep: bsp_abort: processor 1, superstep 1: bad value 3\\\\nsecond line$" env="SUPERSTEP_STRICT=1"
// RUN: n=2 args="abort_nl_up" out="^[$]01: bad value 3\\\\nsecond line$"
// RUN: n=2 args="h_nokernel_nl" fail="^superstep: ebsp_spmd: host: cannot find kernel \"no_such\\\\nkernel\": tried"
// RUN: n=3 args="crash" fail="^superstep: processor 0 killed by signal 11 \(SIGSEGV\) in superstep 1$"
// RUN: n=3 args="exit" fail="^superstep: processor 0 exited with status 5 in superstep 1 without calling bsp_end$" nompi="_exit runs no code of the runtime: mpirun stops the job with its status"
// RUN: n=4 args="rerun" out="^second run ok$"
// RUN: n=2 args="abort_stuck" out="^[$]01: abort test 42$" nompi="a kernel computing on is ended with the job after SUPERSTEP_ABORT_TIMEOUT: tests/mpi/ehost.sh stuck"
#include <host_bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

#define IS(m) (strcmp(mode, m) == 0)

static void on_sync(void)
{
    int v = 1;
    ebsp_send_down(0, NULL, &v, sizeof v);
}

static char junk[] = "/tmp/superstep-junk-XXXXXX";

static void remove_junk(void)
{
    unlink(junk);
}

/* An executable file that is no program. */
static const char *make_junk(void)
{
    int fd = mkstemp(junk);
    CHECK(fd >= 0, "mkstemp");
    atexit(remove_junk);
    CHECK(write(fd, "junk junk junk junk junk\n", 25) == 25, "write");
    close(fd);
    chmod(junk, 0755);
    return junk;
}

static int run(const char *mode)
{
    for (int q = 0; q < bsp_nprocs(); q++)
        ebsp_send_down(q, NULL, mode, (int)strlen(mode) + 1);
    return ebsp_spmd();
}

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_host MODE");
    const char *mode = argv[1];
    int v = 0, p = bsp_nprocs();
    char buf[8];
    if (IS("h_send_early"))
        ebsp_send_down(0, NULL, &v, sizeof v);
    if (IS("h_begin_early"))
        bsp_begin(p);
    if (IS("h_end_early"))
        bsp_end();
    const char *kernel = IS("h_nokernel") ? "no_such_kernel" : IS("h_nokernel_nl") ? "no_such\nkernel" : IS("h_notexec") ? __FILE__
                         : IS("h_notprogram") ? make_junk() : IS("h_notkernel") ? "/bin/true"
                         : IS("h_bspkernel") ? "../../examples/hello" : "err_kernel";
    bsp_init(kernel, IS("h_bspkernel") ? 1 : argc, argv);
    if (IS("h_send_init"))
        ebsp_send_down(0, NULL, &v, sizeof v);
    if (IS("h_spmd_early"))
        ebsp_spmd();
    if (IS("h_stream_early"))
        bsp_stream_create(64, 16, NULL);
    bsp_begin(IS("h_begin_zero") ? 0 : p);
    if (IS("h_begin_twice"))
        bsp_begin(p);
    if (IS("h_send_pid"))
        ebsp_send_down(p, NULL, &v, sizeof v);
    if (IS("h_send_neg"))
        ebsp_send_down(0, NULL, &v, -1);
    if (IS("h_send_null"))
        ebsp_send_down(0, NULL, NULL, 4);
    if (IS("h_send_notag")) {
        int t = 4;
        ebsp_set_tagsize(&t);
        ebsp_send_down(0, NULL, &v, sizeof v);
    }
    if (IS("h_tagsize_late")) {
        ebsp_send_down(0, NULL, &v, sizeof v);
        int t = 8;
        ebsp_set_tagsize(&t);
    }
    if (IS("h_write_bounds"))
        ebsp_write(1, buf, 65532, 8);
    if (IS("h_read_pid"))
        ebsp_read(-1, 0, buf, 4);
    if (IS("h_write_neg"))
        ebsp_write(0, buf, -8, 4);
    if (IS("h_move_empty"))
        ebsp_move(buf, sizeof buf);
    if (IS("h_stream_token"))
        bsp_stream_create(64, 0, NULL);
    if (IS("h_callback"))
        ebsp_set_sync_callback(on_sync);
    bsp_stream_create(64, 16, NULL); /* stream 0 for the kernels */
    if (IS("abort_up")) /* upstream's form of a kernel's bsp_abort: the run fails */
        return run("abort") == 0 ? 0 : 1;
    if (IS("abort_stuck")) /* the run fails; kernel 0 never sees it (shm: it is killed) */
        return run("abort_stuck") == 0 ? 0 : 1;
    if (IS("abort_hoststop")) { /* tests/mpi/ehost.sh hoststop stops this process (DIR/host) */
        const char *dir = getenv("ERR_HOSTSTOP_DIR");
        CHECK(dir, "ERR_HOSTSTOP_DIR is not set");
        char path[512];
        snprintf(path, sizeof path, "%s/host", dir);
        FILE *f = fopen(path, "w");
        CHECK(f, "cannot create %s", path);
        fprintf(f, "%d\n", (int)getpid());
        fclose(f);
    }
    if (IS("abort_nl_up")) /* a message over two lines stays one line */
        return run("abort_nl") == 0 ? 0 : 1;
    if (IS("rerun")) {
        CHECK(run("abort") == 0, "the aborted run succeeded");
        CHECK(run("ok") == 1, "the second run failed");
        int n, bytes;
        ebsp_qsize(&n, &bytes);
        CHECK(n == p, "%d messages after the second run", n);
        printf("second run ok\n");
        bsp_end();
        return 0;
    }
    if (IS("h_bspkernel")) { /* a BSPlib program as kernel: runs, and the run ends */
        CHECK(ebsp_spmd() == 1, "BSPlib kernel failed");
        printf("bspkernel ok\n");
        return 0;
    }
    if (!strncmp(mode, "h_", 2) && strcmp(mode, "h_notkernel") && strcmp(mode, "h_callback")) {
        if (!IS("h_nokernel") && !IS("h_nokernel_nl") && !IS("h_notexec") && !IS("h_notprogram"))
            return 0; /* the host error should have ended the program */
        run("ok");
        return 0;
    }
    if (IS("h_callback"))
        return run("hsync") == 1 ? 0 : 1;
    return run(mode) == 1 ? 0 : 1;
}
