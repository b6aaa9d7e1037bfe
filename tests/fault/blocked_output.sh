# blocked_output.sh - the library's own output must not hang a job
# (docs/reliability.md, "Hostile inputs").  Standard error a pipe that is
# full and that nobody reads (tests/fault/blocked_output.c fills it): the
# failure line of processor 0's bsp_abort, then of processor 1's, cannot
# be written; with SUPERSTEP_ABORT_TIMEOUT=2 the job gives up on it after
# 2 s and ends with status 1, the other processor, blocked in its own
# write, killed (before: the claimant blocked in its write before telling
# the others, and the job hung for ever).  The same with SUPERSTEP_PROFILE
# set: the trace holds the line, and the profile's note, which cannot be
# written either, is skipped (before: it hung in the note's write).  SUPERSTEP_PROFILE naming a FIFO
# that nobody reads: the job ends with status 0 and says that no trace was
# written (before: it hung in bsp_end, opening the FIFO).
# RUN: n=2 timeout=60 nompi="the shm device's own lines (on mpi, mpirun reads them)"
set -u
P=$O/tests/fault/blocked_output
dir=$(mktemp -d) || exit 1
exec 3> >(exec sleep 100) # the pipe that nobody reads
reader=$!
trap 'kill "$reader"; rm -rf "$dir"' EXIT
fail() { echo "blocked_output.sh: $*" >&2; exit 1; }
for who in 0 1; do
    rc=0
    SUPERSTEP_ABORT_TIMEOUT=2 timeout -s KILL 20 "$P" "$who" 2>&3 || rc=$?
    [ "$rc" = 1 ] || fail "processor $who aborts, stderr full: exit status $rc, expected 1 (137: hung)"
done
rc=0
SUPERSTEP_PROFILE=$dir/t.json SUPERSTEP_ABORT_TIMEOUT=2 timeout -s KILL 20 "$P" 0 2>&3 || rc=$?
[ "$rc" = 1 ] || fail "profiled, processor 0 aborts, stderr full: exit status $rc, expected 1 (137: hung)"
grep -q '"line":"bsp_abort: processor 0, superstep 1: stop"' "$dir/t.json" || fail "the trace has no line"
mkfifo "$dir/trace"
rc=0
SUPERSTEP_PROFILE=$dir/trace timeout -s KILL 20 "$P" -1 2>"$dir/err" || rc=$?
[ "$rc" = 0 ] || fail "SUPERSTEP_PROFILE a FIFO nobody reads: exit status $rc, expected 0 (137: hung)"
grep -qx "superstep: SUPERSTEP_PROFILE: $dir/trace is a FIFO with no reader; no trace written" "$dir/err" ||
    fail "no line for the FIFO; stderr: $(cat "$dir/err")"
exit 0
