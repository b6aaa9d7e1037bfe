# bspprof.sh - bspprof's options (--help, --version, a clear one-line error
# and status 2 for every bad option or value, status 1 for a bad file) and
# its views: on a real program (the sort example) every superstep's
# work + comm + wait is its time T and none is negative, w <= T; --procs
# gives each processor's split, which adds up too; --summary gives the
# totals, per processor, and the costliest supersteps with the prediction
# and ratio; the default view explains its columns (h(rec) too); -b with a
# bspbench run for another p warns, on stderr and on the --html page; the
# page gives its total and the parts in one unit and every figure column of
# its costliest supersteps a unit.
# RUN: n=2
# RUN: n=4
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "bspprof.sh: $*" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
prof=$BINDIR/bspprof

# Options.
"$prof" --help | grep -q -- "--summary" || fail "--help does not list --summary"
"$prof" -h | grep -q "^usage: bspprof" || fail "-h"
"$prof" --version | grep -Eq "^bspprof \(Superstep\) [0-9]+\.[0-9]+" || fail "--version: $("$prof" --version)"
expect() { # status ERE args...
    local want=$1 ere=$2 out rc
    shift 2
    out=$("$prof" "$@" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" = "$want" ] || fail "bspprof $*: status $rc, want $want ($out)"
    [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "bspprof $*: not one line: $out"
    printf '%s\n' "$out" | grep -Eq -- "$ere" || fail "bspprof $*: '$out' does not match /$ere/"
}
SUPERSTEP_PROFILE=$dir/t.json "$O/examples/sort" 30000 >/dev/null || fail "sort: status $?"
t=$dir/t.json
expect 2 "^bspprof: no trace file given" 
expect 2 "^bspprof: --frobnicate: unknown option" --frobnicate "$t"
expect 2 "^bspprof: -x: unknown option" -x "$t"
expect 2 "^bspprof: -g: 'abc' is not a number" -g abc -l 1 "$t"
expect 2 "^bspprof: -l: '-3' is not a number >= 0" -g 1 -l -3 "$t"
expect 2 "^bspprof: -w: '0' is not a positive number" -w 0 "$t"
expect 2 "^bspprof: --top: '2.5' is not a whole number" --summary --top 2.5 "$t"
expect 2 "^bspprof: -g: needs a value" "$t" -g
expect 2 "^bspprof: -g and -l go together" -g 1 "$t"
expect 2 "^bspprof: one trace file at a time" "$t" "$t"
expect 2 "^bspprof: --summary and --procs are two views" -s -p "$t"
expect 1 "^bspprof: cannot open $dir/none.json: No such file" "$dir/none.json"
echo '{"traceEvents": [' >"$dir/bad.json"
expect 1 "^bspprof: $dir/bad.json:2: invalid JSON" "$dir/bad.json"
echo '{"traceEvents": []}' >"$dir/empty.json"
expect 1 "^bspprof: $dir/empty.json: no supersteps in it" "$dir/empty.json"
expect 1 "^bspprof: $dir/none.out: No such file|^bspprof: cannot open $dir/none.out" -b "$dir/none.out" "$t"
echo "nothing here" >"$dir/x.out"
expect 1 "^bspprof: $dir/x.out: no bspbench result line" -b "$dir/x.out" "$t"

# The default view: T = work + comm + wait, none negative, w <= T.
"$prof" -g 0.01 -l 5 "$t" >"$dir/steps" || fail "bspprof: status $?"
awk -v p="$p" '
    $1 ~ /^[0-9]+$/ && NF >= 12 {
        n++
        if ($3 < 0 || $4 < 0 || $5 < 0) { print "negative figure: " $0; bad = 1 }
        if (($3 + $4 + $5) - $2 > 0.01 || $2 - ($3 + $4 + $5) > 0.01) { print "work+comm+wait != T: " $0; bad = 1 }
        if ($7 - $2 > 0.001) { print "w > T: " $0; bad = 1 }
        if ($6 < 0 || $6 >= p) { print "critical processor out of range: " $0; bad = 1 }
    }
    END { if (n < 3) { print "only " n " supersteps"; bad = 1 } exit bad }' "$dir/steps" || fail "figures (above)"
grep -q "^total: T .* = work .* + comm .* + wait" "$dir/steps" || fail "no total line"
grep -q "^h(rec): the most records (puts, messages, get replies) one processor sent or received" "$dir/steps" ||
    fail "the column h(rec) is not explained: $(head -n 6 "$dir/steps")"
grep -q "^BSP prediction for the run: .* measured/predicted [0-9.]*$" "$dir/steps" || fail "no prediction for the run"

# --procs: each processor's time = work + comm + wait, for every superstep.
"$prof" --procs "$t" >"$dir/procs" || fail "--procs: status $?"
awk -v p="$p" '
    $1 ~ /^[0-9]+$/ && NF == 9 {
        n++
        if ($4 < 0 || $5 < 0 || $6 < 0 || $7 < 0) { print "negative: " $0; bad = 1 }
        d = $3 - ($4 + $5 + $6); if (d > 0.01 || d < -0.01) { print "time != sum: " $0; bad = 1 }
    }
    END { if (n % p || n < 3 * p) { print n " rows for " p " processors"; bad = 1 } exit bad }' "$dir/procs" ||
    fail "--procs (above)"

# --summary: totals, per processor, the costliest with prediction and ratio.
"$prof" --summary --top 3 -g 0.01 -l 5 "$t" >"$dir/sum" || fail "--summary: status $?"
grep -q "^total: T" "$dir/sum" || fail "--summary: no totals"
[ "$(awk '/^per processor/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { n++ } /^$/ { on = 0 } END { print n + 0 }' "$dir/sum")" = "$p" ] ||
    fail "--summary: not one row per processor: $(cat "$dir/sum")"
grep -q "^the 3 costliest supersteps:" "$dir/sum" || fail "--summary: no costliest"
awk '/costliest/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { n++; if (prev != "" && $2 > prev + 0.001) bad = 1; prev = $2; if (NF != 9) bad = 1 }
     END { exit bad || n != 3 }' "$dir/sum" || fail "--summary: costliest not 3 rows, costliest first, with prediction: $(cat "$dir/sum")"

# -b: a bspbench run for another p warns; for this p it does not.
printf 'p= %d, r= 100.0 Mflop/s, g= 2.0, l= 300.0\nsummary: p=%d g_us=0.02 l_us=3\n' $((p + 1)) $((p + 1)) >"$dir/other.out"
"$prof" -b "$dir/other.out" "$t" 2>"$dir/err" >/dev/null || fail "-b other p: status $?"
grep -q "^bspprof: warning: $dir/other.out is a bspbench run on p=$((p + 1)), the trace has $p processors" "$dir/err" ||
    fail "-b for another p: no warning: $(cat "$dir/err")"
"$prof" -b "$dir/other.out" --html "$dir/other.html" "$t" 2>"$dir/err" || fail "-b other p --html: status $?"
grep -q "<p id=\"otherp\"[^>]*>WARNING: $dir/other.out is a bspbench run on p=$((p + 1)), the trace has $p processors" \
    "$dir/other.html" || fail "-b for another p: the page does not warn"
# The page's total: one unit for the total, its parts and the wall clock;
# the costliest supersteps' figure columns each with a unit.
grep -Eq "Total: [0-9.e+-]+ (s|ms|us) = work [0-9.e+-]+ \+ communication [0-9.e+-]+ \+ waiting [0-9.e+-]+ \1 \(.*\); wall clock [0-9.e+-]+ \1\.</p>" \
    "$dir/other.html" || fail "the page's total mixes units: $(grep -o 'Total: [^<]*' "$dir/other.html")"
python3 - "$dir/other.html" <<'PY' || fail "the costliest supersteps' columns (above)"
import re, sys
page = open(sys.argv[1]).read()
table = page[page.index("<h2>The costliest supersteps</h2>"):]
heads = re.findall(r"<th>([^<]*)</th>", table[:table.index("</tr>")])
bare = [h for h in heads if h not in ("superstep", "processor", "T/predicted") and not re.search(r"\(\w+\)$", h)]
assert not bare and len(heads) == 9, "columns without a unit: %s (of %s)" % (bare, heads)
PY
printf 'summary: p=%d g_us=0.02 l_us=3\n' "$p" >"$dir/same.out"
"$prof" -b "$dir/same.out" "$t" 2>"$dir/err" >/dev/null || fail "-b: status $?"
[ ! -s "$dir/err" ] || fail "-b for the same p warned: $(cat "$dir/err")"
"$prof" -b "$dir/same.out" --html "$dir/same.html" "$t" 2>"$dir/err" || fail "-b --html: status $?"
! grep -q 'id="otherp"' "$dir/same.html" || fail "-b for the same p: the page warns"
exit 0
