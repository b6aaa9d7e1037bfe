# nonap.sh - a rank of the mpi device does not sleep while the rank it
# waits for runs on another core (issue 21): 2 ranks under mpirun's default
# binding (Open MPI binds each to one core) on a node of 2 or more CPUs do
# 2000 empty supersteps (nonap.c); strace counts every rank's sleeps between
# the program's two marks (MPI's own start and end sleep as long as they
# take).  A wait that naps sleeps about once per superstep (before the fix:
# 2000-7000 in all).
# RUN: n=2
set -u
command -v strace >/dev/null 2>&1 || { echo "SKIP: strace not installed"; exit 77; }
[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || { echo "SKIP: one CPU: the ranks share it and may sleep"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
SUPERSTEP_DEVICE=mpi $MPIRUN -n 2 strace -ff -qq -e trace=nanosleep,clock_nanosleep,access -o "$dir/trace" \
    "$O/tests/mpi/nonap" >"$dir/out" || { echo "nonap.sh: the program failed ($?)" >&2; exit 1; }
grep -qx synced "$dir/out" || { echo "nonap.sh: no 'synced' line: $(cat "$dir/out")" >&2; exit 1; }
sleeps=$(awk '/access\("\/nonap-start"/ { on = 1 } /access\("\/nonap-end"/ { on = 0 } on && /nanosleep\(/ { n++ }
    END { print n + 0 }' "$dir"/trace.*)
[ "$(cat "$dir"/trace.* | grep -c 'access("/nonap-')" = 4 ] || { echo "nonap.sh: strace saw no marks" >&2; exit 1; }
[ "$sleeps" -lt 500 ] || { echo "nonap.sh: the ranks slept $sleeps times in 2000 supersteps" >&2; exit 1; }
echo "slept $sleeps times in 2000 supersteps"
