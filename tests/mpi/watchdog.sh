# watchdog.sh - bsprun's bound on its own mpirun (tools/bsprun.c,
# SUPERSTEP_MPIRUN_HANG_TIMEOUT, here 1 s), against a stand-in for mpirun
# (SUPERSTEP_MPIRUN: a script that ends as told); the library itself sends
# no signal to a launcher (it sent SIGKILL to an mpirun found by its name):
#   stuck   the stand-in prints a failure line, then hangs with no child
#           (as Open MPI 4.1's mpirun in its finalize): bsprun ends it once
#           it has been silent with no live child at two looks a limit
#           apart, with a line saying so (137)
#   slow    no failure: the stand-in hangs 3 s (three limits) with no child
#           and ends with 0: a job without a failure is never ended
#   busy    a failure line, and a child alive (a rank still running) for
#           3 s: the stand-in ends with 4, never ended while a child lives
#           nor as it ends (the child's end and the stand-in's fell on one
#           look now and then under load: 137)
# Usage: watchdog.sh MODE
# RUN: n=1 args="stuck" timeout=60
# RUN: n=1 args="slow" timeout=60
# RUN: n=1 args="busy" timeout=60
set -u
# bsprun does not free what it gives mpirun (it ends as mpirun ends).
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
mode=$1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "watchdog.sh $mode: $*" >&2; [ -s "$dir/err" ] && sed 's/^/  stderr: /' "$dir/err" >&2; exit 1; }
failed='echo "superstep: processor 0 failed" >&2'
case $mode in
stuck) run="$failed; exec sleep 60" want=137 ;;
slow) run='exec sleep 3' want=0 ;;
busy) run="$failed; sleep 3; exit 4" want=4 ;;
*) fail "unknown mode" ;;
esac
printf '#!/bin/bash\n%s\n' "$run" >"$dir/mpirun"
chmod +x "$dir/mpirun"
st=0
SUPERSTEP_MPIRUN=$dir/mpirun SUPERSTEP_MPIRUN_HANG_TIMEOUT=1 "$BINDIR/bsprun" --device mpi -n 1 true 2>"$dir/err" || st=$?
[ "$st" = "$want" ] || fail "exit status $st, not $want"
ended='^superstep: bsprun: mpirun \(pid [0-9]+\) went on 1 s after the job.s failure with no process of the job left: the time limit expired \(SUPERSTEP_MPIRUN_HANG_TIMEOUT=1\); bsprun ended it$'
if [ "$mode" = stuck ]; then
    grep -Eq "$ended" "$dir/err" || fail "no line saying the limit expired"
else
    grep -Eq 'time limit expired' "$dir/err" && fail "ended by bsprun"
fi
echo "watchdog.sh $mode: status $st"
