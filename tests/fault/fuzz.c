/* fuzz.c - the API fuzzer of the fault campaign: processor F (node F+1 on
 * mp.h), in superstep S, makes invalid call C with a value drawn from SEED.
 * Each must end the job with status 1 and one line naming the call, never a
 * signal inside the library.  C (see the table below):
 *   bsp: put_pid put_neg put_off put_unreg put_null get_pid get_neg get_off
 *        get_unreg hpput_pid hpget_off send_pid send_null pop_unreg
 *        push_neg tagsize_neg move_null
 *   mp:  send_node send_null recv_null from_node probe_node
 * Usage: fuzz bsp|mp F S C SEED */
// RUN: n=3 args="bsp 1 1 put_pid 5" fail="^superstep: bsp_put: processor 1, superstep 1: pid -?[0-9]+ out of range"
// RUN: n=2 args="mp 1 0 send_node 3" fail="^superstep: mp_send: node 2"
#include <bsp.h>
#include <mp.h>

#include "check.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static char reg[64], plain[64];

/* A value outside 0..n-1: negative or too large, of any magnitude. */
static int bad_pid(unsigned seed, int n)
{
    switch (seed % 4) {
    case 0: return n + (int)(seed % 100);
    case 1: return -1 - (int)(seed % 100);
    case 2: return INT_MAX;
    default: return INT_MIN;
    }
}

static int negative(unsigned seed)
{
    return seed % 2 ? -1 - (int)(seed % 1000) : INT_MIN;
}

static void bsp_call(const char *c, unsigned seed)
{
    int p = bsp_nprocs(), q = (bsp_pid() + 1) % p;
    int tag = negative(seed);
    if (!strcmp(c, "put_pid")) bsp_put(bad_pid(seed, p), plain, reg, 0, 4);
    else if (!strcmp(c, "put_neg")) bsp_put(q, plain, reg, 0, negative(seed));
    else if (!strcmp(c, "put_off")) bsp_put(q, plain, reg, 60 + (int)(seed % 1000), 8);
    else if (!strcmp(c, "put_unreg")) bsp_put(q, plain, plain, 0, 4);
    else if (!strcmp(c, "put_null")) bsp_put(q, NULL, reg, 0, 4);
    else if (!strcmp(c, "get_pid")) bsp_get(bad_pid(seed, p), reg, 0, plain, 4);
    else if (!strcmp(c, "get_neg")) bsp_get(q, reg, 0, plain, negative(seed));
    else if (!strcmp(c, "get_off")) bsp_get(q, reg, negative(seed), plain, 4);
    else if (!strcmp(c, "get_unreg")) bsp_get(q, plain, 0, plain, 4);
    else if (!strcmp(c, "hpput_pid")) bsp_hpput(bad_pid(seed, p), plain, reg, 0, 4);
    else if (!strcmp(c, "hpget_off")) bsp_hpget(q, reg, 61 + (int)(seed % 100), plain, 4);
    else if (!strcmp(c, "send_pid")) bsp_send(bad_pid(seed, p), NULL, plain, 4);
    else if (!strcmp(c, "send_null")) bsp_send(q, NULL, NULL, 1 + (int)(seed % 100));
    else if (!strcmp(c, "pop_unreg")) bsp_pop_reg(plain);
    else if (!strcmp(c, "push_neg")) bsp_push_reg(plain, negative(seed));
    else if (!strcmp(c, "tagsize_neg")) bsp_set_tagsize(&tag);
    else if (!strcmp(c, "move_null")) { bsp_send(bsp_pid(), NULL, plain, 8); bsp_sync(); bsp_move(NULL, 8); }
    else CHECK(0, "unknown call %s", c);
}

static void mp_call(const char *c, unsigned seed)
{
    int n = mp_npes(), tag;
    bool got;
    if (!strcmp(c, "send_node")) mp_send(seed % 2 ? n + 1 + (int)(seed % 50) : -(int)(seed % 50), 0, plain, 4);
    else if (!strcmp(c, "send_null")) mp_send(1, 0, NULL, 1 + seed % 100);
    else if (!strcmp(c, "recv_null")) { mp_send(mp_this_pe(), 0, plain, 4); mp_recv(4, NULL, &tag, NULL); }
    else if (!strcmp(c, "from_node")) mp_recv_from(n + 1 + (int)(seed % 9), 4, plain, &tag, 0.1, &got);
    else if (!strcmp(c, "probe_node")) mp_probe_node(-2 - (int)(seed % 9));
    else CHECK(0, "unknown call %s", c);
}

int main(int argc, char **argv)
{
    CHECK(argc == 6, "usage: fuzz bsp|mp F S C SEED");
    int f = atoi(argv[2]), s = atoi(argv[3]);
    unsigned seed = (unsigned)strtoul(argv[5], NULL, 10);
    if (!strcmp(argv[1], "mp")) {
        CHECK(mp_start(&argc, &argv), "mp_start");
        for (int step = 0; step <= s; step++) {
            if (mp_this_pe() == f + 1 && step == s)
                mp_call(argv[4], seed);
            mp_sync();
        }
        mp_quit(0);
        return 0;
    }
    bsp_begin(bsp_nprocs());
    bsp_push_reg(reg, sizeof reg);
    bsp_sync();
    for (int step = 1; step <= s + 1; step++) {
        if (bsp_pid() == f && step == s)
            bsp_call(argv[4], seed);
        bsp_sync();
    }
    bsp_end();
    return 0;
}
