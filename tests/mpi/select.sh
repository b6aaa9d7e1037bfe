# select.sh - choosing the device (SUPERSTEP_DEVICE, bsprun --device) and
# how failures of the MPI launch itself are reported.
# Usage: select.sh MODE
#   direct     SUPERSTEP_DEVICE=mpi without mpirun: one warning, runs on shm
#   mandatory  the same with SUPERSTEP_DEVICE_MANDATORY=1: an error, exit 1
#   unknown    SUPERSTEP_DEVICE=gpu: a bad setting, one error line, exit 1
#   auto       under mpirun without SUPERSTEP_DEVICE: the mpi device
#   shm        SUPERSTEP_DEVICE=shm under mpirun: every rank a job of its own
#   bsprun     bsprun --device mpi -n P: the mpi device
#   launcher   bsprun --device mpi without SUPERSTEP_MPIRUN: the launcher of
#              the MPI the build links (an MPICH build's programs under Open
#              MPI's mpirun were jobs of one rank each)
#   nompirun   bsprun --device mpi with no mpirun: warning and shm; with
#              --mandatory an error
#   more       bsp_begin(P+1) on P ranks: one error line, exit 1
#   kill       a rank killed by SIGKILL: no hang, exit 137; mpirun names the
#              rank, and so does the rank's watcher (src/mpi/mpi_watch.c),
#              under bsprun too, in the shm line.
#              MPICH's mpiexec exits with 137 too: the watcher aborts the
#              job on the rank's PMI connection with 128 + signal (docs/mpi.md,
#              srun-signal), before Hydra's proxy sees the rank end
# RUN: n=2 args="direct"
# RUN: n=2 args="mandatory"
# RUN: n=2 args="unknown"
# RUN: n=3 args="auto"
# RUN: n=2 args="shm"
# RUN: n=3 args="bsprun"
# RUN: n=3 args="launcher"
# RUN: n=2 args="nompirun"
# RUN: n=2 args="more"
# RUN: n=3 args="kill" timeout=60
set -u
p=$SUPERSTEP_NPROCS
# Open MPI does not free what MPI_Init allocates (bsprun starts mpirun here).
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
mode=$1
out=$(mktemp) && err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "select.sh $mode: $*" >&2; echo "-- stdout" >&2; cat "$out" >&2; echo "-- stderr" >&2; cat "$err" >&2; exit 1; }
hello=$O/examples/hello
lines() { [ "$(wc -l <"$out")" = "$1" ] || fail "expected $1 lines of output"; }
one() { [ "$(grep -c -E -- "$1" "$err")" = 1 ] || fail "expected one line /$1/ on stderr"; }
only() { [ "$(wc -l <"$err")" = "$1" ] || fail "expected $1 lines on stderr"; }
unset SUPERSTEP_DEVICE SUPERSTEP_DEVICE_MANDATORY
case $mode in
direct)
    SUPERSTEP_DEVICE=mpi "$hello" >"$out" 2>"$err" || fail "exit status $?"
    lines "$p"; only 1; one '^superstep: warning: device mpi cannot be used \(not started by an MPI launcher.*\); running on shm$' ;;
mandatory)
    SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 "$hello" >"$out" 2>"$err" && fail "exit status 0"
    [ "$?" = 1 ] || fail "exit status not 1"
    lines 0; only 1; one '^superstep: bsp_begin: device mpi cannot be used: not started by an MPI launcher' ;;
unknown)
    SUPERSTEP_DEVICE=gpu "$hello" >"$out" 2>"$err" && fail "exit status 0"
    [ "$?" = 1 ] || fail "exit status not 1"
    lines 0; only 1; one "^superstep: SUPERSTEP_DEVICE='gpu' is not accepted: expected shm, mpi or auto$" ;;
auto)
    $MPIRUN -n "$p" "$hello" >"$out" 2>"$err" || fail "exit status $?"
    lines "$p"; only 0
    for s in $(seq 0 $((p - 1))); do grep -qx "Hello from processor $s of $p" "$out" || fail "no hello from $s"; done ;;
shm)
    SUPERSTEP_DEVICE=shm $MPIRUN -n "$p" "$hello" >"$out" 2>"$err" || fail "exit status $?"
    lines $((p * p)); only 0 ;;
bsprun)
    "$BINDIR/bsprun" --device mpi -n "$p" "$hello" >"$out" 2>"$err" || fail "exit status $?"
    lines "$p"; only 0
    for s in $(seq 0 $((p - 1))); do grep -qx "Hello from processor $s of $p" "$out" || fail "no hello from $s"; done ;;
launcher)
    env -u SUPERSTEP_MPIRUN "$BINDIR/bsprun" --device mpi --mandatory -n "$p" "$hello" >"$out" 2>"$err" ||
        fail "exit status $?"
    lines "$p"; only 0
    for s in $(seq 0 $((p - 1))); do grep -qx "Hello from processor $s of $p" "$out" || fail "no hello from $s"; done ;;
nompirun)
    SUPERSTEP_MPIRUN=/nonexistent/mpirun "$BINDIR/bsprun" --device mpi -n "$p" "$hello" >"$out" 2>"$err" ||
        fail "exit status $?"
    lines "$p"; only 1; one '^superstep: warning: device mpi cannot be used \(/nonexistent/mpirun not found\); running on shm$'
    SUPERSTEP_MPIRUN=/nonexistent/mpirun "$BINDIR/bsprun" --device mpi --mandatory -n "$p" "$hello" >"$out" 2>"$err" &&
        fail "--mandatory: exit status 0"
    lines 0; only 1; one '^superstep: bsprun: device mpi cannot be used: /nonexistent/mpirun not found' ;;
more)
    $MPIRUN -n "$p" "$O/tests/bsp/pid_nprocs" $((p + 1)) >"$out" 2>"$err" && fail "exit status 0"
    [ "$?" = 1 ] || fail "exit status not 1"
    only 1; one "^superstep: bsp_begin: $((p + 1)) processors requested, but the MPI job has $p ranks" ;;
kill)
    # mpirun without -q names the rank in its own words.
    start=$(date +%s)
    ${MPIRUN/ -q/} -n "$p" "$O/tests/bsp/err_signal" kill 1 1 >"$out" 2>"$err"
    rc=$?
    if grep -qx 'mpikind=mpich' "$O/config"; then
        [ "$rc" = 137 ] || fail "mpiexec (MPICH): exit status $rc, expected 137"
        grep -Eq '^superstep: processor 1 killed by signal 9 \(SIGKILL\) in superstep 1$' "$err" ||
            fail "no line naming processor 1 and signal 9"
    else
        [ "$rc" = 137 ] || fail "mpirun: exit status $rc, expected 137"
        grep -Eq 'rank 1 .*signal 9' "$err" || fail "mpirun does not name rank 1 and signal 9"
    fi
    "$BINDIR/bsprun" --device mpi -n "$p" "$O/tests/bsp/err_signal" kill 2 0 >"$out" 2>"$err"
    rc=$?
    [ "$rc" = 137 ] || fail "bsprun: exit status $rc, expected 137"
    only 1; one '^superstep: processor 2 killed by signal 9 \(SIGKILL\) in superstep 0$'
    [ $(($(date +%s) - start)) -lt 30 ] || fail "took $(($(date +%s) - start)) s" ;;
*)
    echo "select.sh: unknown mode $mode" >&2; exit 2 ;;
esac
exit 0
