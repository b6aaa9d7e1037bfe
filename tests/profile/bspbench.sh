# bspbench.sh - bspbench's options (--help, --version, one clear line and
# status 2 for every bad option or value) and its output: the time of every
# h-relation (h = 0..p one by one, then up to HMAX), the two fits (never
# negative, each with its spread between rounds), l never below the empty
# superstep's time t0 (issue 35: l_us=0 beside t0 of 3.3 us), the noise
# line, "The bottom line" and "p= r= g= l=", the summary line bspprof -b
# reads, the poor-fit warning exactly when that line says fit=poor, and
# the machine parameters cache it writes, with the fit's judgement.
# RUN: n=1 timeout=120
# RUN: n=3 timeout=120
set -u
p=$SUPERSTEP_NPROCS
fail() { echo "bspbench.sh: $*" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
bench=$BINDIR/bspbench

"$bench" --help | grep -q -- "--hmax=HMAX" || fail "--help"
"$bench" --version | grep -Eq "^bspbench \(Superstep\) [0-9]+\.[0-9]+" || fail "--version"
expect() { # ERE args...
    local ere=$1 out rc
    shift
    out=$("$bench" "$@" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" = 2 ] || fail "bspbench $*: status $rc, want 2 ($out)"
    [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "bspbench $*: not one line: $out"
    printf '%s\n' "$out" | grep -Eq -- "$ere" || fail "bspbench $*: '$out' does not match /$ere/"
}
expect "^bspbench: -H: 'abc' is not a whole number in 1\.\.16777216" -H abc
expect "^bspbench: -H: '0' is not a whole number" --hmax=0
expect "^bspbench: -k: '1' is not a whole number in 2\.\." -k 1
expect "^bspbench: -b: '-2' is not a whole number" -b -2
expect "^bspbench: -i: '5x' is not a whole number" -i 5x
expect "^bspbench: -i: needs a value" -i
expect "^bspbench: --nosuch: unknown option" --nosuch
expect "^bspbench: -z: unknown option" -z
expect "^bspbench: extra: unexpected argument" extra

SUPERSTEP_MACHINE_FILE=$dir/machine "$bench" -H 16 -k 3 -b 3 -i 2 >"$dir/out" 2>"$dir/err" || fail "bspbench: status $? $(cat "$dir/err")"
want_h=$(seq 0 "$p" | tr '\n' ' ')
case $p in 1) want_h="0 1 8 16 " ;; 3) want_h="0 1 2 3 9 16 " ;; esac
got_h=$(awk '/^ *h +time/ { on = 1; next } on && $1 ~ /^[0-9]+$/ && NF == 4 { printf "%s ", $1 } /^fit/ { on = 0 }' "$dir/out")
[ "$got_h" = "$want_h" ] || fail "h values '$got_h', want '$want_h': $(cat "$dir/out")"
spread="; between rounds g \+- [0-9.]+ us, l \+- [0-9.]+ us$"
grep -Eq "^fit over h = 0\.\.$p: +g = [0-9.]+ flop \([0-9.]+ us\), l = [0-9.]+ flop .*$spread" "$dir/out" || fail "no fit over 0..p (or a negative one)"
grep -Eq "^fit over h = $p\.\.16: g = [0-9.]+ flop \([0-9.]+ us\), l = [0-9.]+ flop .*$spread" "$dir/out" || fail "no fit over p..HMAX (or a negative one)"
grep -Eq "^noise: the points lie [0-9.]+% off the line .*: fit (good|POOR)$" "$dir/out" || fail "no noise line"
grep -q "^The bottom line for this BSP computer is" "$dir/out" || fail "no 'The bottom line'"
grep -Eq "^p= $p, r= [0-9.]+ Mflop/s, g= [0-9.]+, l= [0-9.]+$" "$dir/out" || fail "no bottom line: $(cat "$dir/out")"
grep -Eq "^summary: p=$p .*g_us=[0-9.]+ l_us=[0-9.]+ t0_us=[0-9.]+ g_sd_us=[0-9.]+ l_sd_us=[0-9.]+ noise=[0-9.]+ fit=(good|poor) noisy=[01]$" "$dir/out" || fail "no summary line"
# l at least t0, here and with larger h, where the line's intercept is
# coarse (the old fit gave l_us=0.0000 beside t0_us=0.92 at p = 3).
"$bench" -H 1024 -k 5 -b 3 -i 4 -N >"$dir/out2" 2>/dev/null || fail "bspbench -H 1024: status $?"
for f in "$dir/out" "$dir/out2"; do
    awk '/^summary:/ { for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } exit !(v["l_us"] + 0 >= v["t0_us"] + 0) }' "$f" ||
        fail "l below the empty superstep: $(grep '^summary:' "$f")"
done
if grep -q "fit=poor noisy=1$" "$dir/out"; then
    grep -q "^the fit is poor (" "$dir/out" || fail "fit=poor without saying why on stdout"
    grep -q "^bspbench: warning: the fit is poor (" "$dir/err" || fail "fit=poor without a warning"
else
    grep -q "fit=good noisy=0$" "$dir/out" || fail "summary: fit and noisy disagree"
    [ ! -s "$dir/err" ] || fail "a warning with fit=good: $(cat "$dir/err")"
fi
grep -Eq "^device=shm p=$p l_us=[0-9.e+-]+ G_ns=[0-9.e+-]+ o_ns=[0-9.e+-]+ r_mflops=[0-9.e+-]+ noise=[0-9.e+-]+ fit=(good|poor) " "$dir/machine" ||
    fail "no cache line for p=$p: $(cat "$dir/machine" 2>&1)"
grep -q "l_us=-\|G_ns=-\|o_ns=-" "$dir/machine" && fail "a negative value cached: $(cat "$dir/machine")"
# bspprof reads that output for g and l.
SUPERSTEP_PROFILE=$dir/t.json "$O/tests/profile/traffic" || fail "traffic: status $?"
"$BINDIR/bspprof" -b "$dir/out" "$dir/t.json" 2>"$dir/err2" | grep -q "^BSP model: g = " || fail "bspprof -b: $(cat "$dir/err2")"
if grep -q "noisy=1$" "$dir/out"; then
    [ "$(cat "$dir/err2")" = "bspprof: warning: $dir/out: bspbench judged its fit poor: g and l are unreliable" ] ||
        fail "bspprof -b on a noisy run: '$(cat "$dir/err2")'"
else
    [ ! -s "$dir/err2" ] || fail "bspprof -b warned: $(cat "$dir/err2")"
fi
exit 0
