# watchdog.sh - the launcher watchdog (src/host/hwatch.c) against a stand-in
# for mpirun: a script named mpirun that runs the host (tests/mpi/
# watchdog.c, which arms the watchdog and ends), then:
#   stuck  hangs with no child left (as Open MPI's mpirun in its finalize):
#          the watchdog kills it a few seconds after the host's end (137)
#   ends   ends with status 3 a second after the host: its status stays,
#          and the watchdog is gone with it
#   busy   keeps a child alive (a rank still running) for 8 s, then ends
#          with 4: never killed while a child lives
# Usage: watchdog.sh MODE
# RUN: n=1 args="stuck" timeout=90
# RUN: n=1 args="ends"
# RUN: n=1 args="busy"
set -u
bin=$O/tests/mpi/watchdog mode=$1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "watchdog.sh $mode: $*" >&2; exit 1; }
case $mode in
stuck) after='exec sleep 60' want=137 ;;
ends) after='sleep 1; exit 3' want=3 ;;
busy) after='sleep 8 & wait; exit 4' want=4 ;;
*) fail "unknown mode" ;;
esac
# The host runs from this case's own folder, so that the watchdog looked for
# below is this case's, not one of a case running beside it.
cp "$bin" "$dir/watchdog" || fail "cannot copy $bin"
bin=$dir/watchdog
printf '#!/bin/bash\n"$@" >/dev/null\n%s\n' "$after" >"$dir/mpirun"
chmod +x "$dir/mpirun"
start=$(date +%s)
"$dir/mpirun" "$bin"
st=$? took=$(( $(date +%s) - start ))
[ "$st" = "$want" ] || fail "the stand-in mpirun ended with status $st after $took s, expected $want"
[ "$mode" != stuck ] || [ "$took" -le 20 ] || fail "killed only after $took s"
sleep 1
pgrep -f "^$bin\$" >/dev/null && fail "a watchdog process is left: $(pgrep -a -f "^$bin\$")"
echo "watchdog.sh $mode: status $st after $took s"
