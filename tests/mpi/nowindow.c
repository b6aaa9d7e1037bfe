/* nowindow.c - puts, gets, bsp_hpput and messages across all processors,
 * each checked; processor 0 prints "nowindow ok P".  nowindow.sh runs it
 * where the MPI cannot make one-sided windows.
 * Usage: nowindow [N]   (N ints per put, default 100000: beyond one slice) */
// NORUN: run by nowindow.sh
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

static void check(int ok, const char *what, int at)
{
    if (!ok)
        bsp_abort("nowindow: %s wrong at %d on processor %d\n", what, at, bsp_pid());
}

int main(int argc, char **argv)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid(), n = argc > 1 ? atoi(argv[1]) : 100000;
    int right = (s + 1) % p, left = (s + p - 1) % p;
    int *mine = malloc(n * sizeof *mine), *put = calloc(n, sizeof *put), *got = calloc(n, sizeof *got);
    int hp[4] = { 0 };
    if (!mine || !put || !got)
        bsp_abort("nowindow: out of memory\n");
    for (int i = 0; i < n; i++)
        mine[i] = s * 1000003 + i;
    bsp_push_reg(mine, n * (int)sizeof *mine);
    bsp_push_reg(put, n * (int)sizeof *put);
    bsp_push_reg(hp, (int)sizeof hp);
    bsp_sync();
    bsp_put(right, mine, put, 0, n * (int)sizeof *mine);
    bsp_get(left, mine, 0, got, n * (int)sizeof *got);
    int word = s + 7;
    bsp_hpput(right, &word, hp, s % 4 * (int)sizeof word, sizeof word);
    bsp_send(right, NULL, &word, sizeof word);
    bsp_sync();
    for (int i = 0; i < n; i++) {
        check(put[i] == left * 1000003 + i, "bsp_put", i);
        check(got[i] == left * 1000003 + i, "bsp_get", i);
    }
    check(hp[left % 4] == left + 7, "bsp_hpput", left % 4);
    int msgs = 0, bytes = 0, m = 0;
    bsp_qsize(&msgs, &bytes);
    check(msgs == 1 && bytes == sizeof m, "bsp_qsize", msgs);
    bsp_move(&m, sizeof m);
    check(m == left + 7, "bsp_move", 0);
    if (s == 0)
        printf("nowindow ok %d\n", p);
    bsp_end();
    return 0;
}
