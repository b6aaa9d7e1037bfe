# html.sh - bspprof --html writes one self-contained page (nothing it would
# fetch: no link, src, import or url()) that a real browser (Chromium,
# headless) opens with no console message at all; its script draws one
# measured and one predicted bar per superstep, each at least a pixel high
# and wide; its timeline has the work, waiting and communication bars of
# every superstep (traffic.c has 6) and each processor's start-up, which
# the page explains; every superstep has a tooltip in both pictures; no
# label lies outside its picture or over another (measured in the browser
# by tests/profile/html_check.js); the ticks are round (1, 2 or 5 times a
# power of ten) in the unit the run's length asks for (a run of 2.7 s,
# tests/profile/html_trace.py, is in s); the page says where g and l came
# from.  Screenshots of the pages are taken (kept in
# $SUPERSTEP_HTML_SHOTS when it names a folder).  Without Chromium the
# test is skipped, unless SUPERSTEP_TEST_REQUIRE names chromium.
# RUN: n=2 timeout=300
# RUN: n=3 timeout=300
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "html.sh: $*" >&2; exit 1; }
. tests/require.sh
require chromium chromium chromium-browser
browser=$required
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
chrome() { "$browser" --headless --disable-gpu --no-sandbox --user-data-dir="$dir/chrome" --window-size=1400,1000 "$@" </dev/null; }

# page NAME P BSPPROF-OPTIONS...: write $dir/NAME.html from $dir/NAME.json,
# open it, check it (as above); the rest is NAME-specific (below).
page() {
    local name=$1 procs=$2
    shift 2
    "$BINDIR/bspprof" --html "$dir/$name.html" "$@" "$dir/$name.json" || fail "bspprof --html $name: status $?"
    [ -s "$dir/$name.html" ] || fail "no page written for $name"
    if grep -Eio '<link|src=|@import|url\(|https?://[^"'\'']*' "$dir/$name.html" | grep -v '^http://www.w3.org/2000/svg$'; then
        fail "the page of $name refers to something outside itself (above)"
    fi
    # One browser start both dumps the page's DOM and takes its screenshot
    # (each start costs about 2 s of CPU; this test used to start three per page).
    chrome --enable-logging=stderr --v=0 --dump-dom --screenshot="$dir/$name.png" "file://$dir/$name.html" \
        >"$dir/$name.dom" 2>"$dir/console" || fail "chromium: status $?"
    if grep -F ':CONSOLE' "$dir/console"; then
        fail "console messages on the page of $name (above)"
    fi
    sed 's|</body>|<script>\n'"$(sed 's/[&|\\]/\\&/g' tests/profile/html_check.js | tr '\n' '\r')"'\n</script></body>|' \
        "$dir/$name.html" | tr '\r' '\n' >"$dir/$name.check.html"
    chrome --dump-dom "file://$dir/$name.check.html" >"$dir/$name.checked" 2>/dev/null || fail "chromium (check): status $?"
    [ "$(head -c 8 "$dir/$name.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] && [ "$(wc -c <"$dir/$name.png")" -gt 10000 ] ||
        fail "no screenshot of $name"
    if [ -n "${SUPERSTEP_HTML_SHOTS:-}" ]; then cp "$dir/$name.png" "$SUPERSTEP_HTML_SHOTS/" || fail "cannot keep the screenshot"; fi
    python3 - "$dir/$name" "$procs" <<'PY' || fail "the page of $name as drawn is wrong (above)"
import html, json, math, re, sys
base, p = sys.argv[1], int(sys.argv[2])
dom = open(base + ".dom").read()
trace = json.load(open(base + ".json"))
steps = sorted({e["args"]["step"] for e in trace["traceEvents"] if e.get("name", "").startswith("superstep ")})
n = len(steps)
def rects(cls):
    return [int(s) for s in re.findall(r'<rect class="%s" data-step="(\d+)"' % cls, dom)]
assert re.search(r'<body[^>]*data-drawn="%d"' % n, dom), "the script did not draw %d supersteps" % n
assert sorted(rects("measured")) == steps, "measured bars %s" % rects("measured")
assert sorted(rects("predicted")) == steps, "predicted bars %s" % rects("predicted")
assert sorted(rects("hover")) == steps, "tooltips of the model %s" % rects("hover")
tips = re.findall(r'<rect class="hover steplabel" data-step="(\d+)"[^>]*><title>superstep (\d+): T ', dom)
assert sorted(int(a) for a, b in tips if a == b) == steps, "timeline tooltips %s" % tips
assert set(rects("work")) == set(steps), "work bars: %s" % sorted(set(rects("work")))
assert dom.count("processor %d</text>" % (p - 1)) == 1 and "processor %d</text>" % p not in dom, "processor rows"
assert "start-up inside bsp_begin" in dom and "is its start-up inside bsp_begin" in dom, "start-up not explained"
source = re.search(r'<p id="model-source">(.*?)</p>', dom, re.S)
assert source and re.search(r"(measured by bspbench on p = \d+|given on the command line \(-g and -l\))", source.group(1)), \
    "where g and l came from: %s" % (source and source.group(1))
check = json.loads(html.unescape(re.search(r'data-check="([^"]*)"', open(base + ".checked").read()).group(1)))
assert not check["clipped"], "labels outside the picture: %s" % check["clipped"][:5]
assert not check["overlaps"], "labels over each other: %s" % check["overlaps"][:5]
for cls in ("measured", "predicted"):
    thin = [b for b in check["bars"][cls] if b[1] < 0.99 or b[2] < 0.99]
    assert not thin, "%s bars under a pixel: %s" % (cls, thin[:5])
units = {}
for axis, labels in check["ticks"].items():
    parsed = [re.fullmatch(r"(\d+(?:\.\d+)?) (s|ms|us)", t) for t in labels]
    assert labels and all(parsed), "%s ticks %s" % (axis, labels)
    unit = {m.group(2) for m in parsed}
    assert len(unit) == 1, "%s ticks mix units: %s" % (axis, labels)
    values = [float(m.group(1)) for m in parsed]
    step = values[1] - values[0]
    mant = step / 10 ** math.floor(math.log10(step))
    assert values[0] == 0 and any(abs(mant - r) < 1e-6 for r in (1, 2, 5)), "%s ticks not round: %s" % (axis, labels)
    assert all(abs(b - a - step) < 1e-6 * max(1, step) for a, b in zip(values, values[1:])), "%s ticks uneven: %s" % (axis, labels)
    assert values[-1] < 1000 and (unit == {"us"} or values[-1] >= 0.5), "%s ticks in the wrong unit: %s" % (axis, labels)
    units[axis] = unit.pop()
open(base + ".units", "w").write(" ".join("%s=%s" % kv for kv in sorted(units.items())))
PY
}

# A real run: traffic.c on P processors.
SUPERSTEP_PROFILE=$dir/t.json "$O/tests/profile/traffic" || fail "traffic: status $?"
page t "$p" -g 0.01 -l 1
[ "$(ls -A "$dir" | grep -v '^chrome$' | sort | tr '\n' ' ')" = "console t.check.html t.checked t.dom t.html t.json t.png t.units " ] ||
    fail "files beside the page: $(ls -A "$dir")"
grep -q 'given on the command line (-g and -l)' "$dir/t.html" || fail "the page does not say g and l were given"
python3 - "$dir/t.dom" "$p" <<'PY' || fail "the timeline of traffic is wrong (above)"
import re, sys
dom, p = open(sys.argv[1]).read(), int(sys.argv[2])
def rects(cls):
    return re.findall(r'<rect class="%s" data-step="(\d+)"' % cls, dom)
assert len(rects("work")) == 6 * p, "work bars: %d for %d processors" % (len(rects("work")), p)
assert {int(s) for s in rects("wait")} <= set(range(6)) and len(rects("wait")) >= 5, "wait bars"
assert len(rects("comm")) >= 1, "no communication bar"
assert len(rects("startup")) == p, "start-up bars: %d for %d processors" % (len(rects("startup")), p)
PY

# g and l from a bspbench output.
printf 'summary: p=%s g_us=0.02 l_us=2.5\n' "$p" >"$dir/bench.out"
cp "$dir/t.json" "$dir/b.json"
page b "$p" -b "$dir/bench.out"
grep -q "measured by bspbench on p = $p (its output $dir/bench.out, read with -b)" "$dir/b.html" || fail "the page does not say g and l came from bspbench"

# A run of 2.7 s, its longest superstep 1.39 s: ticks in s, labels unclipped.
python3 tests/profile/html_trace.py "$dir/long.json" "$p" 200000 1393308.6 900000 150000 50000
page long "$p" -g 0.5 -l 20000
[ "$(cat "$dir/long.units")" = "model=s timeline=s" ] || fail "a run of 2.7 s is drawn in $(cat "$dir/long.units")"

# 300 supersteps: each one still drawn and with its tooltip.
python3 tests/profile/html_trace.py "$dir/many.json" "$p" $(seq 40 339)
page many "$p" -g 0.01 -l 5
exit 0
