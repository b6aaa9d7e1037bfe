/* err_null.c - NULL where data is needed (a source, destination, payload or
 * tag of nonzero size) is an error of the call.  Usage: err_null MODE;
 * processor 1 makes the bad call in superstep 1 (superstep 2 for the
 * receiving calls). */
// RUN: n=2 args="put-src" fail="^superstep: bsp_put: processor 1, superstep 1: .*NULL"
// RUN: n=2 args="put-dst" fail="^superstep: bsp_put: processor 1, superstep 1: .*(NULL|nil|not registered)"
// RUN: n=3 args="get-src" fail="^superstep: bsp_get: processor 1, superstep 1: .*(NULL|nil|not registered)"
// RUN: n=2 args="get-dst" fail="^superstep: bsp_get: processor 1, superstep 1: .*NULL"
// RUN: n=2 args="hpput-src" fail="^superstep: bsp_hpput: processor 1, superstep 1: .*NULL"
// RUN: n=2 args="hpget-dst" fail="^superstep: bsp_hpget: processor 1, superstep 1: .*NULL"
// RUN: n=2 args="send-payload" fail="^superstep: bsp_send: processor 1, superstep 1: .*NULL payload.*nbytes 8\b"
// RUN: n=4 args="send-tag" fail="^superstep: bsp_send: processor 1, superstep 1: .*NULL tag"
// RUN: n=2 args="move" fail="^superstep: bsp_move: processor 1, superstep 2: .*NULL"
// RUN: n=2 args="get_tag" fail="^superstep: bsp_get_tag: processor 1, superstep 2: .*NULL"
#include <bsp.h>
#include <string.h>

#include "check.h"

static int x[4], v[4];

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_null MODE");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    int s = bsp_pid();
    CHECK(bsp_nprocs() >= 2, "needs two processors");
    bsp_push_reg(x, sizeof x);
    int ts = strcmp(m, "send-tag") == 0 || strcmp(m, "get_tag") == 0 ? 4 : 0;
    bsp_set_tagsize(&ts);
    bsp_sync(); /* superstep 1 */

    int bad = s == 1;
    if (strcmp(m, "put-src") == 0 && bad)
        bsp_put(0, NULL, x, 0, 4);
    else if (strcmp(m, "put-dst") == 0 && bad)
        bsp_put(0, v, NULL, 0, 4);
    else if (strcmp(m, "get-src") == 0 && bad)
        bsp_get(0, NULL, 0, v, 4);
    else if (strcmp(m, "get-dst") == 0 && bad)
        bsp_get(0, x, 0, NULL, 4);
    else if (strcmp(m, "hpput-src") == 0 && bad)
        bsp_hpput(0, NULL, x, 0, 4);
    else if (strcmp(m, "hpget-dst") == 0 && bad)
        bsp_hpget(0, x, 0, NULL, 4);
    else if (strcmp(m, "send-payload") == 0 && bad)
        bsp_send(0, NULL, NULL, 8);
    else if (strcmp(m, "send-tag") == 0 && bad)
        bsp_send(0, NULL, v, 4); /* the tag size is 4 */
    else if (strcmp(m, "move") == 0 || strcmp(m, "get_tag") == 0) {
        bsp_send(1, v, v, 8);
        bsp_sync(); /* superstep 2 */
        if (bad && strcmp(m, "move") == 0)
            bsp_move(NULL, 8);
        if (bad && strcmp(m, "get_tag") == 0) {
            int status;
            bsp_get_tag(&status, NULL); /* the tag has 4 bytes */
        }
    }
    bsp_sync();
    bsp_end();
    return 0;
}
