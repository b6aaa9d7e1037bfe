# watchdog_mpirun.sh - a healthy Epiphany host run on a real mpirun that
# ends long after the host: never killed by the host's launcher watchdog
# (src/host/hwatch.c; issue 18, defect 1: it killed any mpirun still there
# 5 s after the host, status 137).  The host (tests/ebsp/watch_host.c) runs
# its kernels, writes 1 MiB to stdout and ends with status 0; mpirun's
# stdout is a FIFO that nobody reads until the host and its watchdog are
# gone, so mpirun cannot end before (its output waits), with no child left;
# then the output is read, and mpirun must end with 0, every byte through.
# RUN: n=2 timeout=120 spawn=yes
set -u
p=$SUPERSTEP_NPROCS
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_NPROCS=$p
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "watchdog_mpirun.sh: $*" >&2; [ -s "$dir/err" ] && sed 's/^/  stderr: /' "$dir/err" >&2; exit 1; }
# The host and its kernel run from this case's own folder, so that the
# processes looked for below are this case's.
cp "$O/tests/ebsp/watch_host" "$O/tests/ebsp/watch_kernel" "$dir/" || fail "cannot copy the host"
mkfifo "$dir/out" || fail "mkfifo"
exec 7<>"$dir/out" # held open, never read: mpirun's writes wait once the FIFO is full
bytes=1048576
$MPIRUN -n 1 "$dir/watch_host" $bytes "$dir/ended" >&7 2>"$dir/err" 7>&- &
launcher=$!
until [ -e "$dir/ended" ]; do
    kill -0 $launcher 2>/dev/null || fail "mpirun ended before the host had written its output"
    sleep 0.1
done
# The host has written everything; wait until it and its watchdog are gone
# (no bound: the runner's time limit).
while pgrep -f "^$dir/watch_host " >/dev/null; do sleep 0.1; done
if ! kill -0 $launcher 2>/dev/null; then
    wait $launcher
    fail "mpirun ended with status $? before its output was read (137: killed, as by the old watchdog)"
fi
cat "$dir/out" >"$dir/got" 7>&- &
reader=$!
wait $launcher
st=$?
exec 7>&-
wait $reader
[ "$st" = 0 ] || fail "mpirun ended with status $st, not 0 (137: killed)"
want=$(( (bytes + 99) / 100 * 100 ))
got=$(wc -c <"$dir/got")
[ "$got" = "$want" ] || fail "$got bytes of output, not $want"
grep -q '^superstep:' "$dir/err" && fail "a superstep: line"
echo "watchdog_mpirun.sh: status 0, $got bytes"
