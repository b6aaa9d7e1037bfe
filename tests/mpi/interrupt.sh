# interrupt.sh - a hung job on the mpi device stopped by a termination
# request names where every processor was, as on shm (issue 35 item 1;
# tests/fault/interrupt.sh): processor 1 computes for ever in superstep 1
# while the others wait in bsp_sync (tests/fault/interrupt.c), the
# launcher started in a session of its own as from a terminal.
#   Ctrl-C: SIGINT to the launcher's process group.  Open MPI's mpirun
#     (which alone gets it: each rank has a group of its own) stops the
#     ranks with SIGTERM; MPICH's Hydra passes SIGINT on to each rank.
#   SIGTERM to the launcher alone (a batch system's time limit).
# Each: exactly one line, "processor N killed by signal S (SIGX) in
# superstep 1; processor 1 was computing, processors 0, 2 and 3 were in
# bsp_sync", a non-zero status, and no process of the job left.
# RUN: n=4 timeout=120
set -u
P=$O/tests/fault/interrupt
out=$(mktemp) err=$(mktemp)
job=
trap 'rm -f "$out" "$err"; [ -z "$job" ] || kill -KILL -- "-$job" 2>/dev/null' EXIT
fail() { echo "interrupt.sh: $*; stderr: $(tr '\n' '|' <"$err")" >&2; exit 1; }
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1

# The job in a session of its own (a background job of a script ignores
# SIGINT: give it back its default, as a terminal's job has it); return
# once processor 1 computes in superstep 1, the others past its start.
start() {
    setsid env --default-signal=INT $MPIRUN -n 4 "$P" >"$out" 2>"$err" </dev/null &
    job=$!
    for _ in $(seq 600); do grep -qx computing "$out" && break; sleep 0.05; done
    grep -qx computing "$out" || fail "processor 1 did not start computing"
    [ "$(grep -c '^pid ' "$out")" = 4 ] || fail "not every processor started"
    sleep 0.3 # processors 0, 2 and 3 from their first bsp_sync into the second
}

check() { # WHAT SIGNALS-ERE
    local rc=0 pid
    wait "$job" || rc=$?
    job=
    [ "$rc" != 0 ] || fail "$1: status 0"
    [ "$(grep -c '^superstep:' "$err")" = 1 ] || fail "$1: not exactly one line"
    grep -Eq "^superstep: processor [0-3] killed by signal $2 in superstep 1; processor 1 was computing, processors 0, 2 and 3 were in bsp_sync$" "$err" ||
        fail "$1: the line does not say where each processor was"
    # Open MPI's mpirun may exit once it has sent SIGKILL, before every
    # rank has run to its end (seen: R, SIGKILL pending, under load).
    for pid in $(sed -n 's/^pid [0-9]* //p' "$out"); do
        for _ in $(seq 200); do
            [ -e "/proc/$pid" ] && ! grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null || break
            sleep 0.05
        done
        [ ! -e "/proc/$pid" ] || grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null || fail "$1: process $pid left"
    done
}

start
kill -INT -- "-$job"
check Ctrl-C '(2 \(SIGINT\)|15 \(SIGTERM\))'

start
kill -TERM "$job"
check SIGTERM '(2 \(SIGINT\)|15 \(SIGTERM\))'
exit 0
