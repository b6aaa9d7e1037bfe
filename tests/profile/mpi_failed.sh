# mpi_failed.sh - on the mpi device a job that fails keeps, in its trace,
# every superstep that the rank reporting the failure completed, which
# every processor completed too, and that rank's part of the superstep
# the failure came in, with the job's line: an error in superstep 1 keeps
# superstep 0 and 1 up to the error, a bsp_abort in superstep 3 keeps 0..3
# (tests/profile/fail_at.c).  The
# other ranks' records are lost (docs/mpi.md): the trace lists them as
# missing and bspprof says so.  (tests/run runs tests/*/mpi_*.sh only where
# the build has the mpi device.)
# RUN: n=3 timeout=180
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "mpi_failed.sh: $*" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1
others=$(seq -s ', ' 0 $((p - 1)) | sed 's/\(^\|, \)1\(, \|$\)/\1/; s/, $//')

for c in "error 1 1:2" "abort 1 3:4"; do
    args=${c%:*} steps=${c#*:}
    rc=0
    $MPIRUN -n "$p" env SUPERSTEP_PROFILE="$dir/f.json" "$O/tests/profile/fail_at" $args >"$dir/out" 2>"$dir/err" || rc=$?
    [ "$rc" = 1 ] || fail "fail_at $args on mpi: status $rc: $(cat "$dir/err")"
    grep -q "^superstep: SUPERSTEP_PROFILE: the job failed; $dir/f.json holds the supersteps processor 1 completed (partial: the records of processors $others are lost on mpi)$" "$dir/err" ||
        fail "fail_at $args on mpi: no note of the partial trace: $(cat "$dir/err")"
    line=$(grep '^superstep: ' "$dir/err" | grep -v SUPERSTEP_PROFILE | head -1)
    python3 tests/profile/check_failed.py "$dir/f.json" "$p" "$steps" --only 1 --who 1 --line "${line#superstep: }" ||
        fail "fail_at $args on mpi: the trace is wrong (above)"
    "$BINDIR/bspprof" "$dir/f.json" >"$dir/out" || fail "bspprof on the trace of fail_at $args: status $?"
    grep -q "^PARTIAL: the job failed on mpi; the records of processors $others are missing" "$dir/out" ||
        fail "bspprof does not mark the trace partial: $(head -3 "$dir/out")"
    rm -f "$dir/f.json"
done
exit 0
