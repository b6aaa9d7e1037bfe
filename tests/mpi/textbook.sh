# textbook.sh - a textbook-structured program (tests/mpi/textbook.c: p read
# from stdin by processor 0 after bsp_init) under mpirun, bsprun --device
# mpi and on shm: the same lines, exit statuses and error lines, and no
# rank left waiting (the runner's time limit).
# Usage: textbook.sh MODE, with n the job's size:
#   stdin K   p = K read from stdin (K <= n; ranks K.. take no part)
#   args M N  p = M * N computed by processor 0 from its arguments
#   bsprun K  p = K from stdin, started by bsprun --device mpi -n n
#   shm K     the same program on shm (SUPERSTEP_NPROCS=n): same output
#   more      p = n + 1 from stdin: processor 0's own message, exit 1
#   zero      p = 0 from stdin: bsp_begin's error line once, exit 1
#   none      nothing on stdin: processor 0's own message, exit 2
# RUN: n=1 args="stdin 1"
# RUN: n=4 args="stdin 4"
# RUN: n=4 args="stdin 2"
# RUN: n=8 args="stdin 5"
# RUN: n=6 args="args 2 3"
# RUN: n=4 args="bsprun 3"
# RUN: n=4 args="shm 3"
# RUN: n=3 args="more"
# RUN: n=3 args="zero"
# RUN: n=3 args="none"
set -u
n=$SUPERSTEP_NPROCS
mode=$1
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
out=$(mktemp) && err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
prog=$O/tests/mpi/textbook
fail() { echo "textbook.sh $mode: $*" >&2; echo "-- stdout" >&2; cat "$out" >&2; echo "-- stderr" >&2; cat "$err" >&2; exit 1; }
# The lines of a run on p processors, in any order.
expect_run() {
    local p=$1 prompt=$2
    for s in $(seq 0 $((p - 1))); do
        [ "$(grep -c -x "processor $s of $p" "$out")" = 1 ] || fail "'processor $s of $p' not printed once"
    done
    [ "$(grep -c -x "sum $((p * (p - 1) / 2)) over $p" "$out")" = 1 ] || fail "no sum line"
    [ "$(grep -c -x "done" "$out")" = 1 ] || fail "'done' not printed once"
    [ "$(wc -l <"$out")" = $((p + 2 + prompt)) ] || fail "unexpected lines"
    [ ! -s "$err" ] || fail "unexpected stderr"
}
status=0
case $mode in
stdin)
    echo "$2" | $MPIRUN -n "$n" "$prog" >"$out" 2>"$err" || fail "exit status $?"
    expect_run "$2" 1 ;;
args)
    $MPIRUN -n "$n" "$prog" "$2" "$3" >"$out" 2>"$err" </dev/null || fail "exit status $?"
    expect_run $(($2 * $3)) 0 ;;
bsprun)
    echo "$2" | "$BINDIR/bsprun" --device mpi -n "$n" "$prog" >"$out" 2>"$err" || fail "exit status $?"
    expect_run "$2" 1 ;;
shm)
    echo "$2" | SUPERSTEP_DEVICE=shm "$prog" >"$out" 2>"$err" || fail "exit status $?"
    expect_run "$2" 1 ;;
more)
    echo $((n + 1)) | $MPIRUN -n "$n" "$prog" >"$out" 2>"$err" || status=$?
    [ "$status" = 1 ] || fail "exit status $status, not 1"
    grep -q -x "Sorry, only $n processors available." "$out" || fail "no message" ;;
zero)
    echo 0 | $MPIRUN -n "$n" "$prog" >"$out" 2>"$err" || status=$?
    [ "$status" = 1 ] || fail "exit status $status, not 1"
    [ "$(grep -c -x 'superstep: bsp_begin: 0 processors requested (must be 1..65535)' "$err")" = 1 ] ||
        fail "no error line" ;;
none)
    $MPIRUN -n "$n" "$prog" >"$out" 2>"$err" </dev/null || status=$?
    [ "$status" = 2 ] || fail "exit status $status, not 2"
    grep -q -x "textbook: no processor count on stdin" "$err" || fail "no message" ;;
*) fail "unknown mode" ;;
esac
exit 0
