# html.sh - bspprof --html writes one self-contained page (nothing it would
# fetch: no link, src, import or url()) that a real browser (Chromium,
# headless) opens with no console message at all, whose script draws one
# measured and one predicted bar per superstep, and whose timeline has the
# work, waiting and communication bars of every superstep (traffic.c has 6).
# RUN: n=2 timeout=180
# RUN: n=3 timeout=180
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "html.sh: $*" >&2; exit 1; }
if ! browser=$(command -v chromium || command -v chromium-browser); then
    case " ${SUPERSTEP_TEST_REQUIRE:-} " in
        *" chromium "*) fail "Chromium is needed for this test (apt-get install chromium; .ci/run installs it)" ;;
    esac
    echo "SKIP: no Chromium to open the page in (apt-get install chromium; SUPERSTEP_TEST_REQUIRE=chromium makes this a failure)"
    exit 77
fi
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
SUPERSTEP_PROFILE=$dir/t.json "$O/tests/profile/traffic" || fail "traffic: status $?"
"$BINDIR/bspprof" --html "$dir/t.html" -g 0.01 -l 1 "$dir/t.json" || fail "bspprof --html: status $?"
[ -s "$dir/t.html" ] || fail "no page written"
[ "$(ls -A "$dir" | sort | tr '\n' ' ')" = "t.html t.json " ] || fail "files beside the page: $(ls -A "$dir")"
if grep -Eio '<link|src=|@import|url\(|https?://[^"'\'']*' "$dir/t.html" | grep -v '^http://www.w3.org/2000/svg$'; then
    fail "the page refers to something outside itself (above)"
fi

# The browser: its DOM after the scripts ran, and its console on stderr.
"$browser" --headless --disable-gpu --no-sandbox --user-data-dir="$dir/chrome" --enable-logging=stderr --v=0 \
    --dump-dom "file://$dir/t.html" >"$dir/dom.html" 2>"$dir/console" </dev/null || fail "chromium: status $?"
if grep -F ':CONSOLE' "$dir/console"; then
    fail "console messages (above)"
fi
python3 - "$dir/dom.html" "$p" <<'PY' || fail "the page as drawn is wrong (above)"
import re, sys
dom, p = open(sys.argv[1]).read(), int(sys.argv[2])
steps = set(range(6))
def rects(cls):
    return re.findall(r'<rect class="%s" data-step="(\d+)"' % cls, dom)
assert re.search(r'<body[^>]*data-drawn="6"', dom), "the script did not draw 6 supersteps"
assert {int(s) for s in rects("measured")} == steps and len(rects("measured")) == 6, rects("measured")
assert {int(s) for s in rects("predicted")} == steps and len(rects("predicted")) == 6, rects("predicted")
assert {int(s) for s in rects("work")} == steps, "work bars: %s" % rects("work")
assert len(rects("work")) == 6 * p, "work bars: %d for %d processors" % (len(rects("work")), p)
assert {int(s) for s in rects("wait")} <= steps and len(rects("wait")) >= 5, "wait bars"
assert len(rects("comm")) >= 1, "no communication bar"
assert dom.count("processor %d</text>" % (p - 1)) == 1 and "processor %d</text>" % p not in dom, "processor rows"
PY
exit 0
