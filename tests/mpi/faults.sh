# faults.sh - exit statuses of the mpi failure cases of tests/mpi/faults.c
# that print no line of the runtime's (the program's own exit, as on shm):
# the job ends at once (the runner's time limit) with that status.
# Usage: faults.sh STATUS STYLE MODE R [S]
# RUN: n=3 args="5 init exit 0 5"
# RUN: n=3 args="6 init exit 2 6"
# RUN: n=3 args="7 main exit 1 7"
# RUN: n=4 args="3 main exit 3 3"
# RUN: n=3 args="0 main exit 0 0"
# RUN: n=3 args="9 init after 0 9"
set -u
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
want=$1
shift
# A rank killed by a signal: Open MPI's mpirun exits with 128 + signal,
# MPICH's mpiexec with the signal's number.
grep -qx 'mpikind=mpich' "$O/config" && [ "$want" -gt 128 ] && want=$((want - 128))
status=0
$MPIRUN -n "$SUPERSTEP_NPROCS" "$O/tests/mpi/faults" "$@" </dev/null || status=$?
[ "$status" = "$want" ] || { echo "faults.sh $*: exit status $status, not $want" >&2; exit 1; }
