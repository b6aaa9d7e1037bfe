# nested_fault.sh - a failure inside an inner run (MulticoreBSP's nested
# runs) ends the whole job with exactly one "superstep:" line and the exit
# status of the failure (1 for an abort, 128 + signal for a signal), whether
# the failing processor is the inner run's processor 0 (the outer processor
# that started it) or one it forked, and two levels deep; the runner checks
# that no process and nothing in /dev/shm is left.
# RUN: n=3
set -u
B=$O/tests/bsp/nested_fault
fail=0
expect() { # status args...
    local want=$1
    shift
    local err
    err=$(timeout 30 "$B" "$@" 2>&1 >/dev/null)
    local rc=$?
    local lines
    lines=$(printf '%s\n' "$err" | grep -c '^superstep:')
    if [ "$rc" != "$want" ] || [ "$lines" != 1 ]; then
        echo "nested_fault.sh: '$*' exited with $rc (expected $want), $lines superstep: lines (expected 1):" >&2
        printf '%s\n' "$err" >&2
        fail=1
    fi
}
expect 139 segv 1 1 2
expect 139 segv 2 0 1
expect 139 segv 0 0 0
expect 139 segv 0 2 1
expect 134 abort 2 2 0
expect 1 bspabort 1 1 1
expect 1 bspabort 0 0 1
expect 139 deep 2 1 1
expect 139 deep 0 0 0
expect 139 outer 1 0 0
exit $fail
