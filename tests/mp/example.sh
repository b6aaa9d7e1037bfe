# example.sh - examples/master_worker counts primes right on any number of
# nodes, with more or fewer tasks than workers, and ends cleanly.
# Usage: example.sh [LIMIT [TASKS]] (expects the count below LIMIT)
# RUN: n=1
# RUN: n=2
# RUN: n=4 args="100000 37"
# RUN: n=8 args="10 6"
# RUN: n=3 args="0 5"
# RUN: n=5 cmd="$BINDIR/bsprun -n 6 bash tests/mp/example.sh 200000 1000"
set -u
limit=${1:-2000000}
tasks=${2:-100}
case $limit in
2000000) want=148933 ;; 200000) want=17984 ;; 100000) want=9592 ;; 10) want=4 ;; 0) want=0 ;;
*) echo "example.sh: no known count below $limit" >&2; exit 2 ;;
esac
out=$("$O/examples/master_worker" "$limit" "$tasks") || { echo "example.sh: exit status $?" >&2; exit 1; }
printf '%s\n' "$out"
workers=$((SUPERSTEP_NPROCS - 1))
case $out in
"primes below $limit: $want ("*" tasks, $workers workers)") ;;
*) echo "example.sh: expected $want primes below $limit with $workers workers" >&2; exit 1 ;;
esac
