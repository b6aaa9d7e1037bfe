# abort_rerun.sh - a bsp_abort in one run is printed once, as the only
# error line; the host gets 0 from ebsp_spmd, and its next run is clean.
# RUN: n=1
# RUN: n=4
# RUN: n=16 timeout=120
set -u
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
fail() { echo "abort_rerun.sh: $1" >&2; cat "$err" >&2; exit 1; }
out=$("$O/tests/ebsp/err_host" rerun 2>"$err") || fail "exit status $?"
[ "$out" = "second run ok" ] || fail "stdout: $out"
n=$(grep -c '^superstep:' "$err")
[ "$n" = 1 ] || fail "$n error lines, expected 1"
grep -Eq "^superstep: bsp_abort: processor $((SUPERSTEP_NPROCS - 1)), superstep 1: abort test 42$" "$err" ||
    fail "no abort line"
[ "$(wc -l <"$err")" = 1 ] || fail "more on stderr than the abort line"
