/* textbook.c - the structure of the classic BSP teaching programs: main
 * calls bsp_init(spmd, argc, argv), processor 0 reads p from stdin (or
 * computes it from its arguments, p = M * N), and spmd calls bsp_begin(p).
 * On mpi the other ranks enter spmd straight from bsp_init without p:
 * bsp_begin takes it from processor 0.  textbook.sh runs it on both
 * devices and checks the output and exit status.
 * Usage: textbook [M N]     (without arguments p is read from stdin) */
// RUN: n=1 cmd="echo 1 | $BIN" out="^sum 0 over 1$"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>

static int P; /* set by processor 0 only (on mpi) */

static void spmd(void)
{
    bsp_begin(P);
    int p = bsp_nprocs(), s = bsp_pid();
    int *got = calloc((size_t)p, sizeof *got);
    bsp_push_reg(got, p * (int)sizeof *got);
    bsp_sync();
    bsp_put(0, &s, got, s * (int)sizeof s, sizeof s);
    bsp_sync();
    printf("processor %d of %d\n", s, p);
    if (s == 0) {
        int sum = 0;
        for (int t = 0; t < p; t++)
            sum += got[t];
        printf("sum %d over %d\n", sum, p);
    }
    bsp_pop_reg(got);
    bsp_end();
    free(got);
}

int main(int argc, char **argv)
{
    bsp_init(spmd, argc, argv);
    if (argc == 3) {
        P = atoi(argv[1]) * atoi(argv[2]);
    } else {
        printf("How many processors do you want to use?\n");
        fflush(stdout);
        if (scanf("%d", &P) != 1) {
            fprintf(stderr, "textbook: no processor count on stdin\n");
            exit(2);
        }
    }
    if (P > bsp_nprocs()) {
        printf("Sorry, only %d processors available.\n", (int)bsp_nprocs());
        exit(1);
    }
    spmd();
    printf("done\n");
    return 0;
}
