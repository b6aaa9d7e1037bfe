# failed.sh - a job that fails keeps, in its trace, every superstep up to
# the failure (docs/profiling.md): an error in superstep 1 keeps
# superstep 0 and superstep 1 up to the error, a bsp_abort in superstep 3
# keeps 0..3, and so does a processor killed by a signal; the failing
# processor computed until the failure there; the trace is marked
# incomplete and holds the job's line, and bspprof reads it and says both.
# A processor stopped inside the bsp_sync of a superstep that the others
# completed (tests/profile/fail_at.c stops one with SIGSTOP while it
# sleeps in the barrier) keeps that superstep in the trace, marked stopped
# there, and bspprof names it.  On more processors
# than cores each case runs three times: whether a processor is still
# inside its last bsp_sync when the job fails is then up to the scheduler.
# RUN: n=3 timeout=240
# RUN: n=6 timeout=240
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "failed.sh: $*" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
last=$((p - 1))
runs=1
[ "$p" -gt "$(nproc)" ] && runs=3

# how who step [victim], the exit status, the supersteps kept
cases="error 1 1:1:2
abort 1 3:1:4
crash $last 2:139:3
abort 1 3 $last:1:4
error $last 2 1:1:3"
printf '%s\n' "$cases" | while IFS=: read -r args status steps; do
    set -- $args
    victim=${4:-}
    for run in $(seq "$runs"); do
        rc=0
        SUPERSTEP_PROFILE=$dir/f.json "$O/tests/profile/fail_at" $args >"$dir/out" 2>"$dir/err" || rc=$?
        [ "$rc" = "$status" ] || fail "fail_at $args: status $rc, not $status: $(cat "$dir/err")"
        [ "$(ls -A "$dir" | sort | tr '\n' ' ')" = "err f.json out " ] || fail "fail_at $args left: $(ls -A "$dir")"
        grep -q "^superstep: SUPERSTEP_PROFILE: the job failed in superstep $((steps - 1)); $dir/f.json holds the supersteps up to the failure$" "$dir/err" ||
            fail "fail_at $args: no note of the trace: $(cat "$dir/err")"
        line=$(grep '^superstep: ' "$dir/err" | grep -v SUPERSTEP_PROFILE | head -1)
        python3 tests/profile/check_failed.py "$dir/f.json" "$p" "$steps" ${victim:+--stopped "$victim"} \
            --who "$2" --line "${line#superstep: }" || fail "fail_at $args (run $run): the trace is wrong (above)"
        "$BINDIR/bspprof" "$dir/f.json" >"$dir/out" || fail "bspprof on the trace of fail_at $args: status $?"
        grep -q "^INCOMPLETE: the job failed in superstep $((steps - 1)); the trace holds the supersteps up to the failure$" "$dir/out" ||
            fail "bspprof does not say the trace is incomplete: $(head -3 "$dir/out")"
        grep -qxF "FAILURE: $line" "$dir/out" || fail "bspprof does not show the job's line: $(head -4 "$dir/out")"
        "$BINDIR/bspprof" --html="$dir/page.html" "$dir/f.json" >/dev/null || fail "bspprof --html: status $?"
        grep -qF "<p>The job failed in superstep $((steps - 1)): " "$dir/page.html" ||
            fail "the page does not say where the job failed"
        grep -qF "<p class=\"failure\">superstep: " "$dir/page.html" || fail "the page does not show the job's line"
        rm -f "$dir/page.html"
        rows=$(awk '$1 ~ /^[0-9]+$/ && NF >= 9' "$dir/out" | wc -l)
        [ "$rows" = "$steps" ] || fail "bspprof shows $rows supersteps of fail_at $args, not $steps"
        stopped=$(python3 -c 'import json,sys; print(", ".join(map(str, json.load(open(sys.argv[1]))["otherData"]["stopped"])))' "$dir/f.json")
        if [ -n "$stopped" ]; then
            case $stopped in *,*) who="processors $stopped" ;; *) who="processor $stopped" ;; esac
            grep -q "^STOPPED: the failure stopped $who inside the bsp_sync of superstep $((steps - 2)): " "$dir/out" ||
                fail "bspprof does not name the stopped $who: $(head -4 "$dir/out")"
        elif grep -q '^STOPPED' "$dir/out"; then
            fail "bspprof names stopped processors the trace does not list"
        fi
        rm -f "$dir/f.json" "$dir/out" "$dir/err"
    done
done || exit 1
exit 0
