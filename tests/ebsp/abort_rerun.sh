# abort_rerun.sh - a bsp_abort in one run is printed once; the host gets 0
# from ebsp_spmd, and its next run is clean.  As Epiphany BSP prints it by
# default: the message as the processor's line, then the host's
# "(BSP) ERROR: bsp_abort was called", nothing on stderr; with
# SUPERSTEP_STRICT=1, Superstep's abort line as the only error line.
# RUN: n=1
# RUN: n=4
# RUN: n=16 timeout=120
set -u
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
fail() { echo "abort_rerun.sh: $1" >&2; cat "$err" >&2; exit 1; }
last=$(printf '%02d' $((SUPERSTEP_NPROCS - 1)))
out=$("$O/tests/ebsp/err_host" rerun 2>"$err") || fail "exit status $?"
want=$(printf '$%s: abort test 42\n(BSP) ERROR: bsp_abort was called\nsecond run ok' "$last")
[ "$out" = "$want" ] || fail "stdout: $out"
[ ! -s "$err" ] || fail "something on stderr"
out=$(SUPERSTEP_STRICT=1 "$O/tests/ebsp/err_host" rerun 2>"$err") || fail "strict: exit status $?"
[ "$out" = "second run ok" ] || fail "strict: stdout: $out"
n=$(grep -c '^superstep:' "$err")
[ "$n" = 1 ] || fail "strict: $n error lines, expected 1"
grep -Eq "^superstep: bsp_abort: processor $((SUPERSTEP_NPROCS - 1)), superstep 1: abort test 42$" "$err" ||
    fail "strict: no abort line"
[ "$(wc -l <"$err")" = 1 ] || fail "strict: more on stderr than the abort line"
