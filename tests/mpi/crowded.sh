# crowded.sh - a node is crowded when its ranks outnumber the CPUs they may
# use, not the machine's (issue 33): 2 ranks confined to one CPU (taskset
# on the launcher, mpirun's binding off: the union of the ranks' affinity
# masks is that CPU) do 2000 empty supersteps (nonap.c, as nonap.sh does
# with a core each).  A rank waiting for the other, which needs this very
# CPU, yields it, then naps (strace counts the yields and sleeps between
# the program's two marks): about once a superstep.  Before the fix they
# spun (the machine has 2 CPUs for 2 ranks), each waiting out the other's
# time slice: no yield, no sleep.
# RUN: n=2
set -u
command -v strace >/dev/null 2>&1 || { echo "SKIP: strace not installed"; exit 77; }
# Open MPI over TCP alone (CI's OMPI_MCA_btl=self,tcp): each look of a
# waiting rank is a socket poll, and the peer's TCP wake-up hands it the
# CPU, so the ranks take turns without the device's naps (measured: 2000
# supersteps, 0 naps, 13 364 polls of timeout 0, 0.26 s of CPU in 3.6 s):
# the naps this test counts are the shared-memory transports' remedy.
case ${OMPI_MCA_btl-} in
*vader* | *sm* | '') ;;
*) echo "SKIP: OMPI_MCA_btl=$OMPI_MCA_btl: no shared-memory transport, whose waits are the ones that must nap"; exit 77 ;;
esac
command -v taskset >/dev/null 2>&1 || { echo "SKIP: taskset not installed"; exit 77; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//') # the first CPU this script may use
SUPERSTEP_DEVICE=mpi taskset -c "$cpu" $MPIRUN -n 2 --bind-to none \
    strace -ff -qq -e trace=nanosleep,clock_nanosleep,sched_yield,access -o "$dir/trace" \
    "$O/tests/mpi/nonap" >"$dir/out" || { echo "crowded.sh: the program failed ($?)" >&2; exit 1; }
grep -qx synced "$dir/out" || { echo "crowded.sh: no 'synced' line: $(cat "$dir/out")" >&2; exit 1; }
[ "$(cat "$dir"/trace.* | grep -c 'access("/nonap-')" = 4 ] || { echo "crowded.sh: strace saw no marks" >&2; exit 1; }
gave=$(awk '/access\("\/nonap-start"/ { on = 1 } /access\("\/nonap-end"/ { on = 0 } on && /(nanosleep|sched_yield)\(/ { n++ }
    END { print n + 0 }' "$dir"/trace.*)
[ "$gave" -ge 500 ] || { echo "crowded.sh: 2 ranks on one CPU yielded or slept $gave times in 2000 supersteps (a crowded node's waits give the CPU up)" >&2; exit 1; }
echo "yielded or slept $gave times in 2000 supersteps"
