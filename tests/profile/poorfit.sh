# poorfit.sh - bspprof -b with a bench file whose fit bspbench judged poor
# flags it on stderr, on stdout and on the HTML page; one with a negative
# g or l (an older bspbench's least-squares fit) is refused: one line,
# status 1; a good one is used without a word.
# RUN: n=2 timeout=120
set -u
fail() { echo "poorfit.sh: $*" >&2; exit 1; }
d=$(mktemp -d) || exit 1
trap 'rm -rf "$d"' EXIT
SUPERSTEP_PROFILE=$d/t.json "$O/tests/profile/traffic" >/dev/null || fail "traffic: status $?"
line="summary: p=2 r_mflops=1000.000 g_flop=20.000 l_flop=500.0 g_us=0.020000 l_us=0.5000 t0_us=0.4000"
echo "$line noise=0.3000 fit=poor noisy=1" >"$d/poor"
echo "$line noise=0.0100 fit=good noisy=0" >"$d/good"
echo "summary: p=2 r_mflops=1000.000 g_flop=-118163.8 l_flop=500.0 g_us=-118.1638 l_us=0.5000 t0_us=0.4 noisy=1" >"$d/neg"
"$BINDIR/bspprof" -b "$d/poor" "$d/t.json" >"$d/out" 2>"$d/err" || fail "poor: status $?"
[ "$(cat "$d/err")" = "bspprof: warning: $d/poor: bspbench judged its fit poor: g and l are unreliable" ] ||
    fail "poor: stderr '$(cat "$d/err")'"
grep -q "^POOR FIT: bspbench judged the fit that gave g and l poor" "$d/out" || fail "poor: not flagged on stdout"
"$BINDIR/bspprof" -b "$d/poor" --html "$d/p.html" "$d/t.json" 2>/dev/null || fail "poor --html: status $?"
grep -q '<p id="poorfit"[^>]*>POOR FIT' "$d/p.html" || fail "poor: not flagged on the page"
"$BINDIR/bspprof" -b "$d/good" --html "$d/g.html" "$d/t.json" >"$d/out" 2>"$d/err" || fail "good: status $?"
[ ! -s "$d/err" ] && ! grep -q poorfit "$d/g.html" || fail "good: flagged: $(cat "$d/err")"
"$BINDIR/bspprof" -b "$d/neg" "$d/t.json" >"$d/out" 2>"$d/err"
rc=$?
[ "$rc" = 1 ] || fail "negative g: status $rc, want 1"
[ "$(cat "$d/err")" = "bspprof: $d/neg: g = -118.164 us is negative, not a BSP machine parameter: run bspbench again" ] ||
    fail "negative g: '$(cat "$d/err")'"
[ ! -s "$d/out" ] || fail "negative g: something printed"
exit 0
