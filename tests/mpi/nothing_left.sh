# nothing_left.sh - nothing Superstep starts outlives a 4-rank mpirun job:
#   none     a clean job: once mpirun has returned, no process of the
#            program's name is left anywhere, running or <defunct> (each
#            rank reaps its watcher before it exits; before, the watchers
#            had been forked twice and were init's, still there or
#            zombies when mpirun returned)
#   kill     processor 2 killed by SIGKILL in superstep 1: the job's line,
#            and after mpirun's end every watcher ends (the one that named
#            the failure holds the claim until then; the stopped ranks'
#            go with them)
# The program runs under a name of its own (a copy in this case's folder),
# so that the processes looked for are this case's.
# RUN: n=4 args="none" timeout=60
# RUN: n=4 args="kill" timeout=60
set -u
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
mode=$1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "nothing_left.sh $mode: $*" >&2; [ -s "$dir/err" ] && sed 's/^/  stderr: /' "$dir/err" >&2; exit 1; }
name=sl$$ # the program's comm, which /proc/PID/stat keeps also for a zombie
cp "$O/tests/mpi/leave" "$dir/$name" || fail "cannot copy the program"
ours() { # pid, state and parent of every process named $name
    for s in /proc/[0-9]*/stat; do
        read -r line <"$s" 2>/dev/null || continue
        case $line in *" ($name) "*) echo "${line%% (*} ${line#*) }" | cut -d' ' -f1-3 ;; esac
    done
}
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1
st=0
$MPIRUN -n 4 "$dir/$name" "$mode" </dev/null >/dev/null 2>"$dir/err" || st=$?
if [ "$mode" = none ]; then
    [ "$st" = 0 ] || fail "exit status $st"
    left=$(ours)
    [ -z "$left" ] || fail "left after the job (pid state parent): $(echo $left)"
else
    [ "$st" != 0 ] || fail "exit status 0"
    grep -Eq '^superstep: processor 2 killed by signal 9 \(SIGKILL\) in superstep 1$' "$dir/err" || fail "no line"
    # Every watcher ends once mpirun has (no bound: the runner's limit).
    while ours | grep -qv ' Z '; do sleep 0.1; done
fi
echo "nothing_left.sh $mode: nothing left"
