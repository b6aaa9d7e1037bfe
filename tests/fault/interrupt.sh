# interrupt.sh - a hung job stopped by a termination request names where
# every processor was (issue 35): processor 1 computes for ever in
# superstep 1 while the others wait in bsp_sync (tests/fault/interrupt.c).
#   Ctrl-C (SIGINT to the whole process group, as a terminal sends it) and
#   SIGTERM to the process the shell started (a batch system's time
#   limit): one line, naming the processor the signal ended, then
#   "processor 1 was computing, processors 0, 2 and 3 were in bsp_sync";
#   status 128 + the signal.
# RUN: n=4 timeout=60 nompi="shm's line; on mpi the launcher delivers the signal"
set -u
P=$O/tests/fault/interrupt
n=$SUPERSTEP_NPROCS
out=$(mktemp) err=$(mktemp)
job=
trap 'rm -f "$out" "$err"; [ -z "$job" ] || kill -KILL -- "-$job" 2>/dev/null' EXIT
fail() { echo "interrupt.sh: $*; stderr: $(tr '\n' '|' <"$err")" >&2; exit 1; }
state() { sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null; }

# Start the job in a session of its own (a background job of a script
# ignores SIGINT: give it back its default, as a terminal's job has it);
# return when every processor but 1 sleeps in the barrier.
start() {
    setsid env --default-signal=INT "$P" >"$out" 2>"$err" &
    job=$!
    for _ in $(seq 200); do [ "$(grep -c '^pid ' "$out")" = "$n" ] && break; sleep 0.05; done
    [ "$(grep -c '^pid ' "$out")" = "$n" ] || fail "the processors did not start"
    local waiting=0
    for _ in $(seq 200); do
        waiting=0
        while read -r _ s pid; do
            [ "$s" = 1 ] && continue
            [ "$(state "$pid")" = S ] && grep -q futex "/proc/$pid/wchan" 2>/dev/null && waiting=$((waiting + 1))
        done <"$out"
        [ "$waiting" = $((n - 1)) ] && break
        sleep 0.05
    done
    [ "$waiting" = $((n - 1)) ] || fail "the processors but 1 are not all waiting in bsp_sync"
}

check() { # STATUS SIGNAL-NUMBER SIGNAL-NAME
    local rc=0
    wait "$job" || rc=$?
    job=
    [ "$rc" = "$1" ] || fail "$3: status $rc, expected $1"
    [ "$(grep -c '^superstep:' "$err")" = 1 ] || fail "$3: not exactly one line"
    grep -Eq "^superstep: processor [0-9]+ killed by signal $2 \($3\) in superstep 1; processor 1 was computing, processors 0, 2 and 3 were in bsp_sync$" "$err" ||
        fail "$3: the line does not say where each processor was"
}

start
kill -INT -- "-$job"
check 130 2 SIGINT

start
kill -TERM "$job"
check 143 15 SIGTERM
exit 0
