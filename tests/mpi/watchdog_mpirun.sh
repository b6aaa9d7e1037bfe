# watchdog_mpirun.sh - a healthy Epiphany host run on a real mpirun that
# ends long after the host: never ended by bsprun's bound on its mpirun
# (SUPERSTEP_MPIRUN_HANG_TIMEOUT, here 1 s; issue 18, defect 1: the old
# watchdog killed any mpirun still there 5 s after the host, status 137).  mpirun's stdout is a FIFO that the test
# fills to the brim before mpirun starts and reads only once the host and
# its watchdog are gone, so mpirun holds the host's output (1000 bytes, the
# host never waits for it) and cannot end before, with no child left; then
# the FIFO is read, and mpirun must end with 0, every byte through.
# (An earlier version had the host write 1 MiB into an empty FIFO: whether
# the host could end then depended on how much mpirun buffers, and with
# Open MPI 4.1 it sometimes did not: the host blocked in write, mpirun in
# its own write to the FIFO.)
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
exec 7<>"$dir/out" # held open, not read until the host is gone
# Fill the FIFO: any write of mpirun's waits (or is kept by mpirun) until
# the test reads.  One non-blocking write of a pipe's default capacity.
fill=65536
dd if=/dev/zero of="$dir/out" bs=$fill count=1 oflag=nonblock status=none 2>/dev/null ||
    fail "cannot fill the FIFO with $fill bytes"
bytes=1000
SUPERSTEP_MPIRUN_HANG_TIMEOUT=1 "$BINDIR/bsprun" --device mpi -n 1 "$dir/watch_host" $bytes "$dir/ended" >&7 2>"$dir/err" 7>&- &
launcher=$!
until [ -e "$dir/ended" ]; do
    kill -0 $launcher 2>/dev/null || fail "mpirun ended before the host had written its output"
    sleep 0.1
done
# The host has written everything; wait until it is gone (no bound: the
# runner's time limit).
while pgrep -f "^$dir/watch_host " >/dev/null; do sleep 0.1; done
if ! kill -0 $launcher 2>/dev/null; then
    wait $launcher
    fail "bsprun ended with status $? before its output was read (137: mpirun ended)"
fi
cat "$dir/out" >"$dir/got" 7>&- &
reader=$!
wait $launcher
st=$?
exec 7>&-
wait $reader
[ "$st" = 0 ] || fail "bsprun ended with status $st, not 0 (137: mpirun ended)"
want=$(( fill + (bytes + 99) / 100 * 100 ))
got=$(wc -c <"$dir/got")
[ "$got" = "$want" ] || fail "$got bytes of output, not $want ($fill of them the filler)"
lines=$(tail -c +$(( fill + 1 )) "$dir/got" | grep -c '^x\{99\}$')
[ "$lines" = $(( (bytes + 99) / 100 )) ] || fail "the host's output is not all there: $lines lines of x"
grep -q '^superstep:' "$dir/err" && fail "a superstep: line"
echo "watchdog_mpirun.sh: status 0, $got bytes ($fill of them the filler)"
