/* dialect_1998.c - MCBSP_COMPATIBILITY_MODE forces the 1998 types exactly:
 * bsp_pid_t, bsp_nprocs_t and bsp_size_t are int, and the calls have the
 * standard's int prototypes (so a pointer to int is the only kind
 * bsp_qsize accepts, and -1 means "none"). */
// RUN: n=2
#define MCBSP_COMPATIBILITY_MODE
#include <bsp.h>

#include "check.h"

/* Compile-time: the typedefs are int (an array of negative size otherwise). */
typedef char pid_is_int[sizeof(bsp_pid_t) == sizeof(int) && (bsp_pid_t)-1 < 0 ? 1 : -1];
typedef char size_is_int[sizeof(bsp_size_t) == sizeof(int) && (bsp_size_t)-1 < 0 ? 1 : -1];

int main(void)
{
    pid_is_int a;
    size_is_int b;
    (void)a, (void)b;
    bsp_begin(bsp_nprocs());
    bsp_pid_t s = bsp_pid();
    bsp_nprocs_t p = bsp_nprocs();
    bsp_send((s + 1) % p, NULL, &s, (bsp_size_t)sizeof s);
    bsp_sync();
    bsp_nprocs_t n;
    bsp_size_t bytes, status;
    bsp_qsize(&n, &bytes);
    CHECK(n == 1 && bytes == (int)sizeof s, "qsize %d %d", n, bytes);
    bsp_move(&s, (int)sizeof s);
    bsp_get_tag(&status, NULL);
    CHECK(status == -1, "status %d", status);
    bsp_end();
    return 0;
}
