# model.sh - the randomized model test gives the same results on the mpi
# device as on shm: same seed, same number of supersteps, the same output.
# Usage: model.sh SEED SUPERSTEPS
# RUN: n=1 args="11 100" timeout=120
# RUN: n=2 args="12 100" timeout=120
# RUN: n=3 args="13 80" timeout=120
# RUN: n=4 args="14 60" timeout=120
# RUN: n=8 args="18 40" timeout=180
set -u
p=$SUPERSTEP_NPROCS
shm=$(mktemp) && mpi=$(mktemp) || exit 1
trap 'rm -f "$shm" "$mpi"' EXIT
SUPERSTEP_DEVICE=shm "$O/tests/bsp/random_model" "$@" >"$shm" || { echo "model.sh: shm run failed ($?)" >&2; exit 1; }
SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 $MPIRUN -n "$p" "$O/tests/bsp/random_model" "$@" >"$mpi" ||
    { echo "model.sh: mpi run failed ($?)" >&2; exit 1; }
grep -q "random_model: OK" "$mpi" || { echo "model.sh: no OK on mpi" >&2; cat "$mpi" >&2; exit 1; }
diff "$shm" "$mpi" >&2 || { echo "model.sh: shm and mpi outputs differ" >&2; exit 1; }
cat "$mpi"
