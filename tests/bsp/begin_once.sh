# begin_once.sh - output around bsp_begin/bsp_end appears exactly once: text
# buffered before bsp_begin is not duplicated into the forked processors, only
# processor 0 continues after bsp_end, and every processor's output written
# before bsp_end is kept (flushed).
# RUN: n=1
# RUN: n=3
# RUN: n=8
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "begin_once.sh: $*" >&2; exit 1; }
count() { grep -c -x -- "$1" "$2"; }

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
for prog in begin_main begin_init; do
    "$O/tests/bsp/$prog" >"$out" || fail "$prog exited with status $?"
    case $prog in
        begin_main) first="before bsp_begin" last="after bsp_end" ;;
        begin_init) first="before spmd" last="after spmd 0" ;;
    esac
    [ "$(count "$first" "$out")" = 1 ] || fail "$prog: '$first' not printed exactly once: $(cat "$out")"
    [ "$(count "$last" "$out")" = 1 ] || fail "$prog: '$last' not printed exactly once: $(cat "$out")"
    [ "$(head -n 1 "$out")" = "$first" ] || fail "$prog: '$first' is not the first line"
    for s in $(seq 0 $((p - 1))); do
        [ "$(count "processor $s" "$out")" = 1 ] || fail "$prog: 'processor $s' not printed exactly once"
    done
    [ "$(wc -l <"$out")" = $((p + 2)) ] || fail "$prog: unexpected output: $(cat "$out")"
done
