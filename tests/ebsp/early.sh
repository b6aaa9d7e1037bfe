# early.sh - a kernel that fails before its bsp_begin under a host: the
# run fails with exactly one "superstep:" line (the kernel's own error, or
# the monitor's report of its exit or signal, never both), no crash, and
# the host goes on (ebsp_spmd returns 0: early_host exits 2).
# RUN: n=2 timeout=120
# RUN: n=3 timeout=120
set -u
H=$O/tests/ebsp/early_host
fail=0
err=$(mktemp) out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
# expect MODE LINE-ERE
expect() {
    (EARLY_MODE=$1 timeout 60 "$H" >"$out" 2>"$err"; exit $?) 2>/dev/null
    local rc=$? lines
    lines=$(grep -c '^superstep:' "$err")
    if [ "$rc" != 2 ] || [ "$lines" != 1 ] || ! grep -qE "$2" "$err" || ! grep -qx 'run failed' "$out"; then
        echo "early.sh: EARLY_MODE=$1 (n=$SUPERSTEP_NPROCS): status $rc (expected 2), $lines superstep: lines (expected 1 matching '$2'); stderr: $(tr '\n' '|' <"$err")" >&2
        fail=1
    fi
}
outside='^superstep: (processor [0-9]+: )?ebsp_dma_push: called outside bsp_begin \.\.\. bsp_end$'
for who in "" :1; do
    expect "dma$who" "$outside"
    expect "dma_null$who" "$outside"
    expect "malloc$who" '^superstep: (processor [0-9]+: )?ebsp_malloc: called outside bsp_begin \.\.\. bsp_end$'
    expect "exit$who" '^superstep: processor [0-9]+ exited with status 4 in superstep 0 without calling bsp_end$'
    expect "segv$who" '^superstep: processor [0-9]+ killed by signal 11 \(SIGSEGV\) in superstep 0$'
done
exit $fail
