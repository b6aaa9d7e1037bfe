# options.sh - the profiler is off by default and writes nothing; bsprun
# --profile turns it on; a trace that cannot be written is a warning, not a
# failure; a job that fails writes no trace and leaves nothing behind; a
# real program (the sort example) gives valid JSON.
# RUN: n=2
# RUN: n=5
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "options.sh: $*" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
bin=$PWD/$O/tests/profile/traffic
bsprun=$PWD/$BINDIR/bsprun
here=$PWD

# Off by default: nothing appears in the working directory.
(cd "$dir" && env -u SUPERSTEP_PROFILE "$bin") || fail "traffic without profile: status $?"
[ -z "$(ls -A "$dir")" ] || fail "files written without SUPERSTEP_PROFILE: $(ls -A "$dir")"

# bsprun --profile FILE.
"$bsprun" -n "$p" --profile "$dir/b.json" "$bin" || fail "bsprun --profile: status $?"
python3 -m json.tool "$dir/b.json" >/dev/null || fail "bsprun --profile: invalid JSON"
rm -f "$dir/b.json"

# A trace that cannot be written: a warning, the program still succeeds.
SUPERSTEP_PROFILE=$dir/no/such/dir/t.json "$bin" 2>"$dir/err" || fail "unwritable trace made the program fail"
grep -q "SUPERSTEP_PROFILE: cannot write $dir/no/such/dir/t.json" "$dir/err" || fail "no warning: $(cat "$dir/err")"
rm -f "$dir/err"

# A failing job: non-zero status, no trace, nothing left.
if SUPERSTEP_PROFILE=$dir/f.json "$bin" abort 2>/dev/null; then fail "aborting job exited 0"; fi
[ -z "$(ls -A "$dir")" ] || fail "failed job left: $(ls -A "$dir")"

# A real program.
SUPERSTEP_PROFILE=$dir/sort.json "$here/$O/examples/sort" 20000 >/dev/null || fail "sort under the profiler: status $?"
python3 - "$dir/sort.json" "$p" <<'PY' || fail "sort trace is wrong"
import json, sys
t = json.load(open(sys.argv[1]))
p = int(sys.argv[2])
xs = [e for e in t["traceEvents"] if e.get("ph") == "X"]
assert sorted({e["tid"] for e in xs}) == list(range(1, p + 1)), "tracks"
n = t["otherData"]["supersteps"]
assert n >= 2 and all(len([e for e in xs if e["tid"] == s + 1 and e["name"].startswith("superstep")]) == n for s in range(p)), "supersteps"
assert max(e["args"]["h_bytes"] for e in xs if e["name"].startswith("superstep")) > 0, "no traffic seen"
PY
"$here/$BINDIR/bspprof" "$dir/sort.json" >/dev/null || fail "bspprof on the sort trace: status $?"
exit 0
