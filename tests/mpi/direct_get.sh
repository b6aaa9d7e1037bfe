# direct_get.sh - bsp_direct_get on the mpi device where MPI has no window
# for it (issues 34 item 5, 31): tests/bsp/direct_get_sync under mpirun
#   tcp        Open MPI over TCP only (OMPI_MCA_btl=self,tcp), where Open MPI
#              4.1 creates no dynamic window (as across nodes): the reads go
#              two-sided, every value right, status 0, nothing on stderr, at
#              p = 2 and 5, plain and with 4000 areas and 40 separate ones
#              (which a window would not take: scattered); before, each run
#              stopped with "cannot read ... MPI_Win_create_dynamic failed";
#   nodirect   SUPERSTEP_NO_DIRECT=1 on one rank only: no window on any
#              (the ranks agree), the one line names the setting;
#   scattered  40 areas on separate page ranges, more than the device
#              attaches to a window (Open MPI 4.1 spun in MPI_Win_attach
#              past 64): the one line says so, at the first read, in
#              superstep 2 (where there is a window: not in the TCP suite).
# RUN: n=2 args="tcp" timeout=180
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
    grep -qx 'mpikind=openmpi' "$O/config" || { echo "SKIP: OMPI_MCA_btl is Open MPI's (MPICH makes the window: scattered)"; exit 77; }
    for n in 2 5; do
        for a in "" "areas 4000 8" "areas 40 1024"; do
            OMPI_MCA_btl=self,tcp SUPERSTEP_DEVICE=mpi $MPIRUN -n $n "$prog" $a 2>"$err" || fail "p = $n, '$a': exit status $?"
            [ ! -s "$err" ] || fail "p = $n, '$a': stderr"
        done
    done
    echo "read two-sided over TCP"
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
    [ "${OMPI_MCA_btl:-}" = self,tcp ] && { echo "SKIP: no MPI window over TCP: reads go two-sided (tcp)"; exit 77; }
    [ $st = 1 ] || fail "exit status $st, not 1"
    grep -Eq "${line}its registered areas lie on more than 32 separate page ranges" "$err" || fail "no error line"
    [ "$(grep -c '^superstep: ' "$err")" = 1 ] || fail "not one error line"
    ;;
*)
    echo "usage: direct_get.sh tcp|nodirect|scattered" >&2
    exit 2
    ;;
esac
