# slurm.sh - programs under Slurm as on a cluster: 2 nodes of the test bed
# with slurmctld and a slurmd each (tests/cluster/slurm.inc), PPN ranks a
# node, started with srun as a user types it (Open MPI's build: --mpi=pmix,
# MPICH's: --mpi=pmi2), default MPI settings; and a batch job (sbatch of a
# script that calls srun) whose output file has every processor's line.
# Each program prints what it promises or checks itself (status 0), and
# leaves no process and no file in any node's /dev/shm or /tmp.  A program
# of one MPI started without its PMI says so in one line, status
# non-zero (issue 31 item 3).  A processor that exits, crashes, is
# killed or cannot start MPI on node 2 is the job's one line, and the job
# ends (item 2).  Ctrl-C of srun: one line a node, saying where that
# node's processors were (issue 35 item 1).
# Usage: slurm.sh PPN
# RUN: n=2 args="1" timeout=300
# RUN: n=4 args="2" timeout=300
. tests/cluster/bed.inc
. tests/cluster/slurm.inc
ppn=$1 p=$((2 * $1))
mpi=$(srun_mpi)
fail() { echo "slurm.sh ($mpikind, srun --mpi=$mpi, 2 nodes x $ppn): $*" >&2; exit 1; }
if [ "$mpikind" = mpich ] && [ "$ppn" -gt 1 ]; then
    echo "SKIP: MPICH, 2 ranks a node under srun --mpi=pmi2: a rank hangs in MPI_Finalize in about half the runs" \
        "(issue 31 item 4; tests/cluster/slurm_known.sh mpich_end asserts it)"
    exit 77
fi
slurm_up 2

run() { # expected-stdout-ERE (or ''), program, args...
    local want=$1 prog=$2 out rc=0
    shift 2
    out=$(job srun -N 2 -n "$p" --mpi="$mpi" "$O/$prog" "$@" 2>&1) || rc=$?
    [ "$rc" = 0 ] || fail "srun $prog $*: exit status $rc: $(printf '%s' "$out" | tail -5 | tr '\n' '|')"
    [ -z "$want" ] || printf '%s\n' "$out" | grep -Eq "$want" ||
        fail "srun $prog $*: not '$want' in: $(printf '%s' "$out" | tail -5 | tr '\n' '|')"
    slurm_nothing_left "srun $prog $*"
    echo "ok: srun --mpi=$mpi $prog $*"
}
hello_lines() { # output
    local i
    for i in $(seq 0 $((p - 1))); do
        printf '%s\n' "$1" | grep -qx "Hello from processor $i of $p" || return 1
    done
    [ "$(printf '%s\n' "$1" | grep -c '^Hello from')" = "$p" ]
}

# hello under a name of its own (a link), so that its processes are told
# from any other's on this machine, zombies included: none is left after
# the job (item 5: the watchers, double-forked to init, stayed <defunct>).
hello=$SL/hi-${BED##*.}
ln -s "$PWD/$O/examples/hello" "$hello"
out=$(job srun -N 2 -n "$p" --mpi="$mpi" "$hello" 2>&1) || fail "srun hello: exit status $?: $out"
hello_lines "$out" || fail "srun hello: not one line from each of $p processors: $out"
slurm_nothing_left "srun hello"
left=$(ps -eo pid=,ppid=,stat=,comm= | awk -v n="${hello##*/}" '$4 == n')
[ -z "$left" ] || fail "srun hello: its processes left on the machine: $(printf '%s' "$left" | tr '\n' '|')"
echo "ok: srun --mpi=$mpi hello"
run "^inner product of two vectors of length 1000000 on $p processors = 333333833333" examples/inner_product
for t in bsp/put_basic bsp/get_basic bsp/bsmp_many coll/model; do
    run '' "tests/$t"
done

# A batch job: sbatch returns at once; the job runs the script on node 1,
# its srun the program on both nodes, its output into the file named.
cat >"$SL/job.sh" <<EOF
#!/bin/sh
srun --mpi=$mpi $PWD/$O/examples/hello
EOF
# The job is done once squeue no longer lists it; one still running after
# 60 s in MPICH's hang at the end (job in bed.inc) is cancelled and sent
# again, up to 3 times in all.
for try in 1 2 3; do
    id=$(s sbatch --parsable -N 2 -n "$p" -o "$SL/job.out" "$SL/job.sh" 2>&1) || fail "sbatch: $id"
    for i in $(seq 1 600); do
        [ -z "$(s squeue -h -j "$id" 2>/dev/null)" ] && break
        sleep 0.1
    done
    [ -n "$(s squeue -h -j "$id" 2>/dev/null)" ] && [ "$try" != 3 ] && [ "$mpikind" = mpich ] && finalize_hang || break
    echo "slurm.sh: known: MPICH/UCX hang in MPI_Finalize after the program's end (docs/mpi.md, ucx-tcp-finalize): job $id cancelled, sent again" >&9
    s scancel "$id"
    while [ -n "$(s squeue -h -j "$id" 2>/dev/null)" ]; do sleep 0.1; done
done
[ -z "$(s squeue -h -j "$id" 2>/dev/null)" ] || fail "sbatch: job $id still queued or running after 60 s"
hello_lines "$(cat "$SL/job.out")" || fail "sbatch: job $id: $SL/job.out has: $(tr '\n' '|' <"$SL/job.out")"
slurm_nothing_left "sbatch"
echo "ok: sbatch of a script that calls srun --mpi=$mpi hello"

# A processor that fails on node 2 (the last one): exactly one line,
# naming it, not also one for a processor that srun killed afterwards, and
# the job ends (issue 31 item 2; a processor killed by a signal kept the
# others waiting until srun's time limit: docs/mpi.md, srun-signal; with
# Open MPI's build at 1 a node a SIGKILL did so until its watcher ended
# the step by scancel).
last=$((p - 1)) cases=("err_exit exit $last 1|processor $last exited with status 4 in superstep 1 without calling bsp_end"
    "err_signal segv $last 1|processor $last killed by signal 11 (SIGSEGV) in superstep 1"
    "err_signal kill $last 1|processor $last killed by signal 9 (SIGKILL) in superstep 1")
for c in "${cases[@]}"; do
    rc=0
    # shellcheck disable=SC2086
    out=$(s srun -t 1 -N 2 -n "$p" --mpi="$mpi" "$O/tests/bsp/"${c%%|*} 2>&1) || rc=$?
    [ "$rc" != 0 ] && [ "$(printf '%s\n' "$out" | grep '^superstep: ')" = "superstep: ${c#*|}" ] ||
        fail "srun ${c%%|*} (status $rc): not only 'superstep: ${c#*|}': $(printf '%s' "$out" | tr '\n' '|')"
    printf '%s\n' "$out" | grep -q 'DUE TO TIME LIMIT' && fail "srun ${c%%|*}: the job ran to srun's time limit"
    slurm_nothing_left "srun ${c%%|*}"
    echo "ok: srun ${c%%|*}: one line, status $rc"
done

# A processor whose MPI cannot start (its PMI server's address one that
# nobody serves): its line, and the job ends (the others waited in their
# MPI_Init until the time limit, without a line).  Open MPI's build: when
# the end comes before srun has launched the step on every node, srun
# drops every node's output, the line too, and says so (2 of 12 runs with
# three busy loops beside; docs/cluster.md): accepted as that.
rc=0
out=$(s srun -t 1 -N 2 -n "$p" --mpi="$mpi" sh -c '[ "$SLURM_PROCID" != '"$last"' ] ||
    for v in $(env | sed -n "s/^\(PMIX_SERVER_URI[0-9]*\|PMI_FD\|PMI_PORT\)=.*/\1/p"); do
        export "$v=tcp4://10.77.0.9:1"; done; exec "$0"' "$O/examples/hello" 2>&1) || rc=$?
line=$(printf '%s\n' "$out" | grep '^superstep: ')
unlaunched() { [ -z "$line" ] && printf '%s\n' "$out" | grep -Eq "^srun: (launch/slurm: .* aborted before step completely launched|Force Terminated )"; }
[ "$rc" != 0 ] && { printf '%s\n' "$line" | grep -Eqx "superstep: processor $last (exited with status [0-9]+|killed by signal [0-9]+ \([A-Z]+\)) in MPI_Init" || unlaunched; } ||
    fail "srun hello, MPI_Init failing on processor $last (status $rc): not one line naming it: $(printf '%s' "$out" | tr '\n' '|')"
printf '%s\n' "$out" | grep -q 'DUE TO TIME LIMIT' && fail "srun hello, MPI_Init failing: the job ran to srun's time limit"
slurm_nothing_left "srun hello, MPI_Init failing"
echo "ok: srun hello, MPI_Init failing on processor $last: status $rc, ${line:-no line: srun dropped the output of a step it had not launched completely}"

# Without this MPI's PMI: MPICH's build under --mpi=pmix or no --mpi sees
# a job of 1, Open MPI's under --mpi=pmi2 or no --mpi cannot start MPI (a
# page of Open MPI's text for each processor before); each says so in one
# line, before the program prints anything, and the job fails.
if [ "$mpikind" = mpich ]; then other=(pmix none) fails="MPICH .* sees a job of 1"; else
    other=(pmi2 none) fails="Open MPI .* starts them as one job only through PMIx"; fi
for m in "${other[@]}"; do
    rc=0
    out=$(s srun -N 2 -n "$p" --mpi=$m "$O/examples/hello" 2>&1) || rc=$?
    own=$(printf '%s\n' "$out" | grep -v -E '^(srun|slurmstepd[-a-z0-9]*): ') # all but Slurm's
    [ "$rc" != 0 ] && printf '%s\n' "$own" | grep -q "^superstep: the launcher started $p processes, but $fails" &&
        [ "$(printf '%s\n' "$own" | grep -c .)" = 1 ] || fail "srun --mpi=$m hello (status $rc): $out"
    slurm_nothing_left "srun --mpi=$m hello"
    echo "ok: srun --mpi=$m with $mpikind's build: $own"
done

# Ctrl-C as a user types it (srun reports at the first, stops the job at
# the second within a second) while processor $last computes and the
# others wait in bsp_sync (tests/cluster/wait_step): one line a node, each
# saying where that node's processors were (issue 35 item 1), status
# non-zero.  Last: the ranks' watchers are left to the bed's init, which
# reaps late (tests/cluster/slurm_known.sh ctrlc).
"$bed" node "$BED" 1 srun -N 2 -n "$p" --mpi="$mpi" "$O/tests/cluster/wait_step" 1 >"$SL/ctrlc.out" 2>&1 &
srunpid=$!
for i in $(seq 1 300); do
    [ "$(grep -c ' in superstep ' "$SL/ctrlc.out")" = "$p" ] || ! kill -0 "$srunpid" 2>/dev/null && break
    sleep 0.1
done
[ "$(grep -c ' in superstep ' "$SL/ctrlc.out")" = "$p" ] || fail "ctrlc: wait_step did not start: $(tr '\n' '|' <"$SL/ctrlc.out")"
for i in $(seq 1 20); do kill -INT "$srunpid" 2>/dev/null || break; sleep 0.3; done
rc=0
wait "$srunpid" || rc=$?
lines=$(grep '^superstep: ' "$SL/ctrlc.out")
n=$(printf '%s\n' "$lines" | grep -c .)
[ "$rc" != 0 ] && [ "$n" -ge 1 ] && [ "$n" -le 2 ] &&
    ! printf '%s\n' "$lines" | grep -Evq "^superstep: processor [0-9]+ killed by signal 2 \(SIGINT\) in superstep 1; on this machine, processors? [0-9].* (was|were) (in bsp_sync|computing)$" ||
    fail "ctrlc (status $rc): not one line a node saying where its processors were: $(tr '\n' '|' <"$SL/ctrlc.out")"
echo "ok: srun Ctrl-C: status $rc: $(printf '%s' "$lines" | tr '\n' '|')"
exit 0
