# oxford.sh - an Oxford BSP toolset program builds with plain bspcc and
# runs: its bsp.h made <stdio.h> visible (stdout used without including
# it), and bspcc links the level-1 library (bsp_level1.h) with the rest.
# Every level-1 collective against what it must give, with a typed op as
# the toolset's programs pass one, under each SUPERSTEP_COLL_ALG.
# RUN: n=1 timeout=120
# RUN: n=3 timeout=120
# RUN: n=4 timeout=120
set -u
fail() { echo "oxford.sh: $*" >&2; exit 1; }
t=$(mktemp -d) || exit 1
trap 'rm -rf "$t"' EXIT
cat >"$t/ox.c" <<'PROG'
#include "bsp.h"
#include "bsp_level1.h"

#define CHECK(c) do { if (!(c)) { fprintf(stdout, "FAIL %d: %s\n", bsp_pid(), #c); fflush(stdout); bsp_abort("check"); } } while (0)

/* Not commutative: the first of the two that is not zero, else the second. */
static void first(int *res, int *left, int *right, int *nbytes)
{
    (void)nbytes;
    *res = *left ? *left : *right;
}

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid(), i;
    static int box[64], piece, got[64];
    bsp_push_reg(box, sizeof box);
    bsp_push_reg(got, sizeof got);
    bsp_sync();
    CHECK(bsp_sumI(s + 1) == p * (p + 1) / 2);
    CHECK(bsp_sumI_prefix(s + 1) == (s + 1) * (s + 2) / 2);
    CHECK(bsp_maxD(s * 1.5) == (p - 1) * 1.5 && bsp_minR((float)s) == 0.0f);
    CHECK(bsp_productI(2) == 1 << p && bsp_maxI_prefix(p - s) == p);
    CHECK(bsp_all(1) && !bsp_all(s != 0) && bsp_any(s == p - 1) && !bsp_any(0));
    CHECK(bsp_constantI(7) && (p == 1 || !bsp_constantI(s)));
    CHECK(bsp_sortI(100 - s) == 100 - p + 1 + s);
    int x = s ? 0 : 42, y = -1;
    bsp_fold(first, &x, &y, sizeof x);
    CHECK(y == 42);
    x = s + 5;
    bsp_scan(first, &x, &y, sizeof x);
    CHECK(y == 5);
    int big[40];
    for (i = 0; i < 40; i++)
        big[i] = s == p - 1 ? i * 3 : -1;
    bsp_bcast(p - 1, big, box, sizeof big);
    for (i = 0; i < 40; i++)
        CHECK(box[i] == i * 3);
    piece = s * 11;
    bsp_gather(0, &piece, got, sizeof piece);
    for (i = 0; s == 0 && i < p; i++)
        CHECK(got[i] == i * 11);
    bsp_scatter(0, got, &x, sizeof x);
    CHECK(x == s * 11);
    CHECK(bsp_s() > 0 && bsp_l() >= 0 && bsp_g() >= 0 && bsp_nhalf() >= 1);
    if (s == 0)
        fprintf(stdout, "oxford ok on %d\n", p);
    bsp_end();
    return 0;
}
PROG
"$BINDIR/bspcc" -Wall -Wextra -Werror "$t/ox.c" -o "$t/ox" 2>"$t/err" || fail "bspcc: $(cat "$t/err")"
for alg in auto 1phase 2phase tree; do
    SUPERSTEP_COLL_ALG=$alg "$t/ox" >"$t/out" 2>"$t/err" || fail "$alg: status $? $(cat "$t/out" "$t/err")"
    grep -qx "oxford ok on $SUPERSTEP_NPROCS" "$t/out" || fail "$alg: $(cat "$t/out")"
done
exit 0
