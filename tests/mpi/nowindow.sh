# nowindow.sh - the mpi device runs where the MPI cannot make one-sided
# windows (issue 31): puts, gets, bsp_hpput and messages (nowindow.c) go
# two-sided, silently, with status 0 (before: every rank died in
# bsp_begin, "exited with status 53").  With SUPERSTEP_MPI_ONESIDED=1
# given, one line names MPI_Win_allocate and its error, status 1.
# Usage: nowindow.sh MODE
#   tcp      Open MPI over TCP with its osc rdma component only (rdma needs
#            a BTL with RDMA: tcp has none; docs/mpi.md "Any MPI, any
#            transport")
#   shmfull  /dev/shm a 32 MiB tmpfs, the window 64 MiB: Open MPI's osc sm
#            cannot make it (the line names /dev/shm's free bytes); MPICH
#            4.0.2 (ch4:ucx) keeps windows out of /dev/shm: runs one-sided
# RUN: n=3 args="tcp"
# RUN: n=3 args="shmfull"
set -u
mode=$1
out=$(mktemp) && err=$(mktemp) || exit 1
trap 'rm -f "$out" "$err"' EXIT
fail() { echo "nowindow.sh $mode: $*" >&2; echo "-- stdout" >&2; cat "$out" >&2; echo "-- stderr" >&2; cat "$err" >&2; exit 1; }
mpich=no
grep -qx 'mpikind=mpich' "$O/config" && mpich=yes
export SUPERSTEP_DEVICE=mpi SUPERSTEP_MPI_WINDOW=64M
unset SUPERSTEP_MPI_ONESIDED
ns= # shmfull: the command that gives the run a mount namespace of its own
run() { # [env...]: the program on $SUPERSTEP_NPROCS ranks
    set -- env "$@" $MPIRUN -n "$SUPERSTEP_NPROCS" "$O/tests/mpi/nowindow"
    if [ -n "$ns" ]; then
        $ns sh -c 'mount -t tmpfs -o size=32m tmpfs /dev/shm && exec "$@"' sh "$@" >"$out" 2>"$err"
    else
        "$@" >"$out" 2>"$err"
    fi
}
case $mode in
tcp)
    [ "$mpich" = no ] || { echo "SKIP: Open MPI's one-sided components (MPICH: shmfull)"; exit 77; }
    export OMPI_MCA_btl=self,tcp OMPI_MCA_osc=rdma ;;
shmfull)
    # a /dev/shm of this case's own, 32 MiB; Open MPI's windows there
    unset OMPI_MCA_osc_sm_backing_directory OMPI_MCA_osc_rdma_backing_directory
    if [ "$(id -u)" = 0 ]; then ns="unshare -m"; else ns="unshare -Urm"; fi
    $ns true 2>/dev/null || { echo "SKIP: no mount namespace here"; exit 77; } ;;
*) fail "unknown mode" ;;
esac
run || fail "exit status $?"
[ "$(cat "$out")" = "nowindow ok $SUPERSTEP_NPROCS" ] || fail "wrong output"
[ ! -s "$err" ] || fail "the fallback is not silent"
if [ "$mode" = shmfull ] && [ "$mpich" = yes ]; then
    run SUPERSTEP_MPI_ONESIDED=1 || fail "one-sided: exit status $?"
    exit 0
fi
run SUPERSTEP_MPI_ONESIDED=1 && fail "SUPERSTEP_MPI_ONESIDED=1: exit status 0"
[ "$?" = 1 ] || fail "SUPERSTEP_MPI_ONESIDED=1: exit status not 1"
line='^superstep: bsp_begin: processor [0-9]+, superstep 0: MPI_Win_allocate of [0-9]+ bytes failed \(SUPERSTEP_MPI_ONESIDED=1\): MPI_ERR_[A-Z_]+: [^;]+; '
case $mode in
tcp) line="${line}set SUPERSTEP_MPI_ONESIDED=0 for two-sided puts\$" ;;
shmfull) line="${line}/dev/shm has [0-9]+ bytes free: free some there, or set SUPERSTEP_MPI_ONESIDED=0 for two-sided puts\$" ;;
esac
[ "$(wc -l <"$err")" = 1 ] && grep -qE -- "$line" "$err" || fail "SUPERSTEP_MPI_ONESIDED=1: not the one line /$line/"
[ ! -s "$out" ] || fail "SUPERSTEP_MPI_ONESIDED=1: output"
