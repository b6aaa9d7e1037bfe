# launcher.sh - processes that another MPI's launcher started (or srun
# without PMI) are taken by this MPI for as many one-rank jobs: each would
# run the whole program alone (an Open MPI build under MPICH's mpiexec
# printed "processor 0 of 1" twice, status 0).  Now the launcher's rank 0
# says so in one line, and the job ends with status 1, running nothing.
# RUN: n=2 timeout=120
set -u
# Open MPI does not free what MPI_Init allocates.
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
fail() { echo "launcher.sh: $*; stderr: $(tr '\n' '|' <"$err")" >&2; exit 1; }
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
hello=$O/examples/hello
unset SUPERSTEP_DEVICE SUPERSTEP_DEVICE_MANDATORY
line='^superstep: the launcher started 2 processes, but .* \(the MPI Superstep was built with\) sees a job of 1: start the program with this MPI.s launcher'

expect() { # what: the status 1, no output, the line once (none: '')
    [ "$rc" = 1 ] || fail "$1: exit status $rc, not 1"
    [ ! -s "$out" ] || fail "$1: the program ran: $(head -2 "$out")"
    if [ -n "$2" ]; then
        [ "$(wc -l <"$err")" = 1 ] && grep -Eq "$2" "$err" || fail "$1: not the one line expected"
    else
        [ ! -s "$err" ] || fail "$1: a line from a rank other than 0"
    fi
}

# srun's environment without PMI, as each of its processes sees it.
rc=0; SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=0 "$hello" >"$out" 2>"$err" || rc=$?
expect "srun, rank 0" "$line"
rc=0; SLURM_STEP_NUM_TASKS=2 SLURM_PROCID=1 "$hello" >"$out" 2>"$err" || rc=$?
expect "srun, rank 1" ""

# The other MPI's launcher, where it is installed.
case $(sed -n 's/^mpikind=//p' "$O/config") in
openmpi) other=$(command -v mpiexec.mpich || true) ;;
mpich) other=$(command -v mpirun.openmpi || true); [ -z "$other" ] || other="$other -q --allow-run-as-root --oversubscribe" ;;
*) other= ;;
esac
if [ -n "$other" ]; then
    rc=0; $other -n 2 "$hello" >"$out" 2>"$err" || rc=$?
    expect "$other -n 2" "$line"
fi
exit 0
