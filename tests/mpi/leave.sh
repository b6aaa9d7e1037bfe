# leave.sh - processor 2 of 4 ends in superstep 1 in a way no code of its
# own sees (tests/mpi/leave.c): killed by SIGKILL, terminated by a SIGTERM
# from processor 1, or _exit(0) (issue 18, defect 6); or it replaces itself
# with another program (exec: /bin/true; execlong: sleep 60, named while it
# runs), or closes every descriptor above 2, MPI's among them (closefds:
# its next bsp_sync says so; it hung in MPI before, issue 36 item 2).  Under
# a plain mpirun and under bsprun: exactly one line, naming the processor,
# what it did and the superstep (its watcher's, src/mpi/mpi_watch.c, or its
# own), and a non-zero exit status; the runner checks that no process is
# left.  An exec'd program is not Superstep's to stop: under Open MPI the
# job ends with it (here: the test ends it), MPICH's Hydra ends it at once.
# MPICH's Hydra kills the other ranks' process groups with SIGKILL as soon
# as it sees a rank killed by a signal; their watchers, in those groups, go
# with them (docs/mpi.md, "Errors and faults"), so the line names
# processor 2 there too.
# RUN: n=4 args="kill" timeout=120
# RUN: n=4 args="term" timeout=120
# RUN: n=4 args="_exit0" timeout=120
# RUN: n=4 args="exec" timeout=120
# RUN: n=4 args="execlong" timeout=50
# RUN: n=4 args="closefds" timeout=120
set -u
# Open MPI does not free what MPI_Init allocates.
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
mode=$1
case $mode in
kill) line='^superstep: processor 2 killed by signal 9 \(SIGKILL\) in superstep 1$' ;;
# a termination request: where each processor was too (tests/mpi/interrupt.sh)
term) line='^superstep: processor 2 killed by signal 15 \(SIGTERM\) in superstep 1; processor.* (was|were) (computing|in bsp_sync|in bsp_end|done)$' ;;
_exit0) line='^superstep: processor 2 exited with status 0 in superstep 1 without calling bsp_end$' ;;
# exec of /bin/true: when the launcher reaps the exec'd program before the
# watcher ran at all (MPICH under load: CI on 17a77a0), nothing is left to
# tell an exec by, and the line says how it ended (docs/mpi.md, "Errors
# and faults": the one case left unseen)
exec) line='^superstep: processor 2 (called exec|exited with status 0) in superstep 1 without calling bsp_end$' ;;
execlong) line='^superstep: processor 2 called exec in superstep 1 without calling bsp_end$' ;;
closefds) line='^superstep: bsp_sync: processor 2, superstep 1: descriptors of the runtime and of MPI were closed by the program \(the watcher.s socket is gone\), so the job cannot go on; close only descriptors the program opened$' ;;
*) echo "leave.sh: unknown mode $mode" >&2; exit 2 ;;
esac
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1
fail=0
for how in mpirun bsprun; do
    rc=0
    if [ $how = mpirun ]; then
        $MPIRUN -n 4 "$O/tests/mpi/leave" "$mode" </dev/null >/dev/null 2>"$err" &
    else
        "$BINDIR/bsprun" --device mpi -n 4 "$O/tests/mpi/leave" "$mode" </dev/null >/dev/null 2>"$err" &
    fi
    job=$!
    if [ "$mode" = execlong ]; then
        # Named while the exec'd sleep runs (two runs and their 60 s
        # would pass the time limit), which then ends the job.  The line
        # can come before the kernel gives the process its new name
        # (exec's signal actions, which the watcher reads, are reset at
        # about the same time): killed by name until the job ends.
        until grep -Eq "$line" "$err"; do kill -0 $job 2>/dev/null || break; sleep 0.1; done
        while kill -0 $job 2>/dev/null; do pkill -s 0 -x sleep; sleep 0.1; done
    fi
    wait $job || rc=$?
    bad() { echo "leave.sh $mode ($how): $*; stderr: $(tr '\n' '|' <"$err")" >&2; fail=1; }
    [ "$rc" != 0 ] || bad "exit status 0"
    [ "$(grep -c '^superstep: ' "$err")" = 1 ] || bad "not exactly one superstep: line"
    grep -Eq "$line" "$err" || bad "no line /$line/"
done
exit $fail
