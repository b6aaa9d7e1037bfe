# mp_once.sh - mp.h nodes that fail together under mpirun print one line
# for the job, as on shm, and the job ends (the runner's time limit).
# tests/mp/errors.c "sync_ended": node 2 quits, nodes 1 and 3 both find it
# gone in mp_sync and fail at the same moment, while node 2 exits (it used to
# wait in MPI_Finalize there, and Open MPI's mpirun then sometimes crashed
# or hung).  Usage: mp_once.sh ROUNDS
# RUN: n=3 args="5"
set -u
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
for round in $(seq "$1"); do
    status=0
    $MPIRUN -n 3 "$O/tests/mp/errors" sync_ended </dev/null >/dev/null 2>"$err" || status=$?
    [ "$status" != 0 ] || { echo "mp_once.sh: round $round: exit status 0" >&2; exit 1; }
    lines=$(grep -c '^superstep: ' "$err")
    [ "$lines" = 1 ] || { echo "mp_once.sh: round $round: $lines error lines, not 1:" >&2; cat "$err" >&2; exit 1; }
    grep -qE '^superstep: mp_sync: node [13]: node 2 has already ended \(mp_quit\)' "$err" ||
        { echo "mp_once.sh: round $round: not the expected line:" >&2; cat "$err" >&2; exit 1; }
done
exit 0
