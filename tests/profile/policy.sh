# policy.sh - the trace's size policy: with SUPERSTEP_PROFILE_STEPS=20 a run
# of 300 supersteps traces, slice by slice, the first 20, the costliest
# (tests/profile/steps.c makes superstep 150 work 100 ms) and the last,
# while its totals, per-processor figures and list of the costliest cover
# every superstep; bspprof says so and its summary names superstep 150
# first; the trace stays small; a bad SUPERSTEP_PROFILE_STEPS is an error
# from the settings parser.
# RUN: n=2 timeout=120
# RUN: n=3 timeout=120
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "policy.sh: $*" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
SUPERSTEP_PROFILE_STEPS=20 SUPERSTEP_PROFILE=$dir/t.json "$O/tests/profile/steps" 300 150 || fail "steps: status $?"
python3 - "$dir/t.json" "$p" <<'PY' || fail "trace (above)"
import json, sys
t = json.load(open(sys.argv[1]))
p = int(sys.argv[2])
od = t["otherData"]
assert od["supersteps"] == 301 and od["syncs"] == 300 and od["complete"] is True, od
assert od["detail_limit"] == 20, od
steps = sorted({e["args"]["step"] for e in t["traceEvents"] if e.get("ph") == "X"})
assert steps[:20] == list(range(20)), steps
assert 150 in steps and 300 in steps, steps
assert len(steps) == od["traced_supersteps"] <= 20 + 10 + 1, (len(steps), od["traced_supersteps"])
assert od["costliest"][0]["step"] == 150 and od["costliest"][0]["time_us"] >= 100000, od["costliest"]
assert len(od["costliest"]) == 10 and all(c["step"] in steps for c in od["costliest"]), od["costliest"]
tot = od["totals"]
assert abs(tot["time_us"] - (tot["work_us"] + tot["comm_us"] + tot["wait_us"])) < 1, tot
assert tot["time_us"] >= 100000 and tot["wall_us"] >= 100000, tot
assert len(od["per_processor"]) == p and od["per_processor"][0]["work_us"] >= 100000, od["per_processor"]
PY
size=$(stat -c %s "$dir/t.json")
[ "$size" -lt $((40000 * p)) ] || fail "trace of $size bytes for 31 traced supersteps"
"$BINDIR/bspprof" --summary --top 1 "$dir/t.json" >"$dir/sum" || fail "bspprof --summary: status $?"
grep -q "^$dir/t.json: $p processors, 301 supersteps ([0-9]* traced slice by slice: the first ones and the costliest; totals cover all)" "$dir/sum" ||
    fail "bspprof does not say what was traced: $(head -2 "$dir/sum")"
awk '/costliest supersteps:/ { on = 1; next } on && $1 ~ /^[0-9]+$/ { print $1; exit }' "$dir/sum" | grep -qx 150 ||
    fail "the costliest superstep is not 150: $(cat "$dir/sum")"

SUPERSTEP_PROFILE_STEPS=lots SUPERSTEP_PROFILE=$dir/u.json "$O/tests/profile/steps" 30 5 2>"$dir/err" && fail "bad SUPERSTEP_PROFILE_STEPS accepted"
grep -q "SUPERSTEP_PROFILE_STEPS='lots' is not accepted" "$dir/err" ||
    fail "bad SUPERSTEP_PROFILE_STEPS: '$(cat "$dir/err")'"
SUPERSTEP_PROFILE=$dir/u.json "$O/tests/profile/steps" 30 5 || fail "status $?"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["otherData"]["traced_supersteps"] == 31' "$dir/u.json" ||
    fail "with the default limit not every superstep of 31 is traced"
exit 0
