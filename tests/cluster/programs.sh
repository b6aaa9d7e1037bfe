# programs.sh - programs run across nodes as on a cluster: 2 nodes of the
# test bed (tests/cluster/bed.sh), PPN ranks a node, through the launcher
# of $O's MPI as a user types it (Open MPI: mpirun --hostfile; MPICH:
# Hydra's mpiexec -f), default MPI settings.  Each program prints what it
# promises (the examples) or checks itself (the tests: status 0), and
# leaves no process and no file in any node's /dev/shm or /tmp.
# Usage: programs.sh PPN
# RUN: n=2 args="1" timeout=300
# RUN: n=4 args="2" timeout=300
. tests/cluster/bed.inc
ppn=$1 p=$((2 * $1))
# Not run in CI: MPICH 4.0.2, 2 ranks a node, jobs hang at their end in
# MPI_Finalize (docs/cluster.md, "Not working yet"; tests/cluster/known
# hang measures it).  SUPERSTEP_TEST_KNOWN=1 runs it.
if [ "$mpikind" = mpich ] && [ "$ppn" -gt 1 ] && [ "${SUPERSTEP_TEST_KNOWN:-}" != 1 ]; then
    echo "SKIP: MPICH with $ppn ranks a node: the hang at the end of issue 31 (tests/cluster/known hang); SUPERSTEP_TEST_KNOWN=1 runs it"
    exit 77
fi
fail() { echo "programs.sh ($mpikind, 2 nodes x $ppn): $*" >&2; exit 1; }
bed_up 2

run() { # expected-stdout-ERE (or ''), program, args...
    local want=$1 prog=$2 out rc=0
    shift 2
    out=$(launch "$ppn" "$p" "$O/$prog" "$@" 2>&1) || rc=$?
    [ "$rc" = 0 ] || fail "$prog $*: exit status $rc: $(printf '%s' "$out" | tail -5 | tr '\n' '|')"
    [ -z "$want" ] || printf '%s\n' "$out" | grep -Eq "$want" ||
        fail "$prog $*: not '$want' in: $(printf '%s' "$out" | tail -5 | tr '\n' '|')"
    nothing_left "$prog $*"
    echo "ok: $prog $* ($SECONDS s)"
}

# The examples.
out=$(launch "$ppn" "$p" "$O/examples/hello" 2>&1) || fail "hello: exit status $?: $out"
for s in $(seq 0 $((p - 1))); do
    printf '%s\n' "$out" | grep -qx "Hello from processor $s of $p" || fail "hello: no line from $s: $out"
done
nothing_left hello
run "^inner product of two vectors of length 1000000 on $p processors = 333333833333" examples/inner_product
# Nodes that differ: 3 processors, 2 on node 1 (sharing its CPU: its waits
# nap) and 1 on node 2 (which spins).  Every rank makes the same MPI calls
# (a job whose nodes chose blocking and non-blocking collectives by their
# own crowding hung in its first exchange).
if [ "$ppn" = 2 ]; then
    out=$(launch 2 3 "$O/tests/bsp/put_basic" 2>&1) || fail "put_basic on 3 processors, 2 + 1: exit status $?: $out"
    nothing_left "put_basic on 3 processors"
    echo "ok: tests/bsp/put_basic on 3 processors, 2 on node 1 and 1 on node 2"
fi
run "^sorted 100000 numbers on $p processors$" examples/sort 100000
run "^sum of 1..1000 = 500500 on $p processors, each with an inner run of 2$" examples/hierarchical 1000
run "^primes below 100000: 9592 " examples/master_worker 100000

# BSPlib: puts, gets, bsmp, hpput/hpget, registration, many supersteps,
# the collectives, bsp_direct_get (two-sided where Open MPI has no window
# over TCP: it failed on every rank before); mp.h: send and receive.
for t in bsp/put_basic bsp/get_basic bsp/put_many bsp/put_get_order bsp/bsmp_many bsp/bsmp_order \
    bsp/hp bsp/reg_many bsp/sync_many bsp/direct_get_sync coll/model mp/pingpong mp/order mp/many mp/zero; do
    run "" "tests/$t" $([ "$t" = bsp/sync_many ] && echo 500)
done

# Epiphany: the host on node 1, 3 kernels it spawns (a free slot on node 1,
# the others on node 2); an MPI that cannot spawn (Debian's MPICH 4.0.2,
# docs/mpi.md) runs them on the host's node, with one warning saying so.
out=$(launch_cmd 2 1; job env SUPERSTEP_NPROCS=3 "${cmd[@]}" "$O/examples/ebsp/dot_product_host" 2>&1) ||
    fail "ebsp dot_product_host: exit status $?: $out"
printf '%s\n' "$out" | grep -q '^dot product of two vectors of length 100000 on 3 processors = -25 (expected -25)$' ||
    fail "ebsp dot_product_host: $out"
nothing_left "ebsp dot_product_host"
echo "ok: ebsp dot_product_host: $(printf '%s' "$out" | grep -c '^superstep: warning') warnings"
exit 0
