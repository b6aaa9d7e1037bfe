# leave0.sh - processor 0 (BSPlib), node 1 (mp.h) leaving without the ending
# call in a way its own code cannot report (_exit(0), exec, SIGKILL) is
# named by the supervisor: a non-zero status and exactly one "superstep:"
# line (the runner checks that no process and no /dev/shm file is left);
# after a clean end the supervisor ends as processor 0 did (status, signal,
# an exec'd program's status); a SIGTERM sent to the process the shell
# started reaches processor 0, whose line says where each processor was.
# RUN: n=3 timeout=120
# RUN: n=2 timeout=120
set -u
P=$O/tests/core/leave0
n=$SUPERSTEP_NPROCS
fail=0
err=$(mktemp) out=$(mktemp)
trap 'rm -f "$err" "$out"' EXIT
bad() { echo "leave0.sh: $*; stderr: $(tr '\n' '|' <"$err")" >&2; fail=1; }

# expect STATUS LINE-ERE API MODE STEP: the status, and exactly one
# "superstep:" line, which matches LINE-ERE (no line at all when LINE-ERE is "").
expect() {
    local want=$1 line=$2
    shift 2
    # (in a subshell whose own stderr is dropped: bash's "Killed" notes)
    (timeout 60 "$P" "$@" >"$out" 2>"$err"; exit $?) 2>/dev/null
    local rc=$? lines
    lines=$(grep -c '^superstep:' "$err")
    [ "$rc" = "$want" ] || bad "'$*' (n=$n) exited with $rc, expected $want"
    if [ -z "$line" ]; then
        [ "$lines" = 0 ] || bad "'$*' (n=$n): $lines superstep: lines, expected none"
    else
        [ "$lines" = 1 ] || bad "'$*' (n=$n): $lines superstep: lines, expected 1"
        grep -Eq "$line" "$err" || bad "'$*' (n=$n): no line matching '$line'"
    fi
}

for step in 0 2; do
    expect 1 "^superstep: processor 0 exited with status 0 in superstep $step without calling bsp_end$" bsp _exit0 $step
    # an exit after a change of name is no exec (the exec test once compared names)
    expect 1 "^superstep: processor 0 exited with status 0 in superstep $step without calling bsp_end$" bsp renamed $step
    expect 1 "^superstep: node 1 exited with status 0 without calling mp_quit$" mp _exit0 $step
    expect 1 "^superstep: processor 0 called exec in superstep $step without calling bsp_end$" bsp execlong $step
    expect 1 "^superstep: node 1 called exec without calling mp_quit$" mp execlong $step
    expect 137 "^superstep: processor 0 killed by signal 9 \(SIGKILL\) in superstep $step$" bsp kill $step
    expect 137 "^superstep: node 1 killed by signal 9 \(SIGKILL\)$" mp kill $step
done
# exec of a program that ends at once: named as an exec, whichever the
# supervisor learns first, the exec or the end (issue 18, defect 7: it was
# either, by timing), so several runs.
for run in 1 2 3 4; do
    expect 1 "^superstep: processor 0 called exec in superstep 1 without calling bsp_end$" bsp exec 1
    expect 1 "^superstep: node 1 called exec without calling mp_quit$" mp exec 1
done

# A program that ignores SIGCHLD: the worker's status is still known.
expect 1 "^superstep: processor 0 exited with status 0 in superstep 1 without calling bsp_end$" bsp_nochld _exit0 1
expect 7 "" bsp_nochld after_exit7 1

# After a clean end: the status, the signal, the exec'd program's status.
expect 7 "" bsp after_exit7 1
expect 7 "" mp after_exit7 1
expect 1 "" bsp after_exec 1
expect 143 "" bsp after_term 1
expect 0 "" bsp twice 1
expect 0 "" bsp pid 0
grep -qx "pid changed" "$out" || bad "processor 0's pid: $(cat "$out")"

# SIGTERM to the process the shell started (a batch system's time limit)
# reaches processor 0, which names it and says where every processor was:
# the others computing (asleep in their code), processor 0 in bsp_sync.
"$P" bsp wait 1 >"$out" 2>"$err" &
sup=$!
for _ in $(seq 100); do grep -q '^pid ' "$out" && break; sleep 0.1; done
pid0=$(sed -n 's/^pid //p' "$out")
for _ in $(seq 100); do # processor 0 asleep in bsp_sync's barrier
    [ "$(sed 's/.*) \(.\).*/\1/' "/proc/$pid0/stat" 2>/dev/null)" = S ] && grep -q futex "/proc/$pid0/wchan" 2>/dev/null && break
    sleep 0.05
done
kill -TERM "$sup"
wait "$sup"
rc=$?
others=" 1"; [ "$n" = 3 ] && others="s 1 and 2"
were=was; [ "$n" = 3 ] && were=were
[ "$rc" = 143 ] || bad "SIGTERM to the supervisor: status $rc, expected 143"
[ "$(grep -c '^superstep:' "$err")" = 1 ] &&
    grep -Eq "^superstep: processor 0 killed by signal 15 \(SIGTERM\) in superstep 1; processor$others $were computing, processor 0 was in bsp_sync$" "$err" ||
    bad "SIGTERM to the supervisor: not named once, with where each processor was"
exit $fail
