# trace.sh - SUPERSTEP_PROFILE=trace.json writes one valid Chrome trace with
# one track per processor, the right supersteps and the right h-relations
# (tests/profile/traffic.c has known traffic), slices that nest inside their
# superstep, nothing else left behind; bspprof reads it back.
# Usage: trace.sh [direct|nodirect]
# RUN: n=1
# RUN: n=2
# RUN: n=3
# RUN: n=4 args="nodirect"
# RUN: n=8
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "trace.sh: $*" >&2; exit 1; }
command -v python3 >/dev/null || fail "python3 is needed to check the JSON"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
[ "${1:-}" = nodirect ] && export SUPERSTEP_NO_DIRECT=1

SUPERSTEP_PROFILE=$dir/trace.json "$O/tests/profile/traffic" || fail "traffic exited with status $?"
[ -s "$dir/trace.json" ] || fail "no trace written"
python3 -m json.tool "$dir/trace.json" >/dev/null || fail "trace.json is not valid JSON"
left=$(ls -A "$dir")
[ "$left" = trace.json ] || fail "files left beside the trace: $left"

python3 tests/profile/check_trace.py "$dir/trace.json" "$p" || fail "trace content is wrong (above)"

# bspprof: one row per superstep, h in 8-byte words, and the model columns.
out=$("$BINDIR/bspprof" -g 0.01 -l 1 "$dir/trace.json") || fail "bspprof exited with status $?"
printf '%s\n' "$out"
hw=$(printf '%s\n' "$out" | awk '$1 ~ /^[0-9]+$/ { printf "%s ", $9 }')
[ "$hw" = "0 $p $((5 * p)) 3 125 0 " ] || fail "bspprof h(words) column: '$hw'"
printf '%s\n' "$out" | grep -q "^$p processors\|: $p processors, 6 supersteps" || fail "bspprof header"
printf '%s\n' "$out" | grep -q "predicted" || fail "bspprof printed no prediction"
printf 'summary: p=%s g_us=0.02 l_us=2.5\n' "$p" >"$dir/bench.out"
"$BINDIR/bspprof" -b "$dir/bench.out" "$dir/trace.json" | grep -q "g = 0.0200 us per 8-byte word, l = 2.500 us" ||
    fail "bspprof -b did not read g and l"
exit 0
