# options.sh - the profiler is off by default and writes nothing; bsprun
# --profile turns it on; a trace that cannot be written is a warning, not a
# failure; a job that fails keeps the trace of the supersteps it completed
# (marked incomplete) and leaves nothing else behind; a real program (the
# sort example) gives valid JSON.
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

# A failing job: non-zero status, the trace of what it completed, nothing else.
if SUPERSTEP_PROFILE=$dir/f.json "$bin" abort 2>"$dir/err"; then fail "aborting job exited 0"; fi
grep -q "the job failed in superstep 3; $dir/f.json holds the supersteps up to the failure" "$dir/err" ||
    fail "no note: $(cat "$dir/err")"
rm -f "$dir/err"
[ "$(ls -A "$dir")" = f.json ] || fail "failed job left: $(ls -A "$dir")"
python3 - "$dir/f.json" "$p" <<'PY' || fail "the trace of the aborted job is wrong"
import json, sys
t = json.load(open(sys.argv[1]))
od = t["otherData"]
assert od["complete"] is False, od
# The last processor aborts after sync 2; another may be stopped before
# it finished recording that sync (it is then kept as stopped there): 3
# supersteps every processor reached, and superstep 3 up to the abort.
r = od["reached"]
assert len(r) == int(sys.argv[2]) and r == [3] * len(r) and od["supersteps"] == 4, od
assert od["failure"]["step"] == 3 and od["failure"]["line"].endswith("superstep 3: traffic: aborting in superstep 2 as asked"), od
assert len([e for e in t["traceEvents"] if e["name"].startswith("superstep")]) == od["supersteps"] * len(r)
PY
rm -f "$dir/f.json"

# A processor killed by a signal: another one, and processor 0 itself.
for who in $((p - 1)) 0; do
    if SUPERSTEP_PROFILE=$dir/c.json "$bin" crash "$who" 2>"$dir/err"; then fail "crashing job exited 0"; fi
    grep -q "processor $who killed by signal 11" "$dir/err" || fail "crash of $who: $(cat "$dir/err")"
    grep -q "the job failed in superstep 3; $dir/c.json holds the supersteps up to the failure" "$dir/err" ||
        fail "crash of $who: no note: $(cat "$dir/err")"
    python3 - "$dir/c.json" "$p" "$who" <<'PY' || fail "the trace of the job whose processor $who crashed is wrong"
import json, sys
od = json.load(open(sys.argv[1]))["otherData"]
r = od["reached"]
assert od["complete"] is False and r == [3] * int(sys.argv[2]) and od["supersteps"] == 4, od
assert od["failure"] == {"line": "processor %s killed by signal 11 (SIGSEGV) in superstep 3" % sys.argv[3], "step": 3}, od
PY
    rm -f "$dir/c.json" "$dir/err"
done

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
