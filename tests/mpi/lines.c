/* lines.c - output lines of different processors never mix inside a line
 * (tests/mpi/lines.sh runs it and checks).  Every processor prints records
 * "<s>:<len>:<len times one letter of its own>." to stdout and stderr:
 * one record per line, lines from 1 byte to beyond stdio's buffers, some
 * lines made of several printf calls, and a last record without a newline.
 * Usage: lines ROUNDS [LONGEST]: lines up to LONGEST bytes (of 1 to 200000) */
// RUN: n=1 cmd="$MPIRUN -n 1 $BIN 1 80 2>/dev/null" out="^0:80:a{80}\.$"
#include <bsp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const size_t lengths[] = { 1, 80, 700, 1700, 2000, 3000, 4000, 4200, 9000, 70000, 200000 };

/* One record, written by pieces of at most 'piece' bytes (several stdio
 * calls, the way a program builds a line). */
static void record(FILE *f, unsigned s, size_t len, size_t piece, char *fill)
{
    fprintf(f, "%u:%zu:", s, len);
    for (size_t done = 0; done < len; done += piece)
        fwrite(fill, 1, len - done < piece ? len - done : piece, f);
    fputc('.', f);
}

int main(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 3;
    size_t longest = argc > 2 ? (size_t)atol(argv[2]) : 200000;
    bsp_begin(bsp_nprocs());
    unsigned s = bsp_pid();
    size_t nlen = 0;
    while (nlen < sizeof lengths / sizeof lengths[0] && lengths[nlen] <= longest)
        nlen++;
    char *fill = malloc(lengths[nlen - 1]);
    if (!fill)
        bsp_abort("lines: out of memory");
    memset(fill, 'a' + (int)(s % 26), lengths[nlen - 1]);
    for (int r = 0; r < rounds; r++)
        for (size_t i = 0; i < nlen; i++) {
            FILE *f = (i + (size_t)r) % 3 == 2 ? stderr : stdout;
            record(f, s, lengths[(i + s) % nlen], i % 2 ? 1000 : lengths[nlen - 1], fill);
            fputc('\n', f);
        }
    bsp_sync();
    record(stdout, s, lengths[nlen - 1], lengths[nlen - 1], fill); /* no newline: printed at exit */
    record(stderr, s, 3, 3, fill);
    free(fill);
    bsp_end();
    return 0;
}
