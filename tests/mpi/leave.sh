# leave.sh - processor 2 of 4 ends in superstep 2 without any code of its
# own running (tests/mpi/leave.c): killed by SIGKILL, terminated from
# outside (SIGTERM), or _exit(0).  Under a plain mpirun and under bsprun:
# exactly one line naming the rank, the signal or status and the
# superstep, and the exit status 128 + signal, or 1.
# RUN: n=4 args="kill" timeout=120
# RUN: n=4 args="term" timeout=120
# RUN: n=4 args="exit0" timeout=120
set -u
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
mode=$1
case $mode in
kill) want=137 line='^superstep: processor 2 killed by signal 9 \(SIGKILL\) in superstep 2$' ;;
term) want=143 line='^superstep: processor 2 killed by signal 15 \(SIGTERM\) in superstep 2$' ;;
exit0) want=1 line='^superstep: processor 2 exited with status 0 in superstep 2 without calling bsp_end$' ;;
esac
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1
for how in mpirun bsprun; do
    status=0
    if [ $how = mpirun ]; then $MPIRUN -n 4 "$O/tests/mpi/leave" "$mode" </dev/null >/dev/null 2>"$err" || status=$?
    else "$BINDIR/bsprun" --device mpi -n 4 "$O/tests/mpi/leave" "$mode" </dev/null >/dev/null 2>"$err" || status=$?; fi
    [ "$status" = "$want" ] || { echo "leave.sh $mode ($how): exit status $status, not $want" >&2; cat "$err" >&2; exit 1; }
    [ "$(grep -c '^superstep: ' "$err")" = 1 ] || { echo "leave.sh $mode ($how): not one line" >&2; cat "$err" >&2; exit 1; }
    grep -Eq "$line" "$err" || { echo "leave.sh $mode ($how): no line /$line/" >&2; cat "$err" >&2; exit 1; }
done
echo "leave.sh $mode: one line, status $want, under mpirun and bsprun"
