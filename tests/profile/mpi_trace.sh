# mpi_trace.sh - the profiler and bspbench on the mpi device, under mpirun:
# every rank's records reach processor 0, so the trace of traffic.c is the
# one shm gives (check_trace.py: same supersteps, h-relations, slices) and
# bspprof shows the same h column; a profile asked for by some ranks only is
# a warning, not a hang; the trace names no other file; bspbench
# reads its options in every rank (a bsp_put bound error before), prints its
# results once, and reports a bad option once.  A job that fails keeps a
# partial trace: the rank that reports the failure writes its own records,
# and the trace (and bspprof) name the processors whose records are lost.
# (tests/run runs tests/*/mpi_*.sh only where the build has the mpi device.)
# RUN: n=2 timeout=180
# RUN: n=3 timeout=180
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "mpi_trace.sh: $*" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1

$MPIRUN -n "$p" env SUPERSTEP_PROFILE="$dir/t.json" "$O/tests/profile/traffic" || fail "traffic on mpi: status $?"
[ "$(ls -A "$dir")" = t.json ] || fail "files beside the trace: $(ls -A "$dir")"
python3 tests/profile/check_trace.py "$dir/t.json" "$p" || fail "the mpi trace is wrong (above)"
hw=$("$BINDIR/bspprof" "$dir/t.json" | awk '$1 ~ /^[0-9]+$/ { printf "%s ", $9 }')
[ "$hw" = "0 $p $((5 * p)) 3 125 0 " ] || fail "bspprof h(words) on mpi: '$hw'"

# SUPERSTEP_PROFILE in rank 0's environment only: a warning, no trace, no hang.
$MPIRUN -n 1 env SUPERSTEP_PROFILE="$dir/half.json" "$O/tests/profile/traffic" : -n $((p - 1)) "$O/tests/profile/traffic" \
    2>"$dir/err" || fail "profile in rank 0 only: status $?"
grep -q "^superstep: SUPERSTEP_PROFILE: set for 1 of the $p processors only" "$dir/err" || fail "no warning: $(cat "$dir/err")"
[ ! -e "$dir/half.json" ] || fail "a trace from one rank of $p"

# A failing job (the last processor aborts after its third bsp_sync): status
# 1, the trace of that processor's 3 supersteps and of the fourth up to the
# abort, with the job's line, the others named as missing.
status=0
$MPIRUN -n "$p" env SUPERSTEP_PROFILE="$dir/f.json" "$O/tests/profile/traffic" abort 2>"$dir/err" || status=$?
[ "$status" = 1 ] || fail "aborting job on mpi: status $status"
left=$(ls -A "$dir" | grep -vx 'err\|out\|t.json' | tr '\n' ' ')
[ "$left" = "f.json " ] || fail "failed job on mpi left: $left"
last=$((p - 1))
missing=$(seq -s ', ' 0 $((p - 2)))
s=; [ "$p" -gt 2 ] && s=s
grep -q "^superstep: SUPERSTEP_PROFILE: the job failed; $dir/f.json holds the supersteps processor $last completed (partial: the records of processor$s $missing are lost on mpi)$" "$dir/err" ||
    fail "no partial note: $(cat "$dir/err")"
python3 - "$dir/f.json" "$p" <<'PY' || fail "the partial trace of the aborted job is wrong"
import json, sys
t = json.load(open(sys.argv[1]))
od, p = t["otherData"], int(sys.argv[2])
assert od["complete"] is False and od["nprocs"] == p, od
assert od["missing"] == list(range(p - 1)), od
assert od["reached"] == [0] * (p - 1) + [3] and od["supersteps"] == 4, od
assert od["failure"]["step"] == 3 and od["failure"]["line"].endswith("traffic: aborting in superstep 2 as asked"), od
steps = [e for e in t["traceEvents"] if e["name"].startswith("superstep")]
assert len(steps) == 4 and {e["tid"] for e in steps} == {p}, steps
PY
"$BINDIR/bspprof" "$dir/f.json" >"$dir/out" || fail "bspprof on the partial trace: status $?"
grep -q "^PARTIAL: the job failed on mpi; the records of processor$s $missing are missing" "$dir/out" ||
    fail "bspprof does not mark the trace partial: $(head -3 "$dir/out")"
rm -f "$dir/f.json"

$MPIRUN -n "$p" "$BINDIR/bspbench" -H 16 -k 3 -b 2 -i 2 >"$dir/out" 2>"$dir/err" || fail "bspbench on mpi: status $? $(cat "$dir/err")"
[ "$(grep -c "^p= $p, r= " "$dir/out")" = 1 ] || fail "bspbench on mpi: not one bottom line: $(cat "$dir/out")"
grep -q "^fit over h = $p\.\.16: " "$dir/out" || fail "bspbench on mpi ignored -H 16: $(cat "$dir/out")"
if $MPIRUN -n "$p" "$BINDIR/bspbench" -H x >"$dir/out" 2>"$dir/err"; then fail "bspbench -H x on mpi: status 0"; fi
[ "$(grep -c "^bspbench: -H: 'x' is not a whole number" "$dir/err")" = 1 ] ||
    fail "bspbench -H x on mpi: the error not once: $(cat "$dir/err")"
exit 0
