# bench_empty.sh - bench/empty runs on the mpi device: its flag yardstick
# (a page mapped shared before bsp_begin) is measured only where the
# processors do share that page (bsp_begin forked them), never between
# ranks a launcher started, where processor 0 waited for ever on a flag
# processor 1 set in a page of its own.
# RUN: n=2 timeout=120
set -u
fail() { echo "bench_empty.sh: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
"$BINDIR/bspcc" -Ibench bench/empty.c -o "$tmp/empty" || fail "bspcc bench/empty.c failed"
export SUPERSTEP_BENCH_QUICK=1
SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 timeout 60 $MPIRUN -n 2 "$tmp/empty" >"$tmp/mpi" ||
    fail "on the mpi device: status $? ($(cat "$tmp/mpi"))"
grep -q '^empty_p2 [0-9.]* us$' "$tmp/mpi" || fail "on the mpi device, no empty_p2 figure: $(cat "$tmp/mpi")"
grep -q '^empty_p2_flag' "$tmp/mpi" && fail "on the mpi device, a flag yardstick between ranks: $(cat "$tmp/mpi")"
timeout 60 "$BINDIR/bsprun" --device shm -n 2 "$tmp/empty" >"$tmp/shm" || fail "on shm: status $?"
grep -q '^empty_p2_flag [0-9.]* us$' "$tmp/shm" || fail "on shm, no flag yardstick: $(cat "$tmp/shm")"
exit 0
