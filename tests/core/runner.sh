# runner.sh - the test runner itself: it works without MPI (RUN lines that
# name $MPIRUN are skipped, not a crash), and its /dev/shm check judges only
# what a case left, not what other programs create or delete meanwhile;
# with SUPERSTEP_TEST_JOBS=2 it runs cases at once and judges them the same;
# a script that exits with 77 and says why is counted as skipped.
# RUN: n=1 timeout=120 nosanitize="tests/run is a bash script and its cases here are scripts: ASan and TSan see none of it"
set -u
work=$(mktemp -d)
noise_pid=
trap '[ -n "$noise_pid" ] && kill "$noise_pid" 2>/dev/null; rm -rf "$work"' EXIT
fail=0
say() { echo "runner.sh: $*" >&2; fail=1; }

# 1. A build without MPI: tests/mpi's cases are skipped, nothing crashes.
mkdir -p "$work/o"
echo mpi=no >"$work/o/config"
ln -s "$PWD/$O/tests" "$work/o/tests"
out=$(O=$work/o tests/run tests/mpi/ 2>&1)
grep -q 'unbound variable' <<<"$out" && say "without MPI: $(grep 'unbound' <<<"$out")"
grep -q '^SKIP tests/mpi/' <<<"$out" || say "without MPI: no case of tests/mpi was skipped"
grep -q '^0 passed, 0 failed$' <<<"$out" || say "without MPI: $(tail -n 1 <<<"$out")"

# 2. Leftovers: a case that leaves a file fails; one that cleans up passes
#    while another program keeps creating and deleting files in /dev/shm.
# (The cases' RUN lines are made with printf so that the runner does not
# take them for this file's own.)
grep -q SUPERSTEP_TEST_FILES tests/run || { say "tests/run takes no SUPERSTEP_TEST_FILES"; exit 1; }
printf '%s RUN: n=1\n%s\n' '#' 'echo x >/dev/shm/superstep-runner-left' >"$work/leaves.sh"
printf '%s RUN: n=1\n%s\n' '#' \
    'echo x >/dev/shm/superstep-runner-own && sleep 1 && rm /dev/shm/superstep-runner-own' >"$work/clean.sh"
( i=0; while :; do i=$((i + 1)); echo >/dev/shm/superstep-runner-noise-$i; sleep 0.05
      [ $((i % 2)) = 0 ] && rm -f /dev/shm/superstep-runner-noise-$((i - 1)); done ) &
noise_pid=$!
out=$(SUPERSTEP_TEST_FILES="$work/leaves.sh $work/clean.sh" tests/run 2>&1)
kill "$noise_pid"; wait "$noise_pid" 2>/dev/null; noise_pid=
rm -f /dev/shm/superstep-runner-noise-*
grep -q "^FAIL $work/leaves.sh.*left in /dev/shm: superstep-runner-left" <<<"$out" ||
    say "a case's leftover file was not reported"
grep -q "^PASS $work/clean.sh" <<<"$out" || say "a clean case failed: $(grep "clean.sh" <<<"$out" | head -n 1)"
[ -e /dev/shm/superstep-runner-left ] && { say "the case's file is visible outside it"; rm -f /dev/shm/superstep-runner-left; }
# 3. Retries: a case that fails once and then passes counts as passed and is
#    reported FLAKY; one that always fails still fails; with
#    SUPERSTEP_TEST_RETRY=0 the first failure stands.
printf '%s RUN: n=1\n%s\n' '#' "[ -e $work/ran ] || { touch $work/ran; exit 3; }" >"$work/once.sh"
printf '%s RUN: n=1\n%s\n' '#' 'exit 4' >"$work/always.sh"
out3=$(SUPERSTEP_TEST_FILES="$work/once.sh $work/always.sh" tests/run 2>&1)
grep -q "^FLAKY $work/once.sh .*passed on retry" <<<"$out3" || say "a case that passed on retry was not reported FLAKY"
grep -q "^FAIL $work/always.sh .*exit status 4" <<<"$out3" || say "a case failing twice was not reported FAIL"
grep -q '^1 passed, 1 failed$' <<<"$out3" || say "retries: $(tail -n 1 <<<"$out3")"
rm -f "$work/ran"
out4=$(SUPERSTEP_TEST_RETRY=0 SUPERSTEP_TEST_FILES="$work/once.sh" tests/run 2>&1)
grep -q '^0 passed, 1 failed$' <<<"$out4" || say "SUPERSTEP_TEST_RETRY=0: $(tail -n 1 <<<"$out4")"
# 3b. SUPERSTEP_TEST_FLAKY=fail (CI): a case that passes only on retry
#     fails the run, unless the list of known flaky cases names it.
rm -f "$work/ran"
out7=$(SUPERSTEP_TEST_FLAKY=fail SUPERSTEP_TEST_FLAKY_LIST=$work/none SUPERSTEP_TEST_FILES="$work/once.sh" tests/run 2>&1)
grep -q '^0 passed, 1 failed$' <<<"$out7" || say "SUPERSTEP_TEST_FLAKY=fail: $(tail -n 1 <<<"$out7")"
grep -q "once.sh .*(FLAKY: passed on retry, not in tests/flaky.list; first run: exit status 3)" <<<"$out7" || say "an unlisted FLAKY case not named"
# flaky_with LIST RESULT WHAT: once.sh under SUPERSTEP_TEST_FLAKY=fail with
# LIST (lines) as the list of known flaky cases must end with RESULT.
flaky_with() {
    rm -f "$work/ran"
    printf '%s\n' "$1" >"$work/list"
    local out
    out=$(SUPERSTEP_TEST_FLAKY=fail SUPERSTEP_TEST_FLAKY_LIST=$work/list SUPERSTEP_TEST_FILES="$work/once.sh" tests/run 2>&1)
    grep -q "^$2\$" <<<"$out" || say "$3: $(tail -n 1 <<<"$out")"
}
flaky_with "# comment"$'\n'"$work/once.sh: a cause" "1 passed, 0 failed" "a listed FLAKY case"
flaky_with "$work/once.sh [n=7]: only the n=7 case" "0 passed, 1 failed" "a FLAKY case listed for another spec"
# A glob names the file; "@DEVICE" limits the line to that device.
flaky_with "$work/on*.sh@mpi: only on the mpi device" "0 passed, 1 failed" "a FLAKY case listed for another device"
flaky_with "$work/on*.sh: a cause" "1 passed, 0 failed" "a FLAKY case listed by a glob"
# A line that names the case but gives no measured cause excuses nothing.
flaky_with "$work/once.sh"$'\n'"$work/once.sh:" "0 passed, 1 failed" "a FLAKY case listed without a cause"
# A listed case runs again up to 3 times (an unlisted one once): one that
# fails three times and then passes is a listed FLAKY case, unlisted it
# fails; listed, one that never passes still fails, after 4 runs.
printf '%s RUN: n=1\n%s\n' '#' \
    "echo x >>$work/runs; [ \$(wc -l <$work/runs) -gt 3 ] || exit 3" >"$work/thrice.sh"
printf '%s RUN: n=1\n%s\n' '#' "echo x >>$work/never-runs; exit 4" >"$work/never.sh"
thrice_with() { # list result what thrice's-runs never's-runs
    rm -f "$work/runs" "$work/never-runs"
    printf '%s\n' "$1" >"$work/list"
    local out
    out=$(SUPERSTEP_TEST_FLAKY=fail SUPERSTEP_TEST_FLAKY_LIST=$work/list SUPERSTEP_TEST_FILES="$work/thrice.sh $work/never.sh" tests/run 2>&1)
    grep -q "^$2\$" <<<"$out" && [ "$(wc -l <"$work/runs")" = "$4" ] && [ "$(wc -l <"$work/never-runs")" = "$5" ] ||
        say "$3: $(tail -n 1 <<<"$out"), runs $(wc -l <"$work/runs") and $(wc -l <"$work/never-runs")"
}
thrice_with "$work/thrice.sh: a cause"$'\n'"$work/never.sh: a cause" "1 passed, 1 failed" "listed cases" 4 4
thrice_with "# none" "0 passed, 2 failed" "unlisted cases" 2 2
# And with two cases at a time, the rule is the same.
rm -f "$work/ran"
out12=$(SUPERSTEP_TEST_JOBS=2 SUPERSTEP_TEST_FLAKY=fail SUPERSTEP_TEST_FLAKY_LIST=$work/none \
    SUPERSTEP_TEST_FILES="$work/once.sh $work/clean.sh" tests/run 2>&1)
grep -q "once.sh .*(FLAKY: passed on retry, not in tests/flaky.list; first run: exit status 3)" <<<"$out12" && grep -q '^1 passed, 1 failed$' <<<"$out12" ||
    say "SUPERSTEP_TEST_JOBS=2 SUPERSTEP_TEST_FLAKY=fail: $(tail -n 1 <<<"$out12")"
out10=$(SUPERSTEP_TEST_FLAKY=maybe SUPERSTEP_TEST_FILES="$work/clean.sh" tests/run 2>&1) && say "SUPERSTEP_TEST_FLAKY=maybe accepted"
grep -q "SUPERSTEP_TEST_FLAKY='maybe'" <<<"$out10" || say "SUPERSTEP_TEST_FLAKY=maybe: $out10"
# 4. SUPERSTEP_TEST_JOBS=2: two cases run at once (each waits for the
#    other's mark), leftovers and retries are judged as one at a time, and
#    the tally is the same.
rm -f "$work/ran"
printf '%s RUN: n=1\n%s\n' '#' "touch $work/a; for i in \$(seq 100); do [ -e $work/b ] && exit 0; sleep 0.1; done; exit 5" >"$work/a.sh"
printf '%s RUN: n=1\n%s\n' '#' "touch $work/b; for i in \$(seq 100); do [ -e $work/a ] && exit 0; sleep 0.1; done; exit 5" >"$work/b.sh"
out5=$(SUPERSTEP_TEST_JOBS=2 SUPERSTEP_TEST_FILES="$work/a.sh $work/b.sh $work/leaves.sh $work/clean.sh $work/once.sh $work/always.sh" \
    tests/run 2>&1)
grep -q "^PASS $work/a.sh" <<<"$out5" && grep -q "^PASS $work/b.sh" <<<"$out5" ||
    say "SUPERSTEP_TEST_JOBS=2 did not run two cases at once"
grep -q "^FAIL $work/leaves.sh.*left in /dev/shm: superstep-runner-left" <<<"$out5" ||
    say "SUPERSTEP_TEST_JOBS=2: a case's leftover file was not reported"
grep -q "^FLAKY $work/once.sh .*passed on retry" <<<"$out5" || say "SUPERSTEP_TEST_JOBS=2: no FLAKY report"
grep -q "^FAIL $work/always.sh .*exit status 4" <<<"$out5" || say "SUPERSTEP_TEST_JOBS=2: a failing case not reported"
grep -q '^4 passed, 2 failed$' <<<"$out5" || say "SUPERSTEP_TEST_JOBS=2: $(tail -n 1 <<<"$out5")"
out6=$(SUPERSTEP_TEST_JOBS=x SUPERSTEP_TEST_FILES="$work/clean.sh" tests/run 2>&1) && say "SUPERSTEP_TEST_JOBS=x accepted"
grep -q "SUPERSTEP_TEST_JOBS='x'" <<<"$out6" || say "SUPERSTEP_TEST_JOBS=x: $out6"
# 6. A script that cannot run here says "SKIP: why" and exits with 77: the
#    case is skipped, with its reason, and counted; 77 without a reason fails.
printf '%s RUN: n=1\n%s\n' '#' 'echo "SKIP: no frobnicator here"; exit 77' >"$work/skips.sh"
printf '%s RUN: n=1\n%s\n' '#' 'exit 77' >"$work/silent77.sh"
out7=$(SUPERSTEP_TEST_RETRY=0 SUPERSTEP_TEST_FILES="$work/skips.sh $work/silent77.sh" tests/run 2>&1)
grep -q "^SKIP $work/skips.sh \[ n=1\]: no frobnicator here$" <<<"$out7" || say "a skipping script was not reported SKIP"
grep -q "^FAIL $work/silent77.sh .*exit status 77 without a 'SKIP: why' line" <<<"$out7" || say "exit 77 without a reason passed"
grep -q '^1 skipped$' <<<"$out7" && grep -q '^0 passed, 1 failed$' <<<"$out7" || say "skips miscounted: $(tail -n 2 <<<"$out7")"
# 7. nosanitize="why": the case runs plainly, and is skipped with the
#    reason under SANITIZE=1 (its code is not sanitized: nothing to add).
printf '%s RUN: n=1 nosanitize="plain shell"\n%s\n' '#' 'true' >"$work/plain.sh"
out13=$(SUPERSTEP_TEST_FILES="$work/plain.sh" tests/run 2>&1)
grep -q "^PASS $work/plain.sh" <<<"$out13" || say "a nosanitize case did not run plainly: $(tail -n 1 <<<"$out13")"
out14=$(SANITIZE=1 SUPERSTEP_TEST_FILES="$work/plain.sh" tests/run 2>&1)
grep -q "^SKIP $work/plain.sh .*: under a sanitizer: plain shell$" <<<"$out14" ||
    say "a nosanitize case was not skipped under SANITIZE=1: $(tail -n 1 <<<"$out14")"
# 8. A case that hangs: it times out, the runner shows what its processes
#    were doing shortly before (tests/hang_snapshot), names the reason again
#    in the list at the end, and leaves no snapshot process behind.
printf '%s RUN: n=1 timeout=6\n%s\n' '#' "sleep 300 & wait" >"$work/hangs.sh"
out15=$(SUPERSTEP_TEST_RETRY=0 SUPERSTEP_TEST_FILES="$work/hangs.sh" tests/run 2>&1)
grep -q "^FAIL $work/hangs.sh .*timed out after 6s" <<<"$out15" || say "a hanging case not reported as timed out"
grep -A 100 -- '^---- its processes at 5 s' <<<"$out15" | grep -q ' sleep 300$' ||
    say "no snapshot of the hanging case's processes"
grep -q "^  $work/hangs.sh \\[ n=1 timeout=6\\]: timed out after 6s" <<<"$out15" || say "the list at the end gives no reason"
pgrep -f "snap 5 .*/sid " >/dev/null && say "left running: $(pgrep -af "snap 5 .*/sid ")"
out="$out
$out15
$out3
$out7
$out12
$out4
$out5
$out13
$out14
$out7"
[ "$fail" = 0 ] || { echo "---- runner output ----" >&2; echo "$out" >&2; }
exit $fail
