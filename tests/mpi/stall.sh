# stall.sh - SUPERSTEP_STALL_TIMEOUT on the mpi device: ranks waiting in
# bsp_sync or bsp_end for one still computing stop the job with one line
# naming it, its superstep, the time and the setting, exit status 1, in
# about the setting's time (tests/fault/stall.c, as on shm).  A processor
# slower than the limit is no error.  "rank0": only rank 0's environment
# has the setting; the ranks agree to send their counts point to point
# all the same, so rank 0 names the late processor alone (it named every
# peer before: the others never answered its question).  "mp": mp.h's
# tests/mp/stall instead (its argument LATE), where only node 1 has the
# setting: node 2, blocked in a receive, tells it so, and node 1 names
# node 3 alone.
# "stopped": tests/fault/stopped self, where processor 1 stops itself
# (SIGSTOP): the line calls it stopped by a signal, as on shm (the ranks
# learn at bsp_begin the pids whose /proc they can read: "still
# computing" before).
# Usage: stall.sh [rank0] ARGS... (stall's arguments: CALL LATE...)
#        stall.sh mp LATE
#        stall.sh stopped
# RUN: n=3 args="sync 1"
# RUN: n=3 args="sync 0"
# RUN: n=4 args="end 2 3"
# RUN: n=2 args="spin 1"
# RUN: n=2 args="slow 1"
# RUN: n=3 args="rank0 sync 1"
# RUN: n=3 args="rank0 slow 2"
# RUN: n=3 args="mp -1"
# RUN: n=3 args="mp -2"
# RUN: n=3 args="stopped"
# RUN: n=4 args="stopped"
set -u
p=$SUPERSTEP_NPROCS
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
out=$(mktemp) && err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
args="$*"
fail() { echo "stall.sh $args: $why" >&2; echo "-- stdout" >&2; cat "$out" >&2; echo "-- stderr" >&2; cat "$err" >&2; exit 1; }
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_STALL_TIMEOUT=1
start=$(date +%s)
status=0
prog=$O/tests/fault/stall
[ "$1" = mp ] && prog=$O/tests/mp/stall
[ "$1" = stopped ] && set -- self && prog=$O/tests/fault/stopped
if [ "$1" = rank0 ] || [ "$1" = mp ]; then
    shift
    unset SUPERSTEP_STALL_TIMEOUT
    $MPIRUN -n 1 env SUPERSTEP_STALL_TIMEOUT=1 "$prog" "$@" : -n $((p - 1)) "$prog" "$@" \
        </dev/null >"$out" 2>"$err" || status=$?
else
    $MPIRUN -n "$p" "$prog" "$@" </dev/null >"$out" 2>"$err" || status=$?
fi
took=$(($(date +%s) - start))
why=
case $args in
mp*)
    [ "$status" = 1 ] || why="exit status $status, not 1"
    [ -n "$why" ] || [ "$(wc -l <"$err")" = 1 ] || why="not one line on stderr"
    [ -n "$why" ] || grep -Eq '^superstep: mp_sync: node 1: waited [0-9]+ s for node 3, still computing \(SUPERSTEP_STALL_TIMEOUT=1\)$' "$err" ||
        why="not the expected line"
    [ -n "$why" ] || [ "$took" -lt 20 ] || why="took $took s" ;;
stopped)
    [ "$status" != 0 ] || why="exit status 0"
    [ -n "$why" ] || [ "$(grep -c '^superstep: ' "$err")" = 1 ] || why="not one superstep: line"
    [ -n "$why" ] || grep -Eq '^superstep: bsp_sync: processor [0-9]+, superstep 2: waited [0-9]+ s for processor 1, stopped by a signal in superstep 2 \(SUPERSTEP_STALL_TIMEOUT=1\)$' "$err" ||
        why="not the expected line"
    [ -n "$why" ] || [ "$took" -lt 20 ] || why="took $took s" ;;
*slow*)
    [ "$status" = 0 ] || why="exit status $status"
    [ -n "$why" ] || [ "$(cat "$out")" = done ] || why="no 'done'"
    [ -n "$why" ] || [ ! -s "$err" ] || why="output on stderr" ;;
*)
    call=bsp_sync
    [ "$1" = end ] && call=bsp_end
    shift
    late=$(echo "$*" | sed 's/ /, /g')
    s=
    [ $# -gt 1 ] && s=s
    [ "$status" = 1 ] || why="exit status $status, not 1"
    [ -n "$why" ] || [ "$(grep -c '^superstep: ' "$err")" = 1 ] || why="not one superstep: line"
    [ -n "$why" ] || [ "$(wc -l <"$err")" = 1 ] || why="other lines on stderr"
    [ -n "$why" ] || grep -Eq "^superstep: $call: processor [0-9]+, superstep 1: waited [0-9]+ s for processor$s $late, still computing in superstep 1 \(SUPERSTEP_STALL_TIMEOUT=1\)$" "$err" ||
        why="not the expected line"
    [ -n "$why" ] || [ "$took" -lt 20 ] || why="took $took s" ;;
esac
[ -z "$why" ] || fail
exit 0
