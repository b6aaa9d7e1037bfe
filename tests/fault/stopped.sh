# stopped.sh - a processor's process stopped (SIGSTOP), issue 36 item 4
# (tests/fault/stopped.c; its own RUN lines: the stall line calls a
# stopped processor stopped):
#   resume: processor 1 stopped 3 s, then continued (SIGCONT), without
#     SUPERSTEP_STALL_TIMEOUT: the job goes on and ends 0, no line;
#   kill0: processor 0 stopped (and with it its monitor thread, which
#     watches the others), processor 1 then killed by SIGKILL, processor 2
#     waits in bsp_sync, SUPERSTEP_STALL_TIMEOUT=1: the kill is named
#     ("processor 1 killed by signal 9 (SIGKILL) in superstep 2") while
#     processor 0 is still stopped (before: nothing until SIGCONT, and
#     with the setting processor 0 and 1 named late, the kill never), and
#     the others end; once 0 is continued the job ends with 137;
#   kill2: 4 processors, processor 0 stopped, processor 2 then killed by
#     SIGKILL while 1 and 3 wait in bsp_sync, no SUPERSTEP_STALL_TIMEOUT:
#     the kill is named and processors 1 and 3 end within 10 s while
#     processor 0 stays stopped (before: nothing until SIGCONT); once 0 is
#     continued the job ends with 137 and that one line, nothing left.
# RUN: n=3 timeout=60 nompi="pids of processes of this machine; an mpi rank knows no peer's pid"
set -u
P=$O/tests/fault/stopped
out=$(mktemp) err=$(mktemp)
job= stopped=
trap 'rm -f "$out" "$err"; [ -z "$stopped" ] || kill -KILL "$stopped" 2>/dev/null; [ -z "$job" ] || kill -KILL "$job" 2>/dev/null' EXIT
fail() { echo "stopped.sh: $*; stderr: $(tr '\n' '|' <"$err")" >&2; exit 1; }
gone() { case "$(state "$1")" in '' | Z) return 0 ;; esac; return 1; }
state() { sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null; }

# Start MODE in the background; return once the processor that says
# "stopping PID" is stopped ($stopped: its pid).
start() {
    "$@" >"$out" 2>"$err" &
    job=$!
    for _ in $(seq 400); do grep -q '^stopping ' "$out" && break; sleep 0.05; done
    stopped=$(sed -n 's/^stopping //p' "$out")
    [ -n "$stopped" ] || fail "$*: no processor stopped"
    for _ in $(seq 400); do [ "$(state "$stopped")" = T ] && break; sleep 0.05; done
    [ "$(state "$stopped")" = T ] || fail "$*: processor $stopped is not stopped"
}

# The end of the job: its status in $rc.
finish() {
    rc=0
    wait "$job" || rc=$?
    job= stopped=
}

start "$P" resume
sleep 3
kill -CONT "$stopped"
finish
[ "$rc" = 0 ] || fail "resume: exit status $rc, expected 0"
grep -qx done "$out" || fail "resume: the job did not go on"
! grep -q '^superstep:' "$err" || fail "resume: a superstep: line"

# MODE's kill (processor $2) named within 10 s while processor 0 stays
# stopped, and every other processor gone (processor 0 is the program's
# own process, which Superstep does not stop); once 0 is continued the job
# ends with 137 and that one line.
killed_while_stopped() {
    local mode=$1 line="^superstep: processor $2 killed by signal 9 \(SIGKILL\) in superstep 2$" pids pid others
    for _ in $(seq 200); do
        pids=$(sed -n 's/^pids //p' "$out") others=
        for pid in $pids; do [ "$pid" = "$stopped" ] || gone "$pid" || others=1; done
        grep -Eq "$line" "$err" && [ -n "$pids" ] && [ -z "$others" ] && break
        sleep 0.05
    done
    grep -Eq "$line" "$err" || fail "$mode: the kill was not named within 10 s while processor 0 was stopped"
    [ -n "$pids" ] || fail "$mode: no pids printed"
    [ -z "$others" ] || fail "$mode: processors other than 0 still there 10 s after the kill was named"
    [ "$(state "$stopped")" = T ] || fail "$mode: processor 0 was not stopped when the kill was named"
    kill -CONT "$stopped"
    finish
    [ "$rc" = 137 ] || fail "$mode: exit status $rc, expected 137"
    [ "$(grep -c '^superstep:' "$err")" = 1 ] || fail "$mode: not exactly one superstep: line"
    for pid in $pids; do gone "$pid" || fail "$mode: processor pid $pid left"; done
}

start env SUPERSTEP_STALL_TIMEOUT=1 "$P" kill0
killed_while_stopped kill0 1
start env SUPERSTEP_NPROCS=4 "$P" kill2
killed_while_stopped kill2 2
exit 0
