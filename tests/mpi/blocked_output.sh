# blocked_output.sh - on the mpi device the library's own output must not
# hang a failed job either (docs/reliability.md, "Hostile inputs").  Each
# rank's standard error is a FIFO that nobody reads (opened read-write by
# the rank's own shell, so the open does not wait for a reader), filled
# first by tests/fault/blocked_output.c: processor WHO's bsp_abort line
# cannot be written.  With SUPERSTEP_ABORT_TIMEOUT=2 that write, and every
# write of the library's after the failure, waits at most 2 s for the FIFO
# to take output and is then dropped (the line lost there), and the job is
# aborted: mpirun's status 1.  Before, the rank blocked in its line's
# write for ever (137 at the 30 s limit).  (mpirun's own stderr a pipe
# that nobody reads is the launcher's business: Open MPI's mpirun keeps
# what the ranks write and blocks in its own write at its end, MPICH's
# blocks at once and serves no rank.)
# RUN: n=2 timeout=120
set -u
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "blocked_output.sh: $*" >&2; exit 1; }
mkfifo "$dir/err" || exit 1
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_ABORT_TIMEOUT=2
for who in 0 1; do
    rc=0
    timeout -s KILL 30 $MPIRUN -n 2 sh -c 'exec 2<>"$1"; shift; exec "$@"' sh "$dir/err" \
        "$O/tests/fault/blocked_output" "$who" sync </dev/null >/dev/null 2>"$dir/mpirun.err" || rc=$?
    [ "$rc" = 1 ] || fail "processor $who aborts, stderr full: exit status $rc, expected 1 (137: hung); mpirun's stderr: $(cat "$dir/mpirun.err")"
done
exit 0
