# campaign.sh - the seeded fault campaign: random faults (signals, exits,
# exec, fork, aborts, a timer signal during large exchanges) on a random
# processor at a random superstep of victim, on BSPlib and mp.h, and the
# API fuzzer (fuzz) with random invalid calls.  Each case runs in its own
# session with a time limit and is checked for:
#   hang     still running at the limit
#   leak     a process of its session left behind, or a new /dev/shm file
#   silent   a failure (or an injected fault) without non-zero status and a
#            "superstep:" line, or a fault-free run that failed
#   crash    a signal reported that was not the one injected (a crash inside
#            the library), or a fuzzed call that did not give its one line
# Prints one line per bad case and the totals; exit status 1 if any.
# Usage: campaign.sh [CASES [SEED]]   (make test: 24 cases; make soak: more)
# RUN: n=1 args="24 1" timeout=600
set -u
cases=${1:-24}
seed=${2:-1}
RANDOM=$seed
victim=$O/tests/fault/victim
fuzz=$O/tests/fault/fuzz
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
tried=0 hangs=0 leaks=0 silent=0 crashes=0
# Every fault is drawn for every processor, processor 0 (node 1) too: its
# SIGKILL, _exit and exec are named by the supervisor (src/launch/supervise.c).
bsp_kinds=(segv abrt bus fpe kill term int alrm timer exit3 _exit1 exec babort abort fork none)
mp_kinds=(segv abrt bus fpe kill term int alrm timer exit3 _exit1 exec abort fork none)
bsp_calls=(put_pid put_neg put_off put_unreg put_null get_pid get_neg get_off get_unreg hpput_pid hpget_off
           send_pid send_null pop_unreg push_neg tagsize_neg move_null)
mp_calls=(send_node send_null recv_null from_node probe_node)
declare -A signum=([segv]=11 [abrt]=6 [bus]=7 [fpe]=8 [kill]=9 [term]=15 [int]=2 [alrm]=14 [timer]=14 [abort]=6)
shm_list() { ls /dev/shm 2>/dev/null | grep -Ev '^(vader_segment|osc_rdma|sm_segment|ompi|pmix|psm)' | sort; }

# run_case N LIMIT -- command...: sets rc, fills $t/out $t/err, checks hang and leaks.
run_case() {
    local n=$1 limit=$2
    shift 3
    local before after sid
    before=$(shm_list)
    : >"$t/sid"
    SUPERSTEP_NPROCS=$n timeout -k 5 "$limit" setsid bash -c 'echo $$ >"$0"; exec "$@"' "$t/sid" "$@" \
        >"$t/out" 2>"$t/err" </dev/null
    rc=$?
    sid=$(cat "$t/sid")
    bad=""
    [ "$rc" = 124 ] && { bad="hang"; hangs=$((hangs + 1)); }
    if [ -n "$sid" ]; then
        for _ in 1 2 3 4 5 6 7 8 9 10; do pgrep -s "$sid" >/dev/null || break; sleep 0.3; done
        if pgrep -s "$sid" >/dev/null; then
            bad="$bad leaked processes"; leaks=$((leaks + 1)); pkill -9 -s "$sid"
        fi
    fi
    after=$(shm_list)
    if [ "$before" != "$after" ] && [ -n "$(comm -13 <(echo "$before") <(echo "$after"))" ]; then
        bad="$bad left in /dev/shm: $(comm -13 <(echo "$before") <(echo "$after") | tr '\n' ' ')"; leaks=$((leaks + 1))
    fi
}

report() { # what
    echo "campaign: case $tried [$case]: $1; status $rc; stderr: $(head -c 300 "$t/err" | tr '\n' '|')"
}

for ((i = 0; i < cases; i++)); do
    tried=$((tried + 1))
    api=$([ $((RANDOM % 3)) = 0 ] && echo mp || echo bsp)
    n=$((2 + RANDOM % 4))
    f=$((RANDOM % n))
    s=$((RANDOM % 6))
    if [ $((RANDOM % 3)) = 0 ]; then # the fuzzer
        if [ "$api" = mp ]; then c=${mp_calls[RANDOM % ${#mp_calls[@]}]}; s=$((RANDOM % 3))
        else c=${bsp_calls[RANDOM % ${#bsp_calls[@]}]}; s=$((1 + RANDOM % 4)); fi
        case="fuzz $api $f $s $c $RANDOM, n=$n"
        run_case "$n" 60 -- "$fuzz" $api $f $s $c $RANDOM
        [ -n "$bad" ] && report "$bad"
        call=${c%%_*}
        if [ "$rc" != 1 ] || ! grep -Eq "^superstep: (bsp|mp)_[a-z_]+: (processor|node) [0-9]+" "$t/err"; then
            report "no one-line error for a bad argument"; silent=$((silent + 1))
        elif grep -q "killed by signal" "$t/err"; then
            report "crash inside the library"; crashes=$((crashes + 1))
        fi
        continue
    fi
    if [ "$api" = mp ]; then k=${mp_kinds[RANDOM % ${#mp_kinds[@]}]}; else k=${bsp_kinds[RANDOM % ${#bsp_kinds[@]}]}; fi
    case="victim $api $f $s $k, n=$n"
    run_case "$n" 90 -- "$victim" $api $f $s $k
    [ -n "$bad" ] && report "$bad"
    # A timer may fire after the run ended: then the run must have succeeded.
    if [ "$k" = timer ] && [ "$rc" = 0 ] && grep -q "^victim ok $n$" "$t/out"; then continue; fi
    if [ "$k" = none ] || [ "$k" = fork ]; then
        if [ "$rc" != 0 ] || ! grep -q "^victim ok $n$" "$t/out"; then report "a run without a fault failed"; silent=$((silent + 1)); fi
        continue
    fi
    if [ "$rc" = 0 ] || ! grep -q "^superstep: " "$t/err"; then
        report "silent failure"; silent=$((silent + 1)); continue
    fi
    # A signal named in the diagnosis must be the one injected.
    want=${signum[$k]:-none}
    while read -r sig; do
        if [ "$sig" != "$want" ]; then report "crash: signal $sig reported, $k injected"; crashes=$((crashes + 1)); break; fi
    done < <(grep -oE "killed by signal [0-9]+" "$t/err" | grep -oE "[0-9]+$")
done
echo "campaign: seed $seed: $tried cases, $hangs hangs, $leaks leaks, $silent silent failures, $crashes crashes"
[ $((hangs + leaks + silent + crashes)) = 0 ]
