# watchdog.sh - the launcher watchdog (src/mpi/hwatch.c) against a stand-in
# for mpirun: a script named mpirun that runs the host (tests/mpi/
# watchdog.c, which arms the watchdog and ends as told), then:
#   slow    the host ends with status 0 (healthy); the stand-in then waits,
#           with no child, until the host's watchdog is gone, and ends
#           with 0: a healthy run is never killed, however long its mpirun
#           takes (before: killed 5 s after the host, 137)
#   stuck   the host ends with status 3; the stand-in hangs with no child
#           (as Open MPI's mpirun in its finalize): the watchdog kills it
#           when SUPERSTEP_MPIRUN_HANG_TIMEOUT (here 1 s) has expired,
#           with a line saying so (137)
#   killed  the same for a host killed by SIGKILL (mpirun stopping the job)
#   ends    the host ends with status 0, the stand-in with status 3 a
#           second later: its status stays, and the watchdog is gone
#   busy    the host ends with status 3; the stand-in has a child alive (a
#           rank still running) from before the host's end until after its
#           own, and ends with 4 three seconds (three limits) later: never
#           killed while a child lives
#   fds     the host holds descriptor 1500 when it arms the watchdog: the
#           watchdog holds no inherited descriptor but its own four
# Usage: watchdog.sh MODE
# RUN: n=1 args="slow" timeout=60
# RUN: n=1 args="stuck" timeout=90
# RUN: n=1 args="killed" timeout=90
# RUN: n=1 args="ends"
# RUN: n=1 args="busy"
# RUN: n=1 args="fds"
set -u
bin=$O/tests/mpi/watchdog mode=$1
dir=$(mktemp -d) || exit 1
trap '[ -s "$dir/child" ] && kill "$(cat "$dir/child")"; rm -rf "$dir"' EXIT
fail() { echo "watchdog.sh $mode: $*" >&2; [ -s "$dir/err" ] && sed 's/^/  stderr: /' "$dir/err" >&2; exit 1; }
host=ok limit=1 before=
case $mode in
slow) after=': >"$D/ended"; read -r _ <>"$D/go"; exit 0' want=0 ;;
stuck) host=fail after='exec sleep 60' want=137 ;;
killed) host=kill after='exec sleep 60' want=137 ;;
ends) after='sleep 1; exit 3' want=3 ;;
busy) host=fail before='sleep 600 & echo $! >"$D/child"' after=': >"$D/ended"; read -r _ <>"$D/go"; exit 4' want=4 ;;
fds) host=fds after='exit 0' want=0 ;;
*) fail "unknown mode" ;;
esac
# The host runs from this case's own folder, so that the watchdog looked for
# below is this case's, not one of a case running beside it.
cp "$bin" "$dir/watchdog" || fail "cannot copy $bin"
bin=$dir/watchdog
mkfifo "$dir/go" || fail "mkfifo"
printf '#!/bin/bash\nD=%q\n%s\n"$@" >"$D/out"\n%s\n' "$dir" "$before" "$after" >"$dir/mpirun"
chmod +x "$dir/mpirun"
start=$(date +%s)
"$dir/mpirun" "$bin" "$host" "$limit" 2>"$dir/err" &
launcher=$!
if [ "$mode" = slow ]; then
    # The host has ended; wait until its watchdog is gone too (no bound:
    # the runner's time limit), then let the stand-in end.
    until [ -e "$dir/ended" ]; do sleep 0.1; done
    while pgrep -f "^$bin " >/dev/null; do sleep 0.1; done
    echo go 1<>"$dir/go"
elif [ "$mode" = busy ]; then
    # The host has ended; the watchdog may look three times meanwhile (it
    # may also look fewer times on a loaded machine: then this case proves
    # less, but never fails wrongly), then the stand-in ends, its child
    # still alive.
    until [ -e "$dir/ended" ]; do sleep 0.1; done
    sleep 3
    echo go 1<>"$dir/go"
fi
wait "$launcher"
st=$? took=$(( $(date +%s) - start ))
[ "$st" = "$want" ] || fail "the stand-in mpirun ended with status $st after $took s, expected $want"
line='^superstep: mpirun \(pid [0-9]+\) was still running 1 s or more after the host ended without success, with no process of the job left: the time limit expired \(SUPERSTEP_MPIRUN_HANG_TIMEOUT=1\); the watchdog killed it$'
case $mode in
stuck | killed)
    grep -Eq "$line" "$dir/err" || fail "no line saying that the time limit expired"
    [ "$(grep -c '^superstep:' "$dir/err")" = 1 ] || fail "more than one superstep: line" ;;
fds)
    fds=$(grep '^fds' "$dir/out") || fail "no fds line: $(cat "$dir/out")"
    for fd in ${fds#fds}; do
        [ "$fd" -lt 1024 ] || fail "the watchdog holds inherited descriptor $fd ($fds)"
    done
    [ "$(echo ${fds#fds} | wc -w)" = 4 ] || fail "the watchdog holds other descriptors than its own four ($fds)" ;;
*)
    [ -s "$dir/err" ] && fail "a line on stderr" ;;
esac
sleep 1
pgrep -f "^$bin " >/dev/null && fail "a watchdog process is left: $(pgrep -a -f "^$bin ")"
echo "watchdog.sh $mode: status $st after $took s"
