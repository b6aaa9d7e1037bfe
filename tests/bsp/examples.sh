# examples.sh - the example programs run and print what they promise.
# Usage: examples.sh hello|inner_product|sort|hierarchical [args...]
# RUN: n=1 args="hello"
# RUN: n=4 args="hello"
# RUN: n=8 args="hello"
# RUN: n=1 args="inner_product"
# RUN: n=4 args="inner_product"
# RUN: n=3 args="inner_product 1001"
# RUN: n=8 args="inner_product 5"
# RUN: n=1 args="sort"
# RUN: n=4 args="sort"
# RUN: n=3 args="sort 1001"
# RUN: n=8 args="sort 5"
# RUN: n=16 args="sort 100000"
# RUN: n=1 args="hierarchical"
# RUN: n=3 args="hierarchical 1001 3"
# RUN: n=4 args="hierarchical 5 4"
set -u
p=$SUPERSTEP_NPROCS
prog=$1
shift
what="$prog $*"
fail() { echo "examples.sh: $what: $1" >&2; exit 1; }

out=$("$O/examples/$prog" "$@") || fail "exit status $?"
printf '%s\n' "$out"
case $prog in
hello)
    [ "$(printf '%s\n' "$out" | wc -l)" = "$p" ] || fail "expected $p lines"
    for s in $(seq 0 $((p - 1))); do
        printf '%s\n' "$out" | grep -qx "Hello from processor $s of $p" || fail "no hello from $s"
    done ;;
inner_product)
    n=${1:-1000000}
    head="inner product of two vectors of length $n on $p processors = "
    case $out in "$head"*) ;; *) fail "unexpected output" ;; esac
    # The closed form n(n+1)(2n+1)/6, up to rounding.
    awk -v n="$n" -v got="${out#"$head"}" 'BEGIN {
        want = n * (n + 1) * (2 * n + 1) / 6
        d = got - want; if (d < 0) d = -d
        exit !(d <= 1e-9 * want) }' || fail "wrong inner product" ;;
hierarchical)
    n=${1:-1000000}
    [ "$out" = "sum of 1..$n = $((n * (n + 1) / 2)) on $p processors, each with an inner run of ${2:-2}" ] ||
        fail "unexpected output" ;;
sort)
    [ "$out" = "sorted ${1:-1000000} numbers on $p processors" ] || fail "unexpected output" ;;
*)
    fail "unknown example" ;;
esac
