# machine_info.sh - MulticoreBSP's machine.info in the working directory is
# read as MulticoreBSP reads it (threads, cores, threads_per_core,
# unused_threads_per_core, thread_numbering, affinity, pinning,
# reserved_cores; an unknown key or bad value warns and is ignored); the
# calls of mcbsp.h override it, and bsprun -n (SUPERSTEP_NPROCS) overrides
# its threads and cores.
# RUN: n=2
set -u
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
prog=$PWD/$O/tests/bsp/mcbsp_machine
fail() { echo "machine_info.sh: $*" >&2; exit 1; }
run() { (cd "$dir" && env -u SUPERSTEP_NPROCS SUPERSTEP_DEVICE=shm "$@" "$prog") 2>"$dir/err"; }

# No file: the CPUs this program may use.
cpus=$(nproc)
out=$(run) || fail "no file: $(cat "$dir/err")"
[[ $out == "threads $cpus cores $cpus per_core 1 unused 0 numbering consecutive affinity 0 pinning 0 reserved 0 first 0" ]] ||
    fail "no file: $out"

cat >"$dir/machine.info" <<'END'
threads 3
cores 5
threads_per_core 2
unused_threads_per_core 1
thread_numbering wrapped
affinity compact
pinning 1 0 1
reserved_cores 4 3
colour blue
checkpoint_frequency x
END
out=$(run) || fail "file: $(cat "$dir/err")"
[[ $out == "threads 3 cores 5 per_core 2 unused 1 numbering wrapped affinity 1 pinning 1 reserved 2 first 4" ]] ||
    fail "file: $out"
grep -q "^superstep: warning: machine.info line 9: unknown key: colour (ignored)$" "$dir/err" ||
    fail "no warning for the unknown key: $(cat "$dir/err")"
grep -q "^superstep: warning: machine.info line 10: checkpoint_frequency: expected one whole number (ignored)$" "$dir/err" ||
    fail "no warning for the bad value: $(cat "$dir/err")"

# bsprun -n (which sets SUPERSTEP_NPROCS) beats the file's threads and cores.
out=$(cd "$dir" && SUPERSTEP_NPROCS=2 SUPERSTEP_DEVICE=shm "$prog" 2>/dev/null)
[[ $out == "threads 2 cores 2 "* ]] || fail "SUPERSTEP_NPROCS=2: $out"

# Manual affinity from the file, with its pinning.
printf 'affinity manual\npinning 0 0 0\n' >"$dir/machine.info"
out=$(run) || fail "manual: $(cat "$dir/err")"
[[ $out == *"affinity 2 pinning 0"* ]] || fail "manual: $out"
exit 0
