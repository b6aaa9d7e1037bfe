# begin.sh - output around bsp_begin/bsp_end on the mpi device (see
# begin.c): every processor's lines once; in the bsp_init style main's lines
# once (only processor 0 runs main); after bsp_end only processor 0.  In the
# bsp_begin-in-main style every rank runs what main does before bsp_begin
# (so a line printed there appears once per rank): the BSPlib standard asks
# for bsp_begin first in main, or bsp_init.
# RUN: n=3
# RUN: n=8
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "begin.sh: $*" >&2; exit 1; }
count() { grep -c -x -- "$1" "$2"; }
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
for mode in main init; do
    $MPIRUN -n "$p" "$O/tests/mpi/begin" $mode >"$out" || fail "$mode exited with status $?"
    case $mode in
        main) first="" last="after bsp_end" extra=1 ;;
        init) first="before spmd" last="after spmd 1" extra=2 ;;
    esac
    if [ -n "$first" ]; then
        [ "$(count "$first" "$out")" = 1 ] || fail "$mode: '$first' not printed exactly once: $(cat "$out")"
    fi
    [ "$(count "$last" "$out")" = 1 ] || fail "$mode: '$last' not printed exactly once: $(cat "$out")"
    for s in $(seq 0 $((p - 1))); do
        [ "$(count "processor $s" "$out")" = 1 ] || fail "$mode: 'processor $s' not printed exactly once"
    done
    [ "$(wc -l <"$out")" = $((p + extra)) ] || fail "$mode: unexpected output: $(cat "$out")"
done
