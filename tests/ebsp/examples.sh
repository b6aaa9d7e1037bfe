# examples.sh - the Epiphany BSP examples (host + kernel pairs in
# examples/ebsp) run and print what they promise.
# Usage: examples.sh hello|dot_product|stream_dot|cannon [args...]
# RUN: n=1 args="hello"
# RUN: n=4 args="hello"
# RUN: n=16 args="hello"
# RUN: n=1 args="dot_product"
# RUN: n=4 args="dot_product 1001"
# RUN: n=7 args="dot_product 5"
# RUN: n=3 args="stream_dot"
# RUN: n=5 args="stream_dot 100003 100"
# RUN: n=1 args="cannon 8 2"
# RUN: n=4 args="cannon"
# RUN: n=9 args="cannon 4 3"
# RUN: n=16 args="cannon 8 2" timeout=120
set -u
p=$SUPERSTEP_NPROCS
prog=$1
shift
what="$prog $*"
fail() { echo "examples.sh: $what: $1" >&2; exit 1; }

out=$("$O/examples/ebsp/${prog}_host" "$@") || fail "exit status $?"
printf '%s\n' "$out"
case $prog in
hello)
    [ "$(printf '%s\n' "$out" | wc -l)" = "$p" ] || fail "expected $p lines"
    for s in $(seq 0 $((p - 1))); do
        printf '%s\n' "$out" | grep -qx "$(printf '\\$%02d: Hello world from core %d/%d' "$s" "$s" "$p")" ||
            fail "no hello from $s"
    done ;;
dot_product)
    printf '%s\n' "$out" | grep -Eqx '\$00: sum of [0-9]+ partial sums: -?[0-9]+' || fail "no message from processor 0"
    printf '%s\n' "$out" | grep -Eq "^dot product of two vectors of length ${1:-100000} on $p processors = (-?[0-9]+) \(expected \1\)$" ||
        fail "wrong result" ;;
stream_dot)
    printf '%s\n' "$out" | grep -Eq "^streamed dot product of two vectors of length ${1:-1000000} on $p processors = (-?[0-9]+) \(expected \1\)$" ||
        fail "wrong result" ;;
cannon)
    printf '%s\n' "$out" | grep -Eq "^cannon: C = A B .* max error 0 OK$" || fail "wrong product" ;;
*)
    fail "unknown example" ;;
esac
