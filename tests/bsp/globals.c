/* globals.c - every processor is its own process: globals, static arrays and
 * heap memory are private to it, and the processes are distinct. */
// RUN: n=1
// RUN: n=2
// RUN: n=4
// RUN: n=8
#include <bsp.h>
#include <stdlib.h>
#include <unistd.h>

#include "check.h"

static int g = -1;
static int table[4096];
static pid_t os_pid[64];

int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), p = bsp_nprocs();
    CHECK(p <= 64, "test written for at most 64 processors");

    /* Everyone writes the same globals; nobody sees the others' writes. */
    g = s;
    for (int i = 0; i < 4096; i++)
        table[i] = s * 4096 + i;
    int *heap = malloc(1000 * sizeof *heap);
    for (int i = 0; i < 1000; i++)
        heap[i] = -s - i;
    bsp_push_reg(os_pid, sizeof os_pid);
    bsp_sync();
    CHECK(g == s, "processor %d sees g = %d", s, g);
    for (int i = 0; i < 4096; i++)
        CHECK(table[i] == s * 4096 + i, "processor %d: table[%d] = %d", s, i, table[i]);
    for (int i = 0; i < 1000; i++)
        CHECK(heap[i] == -s - i, "processor %d: heap[%d] = %d", s, i, heap[i]);

    /* The OS process ids are all different. */
    pid_t me = getpid();
    bsp_put(0, &me, os_pid, s * sizeof me, sizeof me);
    bsp_sync();
    if (s == 0)
        for (int a = 0; a < p; a++)
            for (int b = a + 1; b < p; b++)
                CHECK(os_pid[a] != os_pid[b], "processors %d and %d share process %d",
                      a, b, (int)os_pid[a]);
    CHECK(g == s, "processor %d sees g = %d after a sync", s, g);
    bsp_pop_reg(os_pid);
    bsp_sync();
    free(heap);
    bsp_end();
    return 0;
}
