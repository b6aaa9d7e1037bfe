# order.sh - ebsp_message lines come out in causal order: a line written
# after an ebsp_barrier never before one that any processor wrote before
# it (rounds), and a processor's fatal error line (stderr) never before its
# own earlier lines (fail), with stdout and stderr in one file; nor while
# the host cannot print them (held: the host stopped for 3 s while the
# lines wait in the ring; the error line once came out after 2 s, before
# them).
# RUN: n=2 args="rounds 300"
# RUN: n=4 args="rounds 300"
# RUN: n=16 args="rounds 200" timeout=120
# RUN: n=3 args="fail 300"
# RUN: n=16 args="fail 100" timeout=120
# RUN: n=3 args="held 50"
set -u
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
fail() { echo "order.sh: $1" >&2; head -c 2000 "$out" >&2; exit 1; }
if [ "$1" = held ]; then
    dir=$(mktemp -d) || exit 1
    trap 'rm -rf "$out" "$dir"' EXIT
    "$O/tests/ebsp/order_host" fail "$2" "$dir" >"$out" 2>&1 &
    job=$!
    while [ ! -e "$dir/host" ] && kill -0 $job 2>/dev/null; do sleep 0.01; done
    host=$(cat "$dir/host" 2>/dev/null)
    [ -n "$host" ] || fail "the kernel did not say its host's pid"
    kill -STOP "$host"
    touch "$dir/stopped"
    sleep 3
    kill -CONT "$host"
    wait $job
    rc=$?
else
    "$O/tests/ebsp/order_host" "$@" >"$out" 2>&1
    rc=$?
fi
case $1 in
rounds)
    [ $rc = 0 ] || fail "exit status $rc"
    awk -v n="$2" '
        { v = substr($0, 6) + 0; if (NR - 1 != v) { print "line " NR ": " $0 " out of order" > "/dev/stderr"; exit 1 } }
        END { if (NR != n) { print NR " lines, not " n > "/dev/stderr"; exit 1 } }' "$out" || fail "bad order"
    ;;
fail | held)
    [ $rc = 3 ] || fail "exit status $rc, not 3 (a failed run)"
    err=$(grep -n "^superstep: bsp_put: processor $((SUPERSTEP_NPROCS - 1)), superstep 1: pid $SUPERSTEP_NPROCS out of range" "$out" | cut -d: -f1)
    [ -n "$err" ] || fail "no error line"
    last=$(grep -n "^\$[0-9]*: line $(($2 - 1))\$" "$out" | cut -d: -f1)
    [ -n "$last" ] || fail "the last message is missing"
    [ "$last" -lt "$err" ] || fail "the error line (line $err) overtook a message (line $last)"
    ;;
esac
