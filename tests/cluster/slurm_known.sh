# slurm_known.sh - what Superstep does wrong under Slurm today (issue 31),
# asserted as it should be: 2 nodes of the Slurm test bed
# (tests/cluster/slurm.inc), 2 ranks a node (processors 2 and 3 on node 2),
# srun --mpi=pmix for Open MPI's build, --mpi=pmi2 for MPICH's.  Each case
# prints "ok: CASE" or "FAIL: CASE: why"; status 1 when any failed.  Once a
# case passes it moves into tests/cluster/slurm.sh (run by CI).
#   ctrlc     while a job runs every process of the program is inside the
#             job step (below slurmstepd); Ctrl-C to srun ends the job,
#             status non-zero, nothing left (items 5 and the Ctrl-C case)
#   mpich_end MPICH's build, 4 runs of hello: each ends (item 4)
# Usage: O=build/rel bash tests/cluster/slurm_known.sh [CASE...]   (as root)
# NORUN: fails today (issue 31 items 4 and 5: ctrlc on a bed whose init
# reaps late, mpich_end); run by hand
set -u
O=${O:-build/rel}
. tests/cluster/bed.inc
. tests/cluster/slurm.inc
cases=${*:-ctrlc mpich_end}
p=4 mpi=$(srun_mpi) bad=0 any=0
slurm_up 2
# The program under a name of its own (a link), so that its processes,
# zombies included, are told from any other's on this machine.
name=ws-${BED##*.}
ln -s "$PWD/$O/tests/cluster/wait_step" "$SL/$name"

no() { echo "FAIL: $c: $*"; bad=1; }
lines() { printf '%s\n' "$1" | grep '^superstep: '; }
# The job's lines: exactly one, matching ERE; and the job ended by itself
# (a case that could hang runs with srun -t 1: Slurm's time limit).
one_line() { # output ERE
    local l
    ! printf '%s\n' "$1" | grep -q 'DUE TO TIME LIMIT' || return 1
    l=$(lines "$1")
    [ "$(printf '%s\n' "$l" | grep -c .)" = 1 ] && printf '%s\n' "$l" | grep -Eq "$2"
}
left_check() { # what
    local l
    l=$("$bed" left "$BED" | grep -v -E "^node[0-9]+: process ($(daemons | paste -sd'|')) left:")
    [ -z "$l" ] || { no "$1: left: $(echo $l)"; return 1; }
}
# Every process on the machine by the names of our links (zombies too).
named() { ps -eo pid=,ppid=,stat=,comm= | awk -v a="$name" '$4 == a'; }
flat() { printf '%s' "$1" | tr '\n' '|'; }
# srun in the background on node 1 (its pid: srunpid), output to FILE;
# returns once each processor printed its line (wait_step).
srun_bg() { # file srun-args...
    local f=$1 i
    shift
    "$bed" node "$BED" 1 srun "$@" >"$f" 2>&1 &
    srunpid=$!
    for i in $(seq 1 300); do
        [ "$(grep -c ' in superstep ' "$f")" = "$p" ] && return 0
        kill -0 "$srunpid" 2>/dev/null || break
        sleep 0.1
    done
    return 1
}

for c in $cases; do
    rc=0 out=
    case $c in
    ctrlc)
        srun_bg "$SL/ctrlc.out" -N 2 -n $p --mpi=$mpi "$SL/$name" 1 || { no "not started: $(flat "$(cat "$SL/ctrlc.out")")"; kill "$srunpid" 2>/dev/null; wait; any=1 bad=0; continue; }
        # Each process of the program: below a slurmstepd.
        outside=
        while read -r pid ppid st comm; do
            q=$ppid
            while [ "$q" -gt 1 ] && [ "$(cat /proc/$q/comm 2>/dev/null)" != slurmstepd ]; do
                q=$(awk '{print $4}' /proc/$q/stat 2>/dev/null || echo 0)
            done
            [ "$q" -gt 1 ] || outside="$outside $pid(ppid $ppid, $st)"
        done < <(named)
        [ -z "$outside" ] || no "outside the job step:$outside"
        # Ctrl-C as a user types it: srun reports at the first and stops
        # the job at the second within a second.
        for i in $(seq 1 20); do kill -INT "$srunpid" 2>/dev/null || break; sleep 0.3; done
        wait "$srunpid" || rc=$?
        out=$(cat "$SL/ctrlc.out")
        [ $rc != 0 ] || no "status 0: $(flat "$out")"
        l=$(named)
        [ -z "$l" ] || no "after Ctrl-C: $(flat "$l")"
        echo "$c: srun's status $rc, Superstep's lines: $(flat "$(lines "$out")")"
        ;;
    mpich_end)
        [ "$mpikind" = mpich ] || { echo "ok: $c: only for MPICH's build"; continue; }
        for j in 1 2 3 4; do
            rc=0
            # -t 1: Slurm ends a job that hangs (a minute, checked every 30 s).
            out=$(s srun -t 1 -N 2 -n $p --mpi=$mpi "$O/examples/hello" 2>&1) || rc=$?
            [ $rc = 0 ] || { no "run $j: status $rc: $(flat "$out")"; break; }
        done
        ;;
    *) no "no such case" ;;
    esac
    left_check "$c" || true
    [ "$bad" = 1 ] || echo "ok: $c"
    any=$((any | bad)) bad=0
done
exit $any
