# nested.sh - nested runs (MulticoreBSP's hierarchical BSP) on the mpi
# device: an inner run is a shm run forked from the rank.  A failure inside
# it ends the whole MPI job with exactly one "superstep:" line, naming the
# inner processor and superstep and where the inner run was started, and
# the failure's exit status; tests/bsp/nested_fault.c's cases, under mpirun.
# The other rank's inner run, stopped by the launcher (its processors get
# the SIGTERM too), prints nothing: the machine's line is claimed (CI on
# 94b8209, under load: a second line in 9 of 30 runs before).
# RUN: n=2
set -u
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
B=$O/tests/bsp/nested_fault
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1
fail=0
expect() { # status line-ERE args...
    local want=$1 line=$2
    shift 2
    # MPICH: a rank killed by a signal makes mpiexec exit with the signal's
    # number; and any failure now and then ends with 9, the SIGKILL of its own cleanup of the other
    # rank (Hydra's status depends on the order it sees the ranks end; the
    # other rank's watcher, src/mpi/mpi_watch.c, holds its stderr until
    # it has seen that rank end: docs/mpi.md).
    if grep -qx 'mpikind=mpich' "$O/config"; then
        if [ "$want" -gt 128 ]; then want="($want|$((want - 128))|9)"; else want="($want|9)"; fi
    fi
    local err rc
    err=$(timeout 60 $MPIRUN -n 2 "$B" "$@" 2>&1 >/dev/null </dev/null)
    rc=$?
    local lines
    lines=$(printf '%s\n' "$err" | grep -c '^superstep:')
    if ! [[ $rc =~ ^$want$ ]] || [ "$lines" != 1 ] || ! printf '%s\n' "$err" | grep -Eq "$line"; then
        echo "nested.sh: '$*' exited with $rc (expected $want), $lines superstep: lines (expected 1 matching /$line/):" >&2
        printf '%s\n' "$err" >&2
        fail=1
    fi
}
in1='\(in the inner run that processor 1 started in superstep 1\)$'
in0='\(in the inner run that processor 0 started in superstep 1\)$'
expect 139 "^superstep: processor 2 killed by signal 11 \(SIGSEGV\) in superstep 1 $in1" segv 1 2 1
expect 139 "^superstep: processor 0 killed by signal 11 \(SIGSEGV\) in superstep 2 $in0" segv 0 0 2
expect 134 "^superstep: processor 0 killed by signal 6 \(SIGABRT\) in superstep 0 $in1" abort 1 0 0
expect 1 "^superstep: bsp_abort: processor 2, superstep 1: inner 2 $in0" bspabort 0 2 1
expect 139 "^superstep: processor 1 killed by signal 11 \(SIGSEGV\) in superstep 0 \(in the inner run that processor 1 started in superstep 1, in the inner run that processor 0 started in superstep 1\)$" deep 0 1 0
exit $fail
