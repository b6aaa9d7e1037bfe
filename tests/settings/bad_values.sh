# bad_values.sh - a setting whose value is not accepted stops the program
# before anything starts: exit status 1, exactly one line on stderr naming the
# variable, the value and what is accepted (and no call: the setting is at
# fault, whichever entry point read it), nothing on stdout, no processor
# started.  For every API's entry point (BSPlib, mp.h, Epiphany host, bsprun)
# and every kind of setting (count, size, word, 0/1, decimal).
# RUN: n=2 timeout=300
set -u
fail() { echo "bad_values.sh: $*" >&2; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
bsp=$O/tests/settings/start
host=$O/tests/ebsp/dma_host
# expect VAR VALUE ACCEPTED -- command...
expect() {
    local var=$1 val=$2 acc=$3
    shift 4
    env "$var=$val" "$@" >"$t/out" 2>"$t/err"
    local rc=$?
    [ "$rc" = 1 ] || fail "$var='$val' $*: exit status $rc, expected 1 ($(cat "$t/err"))"
    [ ! -s "$t/out" ] || fail "$var='$val' $*: something started: $(cat "$t/out")"
    [ "$(wc -l <"$t/err")" = 1 ] || fail "$var='$val' $*: not one line: $(cat "$t/err")"
    local want="superstep: $var='$val' is not accepted: expected $acc"
    [ "$(cat "$t/err")" = "$want" ] || fail "$var='$val' $*: got '$(cat "$t/err")', expected '$want'"
}
count="a whole number from 1 to 65535"
for v in -1 abc 0 4x 1e9 4294967297 65536 " 4" "4 " +4 0x10 18446744073709551617; do
    expect SUPERSTEP_NPROCS "$v" "$count" -- "$bsp" bsp
    expect SUPERSTEP_NPROCS "$v" "$count" -- "$bsp" mp
    expect SUPERSTEP_NPROCS "$v" "$count" -- "$BINDIR/bsprun" "$bsp" bsp
done
seg="a size from 64M to 64T: digits with an optional K, M, G or T (powers of 1024)"
for v in garbage 1E 16GB -1G 1.5G 65T 100 99999999999999999999 4K; do
    expect SUPERSTEP_SEGMENT_SIZE "$v" "$seg" -- "$bsp" bsp
    expect SUPERSTEP_SEGMENT_SIZE "$v" "$seg" -- "$bsp" mp
done
mem="a size from 4K to 64G (rounded up to a multiple of 4K)"
expect SUPERSTEP_LOCAL_MEMORY 1k "$mem" -- "$host"
expect SUPERSTEP_EXT_MEMORY 0 "$mem" -- "$host"
expect SUPERSTEP_NPROCS 0 "$count" -- "$host"
expect SUPERSTEP_DEVICE gpu "shm, mpi or auto" -- "$bsp" bsp
expect SUPERSTEP_DEVICE_MANDATORY yes "0 or 1" -- "$bsp" bsp
expect SUPERSTEP_NO_DIRECT true "0 or 1" -- "$bsp" mp
expect SUPERSTEP_MPI_ONESIDED 2 "0 or 1" -- "$bsp" bsp
expect SUPERSTEP_MPI_WINDOW 1Q "a size from 0 to 64G" -- "$BINDIR/bsprun" -n 2 "$bsp" bsp
for v in 4K 2G 1T; do
    expect SUPERSTEP_MPI_PIECE "$v" "a size from 64K to 1G: digits with an optional K, M, G or T (powers of 1024)" -- "$bsp" mp
done
hang="a whole number of seconds from 0 (never kill) to 2000000"
for v in abc -1 2000001 1.5 5s; do
    expect SUPERSTEP_MPIRUN_HANG_TIMEOUT "$v" "$hang" -- "$host"
done
abort="a whole number of seconds from 0 (no limit) to 4294967295"
for v in abc -1 4294967296 5s; do
    expect SUPERSTEP_ABORT_TIMEOUT "$v" "$abort" -- "$bsp" bsp
    expect SUPERSTEP_ABORT_TIMEOUT "$v" "$abort" -- "$bsp" mp
done
grace="a decimal number of seconds from 0 to 1000000"
for v in abc -1 1000001 5s 0.5.1; do
    expect SUPERSTEP_STOP_GRACE "$v" "$grace" -- "$bsp" bsp
    expect SUPERSTEP_STOP_GRACE "$v" "$grace" -- "$bsp" mp
done
# The BSP parameters, read by the collectives and bsp_probe: a bad one is
# the setting's fault, not bsp_nprocs's (the call that checks first).
for v in -1 abc 1000000001; do
    expect SUPERSTEP_G "$v" "a decimal number from 0 to 1000000000" -- "$bsp" bsp
    expect SUPERSTEP_L "$v" "a decimal number from 0 to 1000000000" -- "$bsp" bsp
done
expect SUPERSTEP_HP_MOVE_MIN 256KB "a size from 0 to 64T: digits with an optional K, M, G or T (powers of 1024)" -- "$bsp" bsp
# Accepted values start (the limits and the suffixes).
SUPERSTEP_NPROCS=65535 "$bsp" count >"$t/out" 2>"$t/err" && grep -qx 65535 "$t/out" ||
    fail "SUPERSTEP_NPROCS=65535 not accepted: $(cat "$t/err")"
for v in 64M 65536k 1g 64T 16G; do
    SUPERSTEP_SEGMENT_SIZE=$v "$bsp" bsp >"$t/out" 2>"$t/err" || fail "SUPERSTEP_SEGMENT_SIZE=$v: $(cat "$t/err")"
done
for v in 0 2000000; do
    SUPERSTEP_MPIRUN_HANG_TIMEOUT=$v "$host" >"$t/out" 2>"$t/err" || fail "SUPERSTEP_MPIRUN_HANG_TIMEOUT=$v: $(cat "$t/err")"
done
for v in 0 4294967295; do
    SUPERSTEP_ABORT_TIMEOUT=$v "$bsp" bsp >"$t/out" 2>"$t/err" || fail "SUPERSTEP_ABORT_TIMEOUT=$v: $(cat "$t/err")"
done
for v in 0 0.25 1000000; do
    SUPERSTEP_STOP_GRACE=$v "$bsp" bsp >"$t/out" 2>"$t/err" || fail "SUPERSTEP_STOP_GRACE=$v: $(cat "$t/err")"
done
SUPERSTEP_NPROCS= "$bsp" bsp >"$t/out" 2>"$t/err" || fail "an empty SUPERSTEP_NPROCS is not the default: $(cat "$t/err")"
exit 0
