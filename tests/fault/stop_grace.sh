# stop_grace.sh - SUPERSTEP_STOP_GRACE: when a job fails, the processors
# still computing have that long to come to a Superstep call, where they
# leave with their output flushed, before they are killed.  Processor 0
# aborts in superstep 1 while processor 1 computes (tests/fault/
# stop_grace.c), then prints "reached" and calls bsp_sync:
#   grace 10, computing 2 s: "reached" is out (it left through bsp_sync;
#     with the fixed 0.5 s before, it was killed and its output lost);
#   grace 0, computing 5 s: killed at once, "reached" never printed;
# both: the abort's one line, exit status 1.
# RUN: n=2 timeout=60 nompi="the grace is the shm device's monitor's (on mpi the launcher stops the ranks)"
set -u
P=$O/tests/fault/stop_grace
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "stop_grace.sh: $*; stderr: $(tr '\n' '|' <"$err")" >&2; exit 1; }
run() { # GRACE SECONDS
    local rc=0
    SUPERSTEP_STOP_GRACE=$1 "$P" "$2" >"$out" 2>"$err" || rc=$?
    [ "$rc" = 1 ] || fail "grace $1: exit status $rc, expected 1"
    [ "$(grep -c '^superstep:' "$err")" = 1 ] || fail "grace $1: not exactly one superstep: line"
    grep -Eq '^superstep: bsp_abort: processor 0, superstep 1: stop$' "$err" || fail "grace $1: no abort line"
}
run 10 2
grep -qx reached "$out" || fail "grace 10: processor 1's output is lost"
run 0 5
[ ! -s "$out" ] || fail "grace 0: processor 1 was not killed at once: $(cat "$out")"
exit 0
