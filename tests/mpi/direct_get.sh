# direct_get.sh - bsp_direct_get on the mpi device where MPI has no window
# for it (issue 34 item 5): tests/bsp/direct_get_sync under mpirun
#   tcp        Open MPI over TCP only (OMPI_MCA_btl=self,tcp), where Open MPI
#              4.1 creates no dynamic window: the run either passes (an MPI
#              that can) or stops with the one line naming bsp_direct_get,
#              the processor, the superstep and MPI's reason; never an
#              abort of MPI's own, a hang or a wrong value;
#   nodirect   SUPERSTEP_NO_DIRECT=1 on one rank only: no window on any
#              (the ranks agree), the one line names the setting;
#   scattered  40 areas on separate page ranges, more than the device
#              attaches (Open MPI 4.1 spun in MPI_Win_attach past 64): the
#              one line says so, at the first read, in superstep 2.
# RUN: n=2 args="tcp"
# RUN: n=3 args="nodirect"
# RUN: n=3 args="scattered"
set -u
mode=$1
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
prog=$O/tests/bsp/direct_get_sync
fail() { echo "direct_get.sh $mode: $*" >&2; echo "-- stderr" >&2; cat "$err" >&2; exit 1; }
line="^superstep: bsp_direct_get: processor [0-9]+, superstep 2: device mpi cannot read processor [0-9]+'s memory directly: "
case $mode in
tcp)
    OMPI_MCA_btl=self,tcp SUPERSTEP_DEVICE=mpi $MPIRUN -n "$SUPERSTEP_NPROCS" "$prog" 2>"$err"
    st=$?
    [ $st = 0 ] && { [ ! -s "$err" ] || fail "stderr on success"; echo "read over TCP"; exit 0; }
    [ $st = 1 ] || fail "exit status $st, not 1"
    grep -Eq "${line}MPI_Win_create_dynamic failed \(.*\): no MPI window over this transport; use bsp_get$" "$err" ||
        fail "no error line naming MPI_Win_create_dynamic"
    [ "$(grep -c '^superstep: ' "$err")" = 1 ] || fail "not one error line"
    echo "no window over TCP: $(grep '^superstep: ' "$err")"
    ;;
nodirect)
    # Rank 1 alone has the setting: mpirun passes it to that rank only.
    SUPERSTEP_DEVICE=mpi $MPIRUN -n 1 "$prog" : -n 1 env SUPERSTEP_NO_DIRECT=1 "$prog" : \
        -n $((SUPERSTEP_NPROCS - 2)) "$prog" 2>"$err"
    st=$?
    [ $st = 1 ] || fail "exit status $st, not 1"
    grep -Eq "${line}SUPERSTEP_NO_DIRECT=1 \(on some processor\)$" "$err" || fail "no error line naming the setting"
    [ "$(grep -c '^superstep: ' "$err")" = 1 ] || fail "not one error line"
    ;;
scattered)
    SUPERSTEP_DEVICE=mpi $MPIRUN -n "$SUPERSTEP_NPROCS" "$prog" areas 40 1024 2>"$err"
    st=$?
    grep -q "no MPI window over this transport" "$err" && { echo "SKIP: no MPI window here (Open MPI over TCP)"; exit 77; }
    [ $st = 1 ] || fail "exit status $st, not 1"
    grep -Eq "${line}its registered areas lie on more than 32 separate page ranges" "$err" || fail "no error line"
    [ "$(grep -c '^superstep: ' "$err")" = 1 ] || fail "not one error line"
    ;;
*)
    echo "usage: direct_get.sh tcp|nodirect|scattered" >&2
    exit 2
    ;;
esac
