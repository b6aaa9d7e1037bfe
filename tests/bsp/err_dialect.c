/* err_dialect.c - bad pointer arguments of the calls whose types follow the
 * caller's dialect, and the collective checks of bsp_set_tagsize and
 * bsp_pop_reg(NULL).  Usage: err_dialect CASE; processor 1 makes the bad
 * call where only one does. */
// RUN: n=2 args="qsize-null-n" fail="^superstep: bsp_qsize: processor 1, superstep 0: NULL nmessages pointer"
// RUN: n=2 args="qsize-null-bytes-int" fail="^superstep: bsp_qsize: processor 1, superstep 0: NULL accum_nbytes pointer"
// RUN: n=2 args="qsize-short" fail="^superstep: bsp_qsize: processor 1, superstep 0: nmessages points to an integer of another type"
// RUN: n=2 args="tagsize-short" fail="^superstep: bsp_set_tagsize: processor 1, superstep 0: size points to an integer of another type"
// RUN: n=2 args="get_tag-null" fail="^superstep: bsp_get_tag: processor 1, superstep 0: NULL status pointer"
// RUN: n=3 args="tagsize-some" fail="^superstep: bsp_sync: processor 0, superstep 0: bsp_set_tagsize calls differ: processor 0 called it 0 times, processor 1 1 times"
// RUN: n=3 args="pop-null-all" fail="^superstep: bsp_pop_reg: processor 0, superstep 0: address \(nil\) is not registered"
// RUN: n=3 args="pop-null-some" fail="^superstep: bsp_sync: processor 0, superstep 0: registrations differ: processor 0 pushed 0, processor 1 pushed 1"
// RUN: n=2 args="move-negative" fail="^superstep: bsp_move: processor 1, superstep 1: negative reception_nbytes -1"
#include <bsp.h>
#include <string.h>

#include "check.h"

int main(int argc, char **argv)
{
    CHECK(argc == 2, "usage: err_dialect CASE");
    const char *m = argv[1];
    bsp_begin(bsp_nprocs());
    int bad = bsp_pid() == 1;
    int n = 0, bytes = 0;
    size_t ubytes = 0;
    short sh = 0;
    if (!strcmp(m, "qsize-null-n") && bad)
        bsp_qsize(NULL, &ubytes);
    if (!strcmp(m, "qsize-null-bytes-int") && bad)
        bsp_qsize(&n, NULL);
    if (!strcmp(m, "qsize-short") && bad)
        bsp_qsize(&sh, &bytes);
    if (!strcmp(m, "tagsize-short") && bad)
        bsp_set_tagsize(&sh);
    if (!strcmp(m, "get_tag-null") && bad)
        bsp_get_tag((int *)NULL, NULL);
    if (!strcmp(m, "tagsize-some") && bsp_pid() != 0) {
        size_t t = 0; /* the size in force: only the count of calls differs */
        bsp_set_tagsize(&t);
    }
    if (!strcmp(m, "pop-null-all"))
        bsp_pop_reg(NULL);
    if (!strcmp(m, "pop-null-some")) {
        if (bsp_pid() != 0)
            bsp_push_reg(NULL, 0);
        bsp_pop_reg(NULL); /* cancels the push where there is one */
    }
    bsp_send(bsp_pid(), NULL, &n, sizeof n);
    bsp_sync();
    if (!strcmp(m, "move-negative") && bad)
        bsp_move(&n, -1);
    bsp_sync();
    bsp_end();
    return 0;
}
