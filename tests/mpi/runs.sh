# runs.sh - several bsp_begin ... bsp_end runs in one program under mpirun
# (tests/bsp/runs.c): each run's processors print once, main's lines
# between the runs once (only processor 0 runs main after the first run's
# bsp_end, as on shm), and the job ends with 0, no rank left waiting (the
# runner's time limit).  A C++ mcbsp::BSP_program begun twice
# (examples/cxx/hello_world.cpp) likewise.  Processor 0 failing between
# runs or in a later run stops the job with its line and its status; a
# later run without bsp_init (nothing for the other ranks to start) is an
# error line.
# RUN: n=4 args="two"
# RUN: n=4 args="three"
# RUN: n=4 args="again"
# RUN: n=3 args="cxx" timeout=180
# RUN: n=4 args="noinit"
# RUN: n=4 args="crash_between"
# RUN: n=4 args="crash_in"
# RUN: n=4 args="exit_between"
set -u
n=$SUPERSTEP_NPROCS
mode=$1
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
out=$dir/out err=$dir/err
fail() { echo "runs.sh $mode: $*" >&2; echo "-- stdout" >&2; cat "$out" >&2; echo "-- stderr" >&2; cat "$err" >&2; exit 1; }
once() { [ "$(grep -c -x -- "$1" "$out")" = 1 ] || fail "'$1' not printed exactly once"; }
# Run k's lines, once each.
expect_run() {
    for s in $(seq 0 $(($1 - 1))); do
        once "run $1 processor $s"
    done
}
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1
prog=$O/tests/bsp/runs
rc=0
case $mode in
cxx)
    command -v g++ >/dev/null || fail "g++ not installed"
    CXX="g++ -std=c++11" "$BINDIR/bspcxx" examples/cxx/hello_world.cpp -o "$dir/hello" || fail "the example does not build"
    $MPIRUN -n "$n" "$dir/hello" </dev/null >"$out" 2>"$err" || fail "exit status $?"
    for s in $(seq 0 $((n - 1))); do
        once "Hello world from processor $s of $n; my left neighbour's instance holds $(( (s + n - 1) % n ))"
    done
    once "In between two runs"
    once "Hello world from processor 0 of 2; my left neighbour's instance holds 1"
    once "Hello world from processor 1 of 2; my left neighbour's instance holds 0"
    [ "$(wc -l <"$out")" = $((n + 3)) ] || fail "unexpected lines"
    ;;
two | three | again)
    $MPIRUN -n "$n" "$prog" "$mode" </dev/null >"$out" 2>"$err" || fail "exit status $?"
    case $mode in
    two) runs="2 4" gaps=1 ;;
    three) runs="2 4 3" gaps=2 ;;
    again) runs="3 3 3" gaps=3 ;; # main prints after each run
    esac
    lines=$((gaps + 1)) # and the summary
    for p in $runs; do
        lines=$((lines + p))
    done
    if [ "$mode" = again ]; then
        for s in 0 1 2; do
            [ "$(grep -c -x "run 3 processor $s" "$out")" = 3 ] || fail "'run 3 processor $s' not printed 3 times"
        done
    else
        for p in $runs; do
            expect_run "$p"
        done
    fi
    [ "$(grep -c -x "between runs" "$out")" = "$gaps" ] || fail "'between runs' not printed $gaps times"
    once "runs: $runs done"
    [ "$(wc -l <"$out")" = "$lines" ] || fail "unexpected lines"
    [ ! -s "$err" ] || fail "unexpected stderr"
    ;;
noinit)
    $MPIRUN -n "$n" "$prog" noinit </dev/null >"$out" 2>"$err" && fail "exit status 0"
    expect_run 2
    [ "$(grep -c '^superstep: ' "$err")" = 1 ] || fail "not exactly one superstep: line"
    grep -qx "superstep: bsp_begin: a second run on the mpi device needs bsp_init(spmd, argc, argv) before it: processors 1..2 start spmd, as in MulticoreBSP (they cannot continue from processor 0's bsp_begin)" "$err" ||
        fail "no bsp_begin line"
    ;;
crash_between | crash_in | exit_between)
    $MPIRUN -n "$n" "$prog" "$mode" </dev/null >"$out" 2>"$err" || rc=$?
    expect_run 2
    once "between runs"
    case $mode in
    crash_between) want=139 line="superstep: processor 0 killed by signal 11 (SIGSEGV)" ;;
    crash_in) want=139 line="superstep: processor 0 killed by signal 11 (SIGSEGV) in superstep 1" ;;
    exit_between) want=3 line="" ;;
    esac
    [ "$rc" = "$want" ] || fail "exit status $rc, not $want"
    if [ -n "$line" ]; then
        [ "$(grep -c '^superstep: ' "$err")" = 1 ] || fail "not exactly one superstep: line"
        grep -qxF "$line" "$err" || fail "no line '$line'"
    else
        ! grep -q '^superstep: ' "$err" || fail "a superstep: line"
    fi
    ;;
*) fail "unknown mode" ;;
esac
exit 0
