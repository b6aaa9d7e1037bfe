# bench_table.sh - the benchmark commands bench/RESULTS.md names work as a user
# types them: bench/run --table, bench/peers --table and bench/cluster
# --table (from another folder) print a raw file's
# tables with nothing built, labelled with the machine the raw file records
# (not the one printing it); bench/run says which benchmark it is on as it
# goes, and --raw records the machine; bench/peers without the peer
# libraries says where to get them and how to name them.  The measuring
# programs are stand-ins here (bench/run itself is minutes of load).
# RUN: timeout=120
set -u
fail() { echo "${0##*/}: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
here_cpu="$(nproc) cores ($(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1))"
there_cpu="96 cores (Test CPU 9000 of another machine)"
empty=$tmp/nothing-built
mkdir -p "$empty"

# bench/run --table: nothing built, the recorded machine.
printf '# machine: %s\nempty_p2 0.25 us\nempty_p2 0.75 us\nempty_p2_flag 0.2 us\n' "$there_cpu" >"$tmp/r.raw"
O=$empty BINDIR=$empty bench/run --table "$tmp/r.raw" >"$tmp/out" 2>"$tmp/err" ||
    fail "bench/run --table with nothing built: status $? ($(cat "$tmp/err"))"
head -n 2 "$tmp/out" | grep -qF "from $tmp/r.raw (measured lines: medians of every value of a name), $there_cpu" ||
    fail "bench/run --table does not name the recorded machine: $(head -n 2 "$tmp/out")"
grep -qF "$here_cpu" "$tmp/out" && [ "$here_cpu" != "$there_cpu" ] && fail "bench/run --table names this machine"
grep -Eq '^empty superstep +2 +0\.5 us ' "$tmp/out" || fail "bench/run --table: no empty superstep row of 0.5 us: $(cat "$tmp/out")"
grep -v '^#' "$tmp/r.raw" >"$tmp/old.raw"
O=$empty BINDIR=$empty bench/run --table "$tmp/old.raw" 2>/dev/null | head -n 2 | grep -q ', machine not recorded$' ||
    fail "bench/run --table of a raw file without its machine does not say so"

# bench/peers --table: the same.
printf '# machine: %s\n# mpi: mpirun (Test MPI) 9.9\nss:empty_p2 0.3 us\nyard:memcpy_1MiB 30 GB/s\n' "$there_cpu" >"$tmp/p.raw"
O=$empty BINDIR=$empty bench/peers --table "$tmp/p.raw" >"$tmp/out" 2>"$tmp/err" ||
    fail "bench/peers --table with nothing built: status $? ($(cat "$tmp/err"))"
grep -qxF "Superstep beside MulticoreBSP for C and BSPonMPI, from $tmp/p.raw, $there_cpu" "$tmp/out" ||
    fail "bench/peers --table does not name the recorded machine: $(head -n 3 "$tmp/out")"
grep -q '^mpirun (Test MPI) 9.9; mpirun: ' "$tmp/out" || fail "bench/peers --table does not name the recorded MPI"
grep -q '^| empty superstep (us) | 2 | 0.300 |' "$tmp/out" || fail "bench/peers --table: no empty superstep cell: $(cat "$tmp/out")"

# bench/cluster --table, from another folder: the recorded machine, MPI and
# launcher; medians, ratios over plain MPI (time for the empty superstep,
# bandwidth for the transfers), "-" where a library has no figure.
printf '# machine: %s\n# mpi: mpirun (Test MPI) 9.9\n# launcher: mpirun --hostfile BED/hostfile\n' "$there_cpu" >"$tmp/c.raw"
printf 'ss:empty_p2 %s us\n' 10 30 20 >>"$tmp/c.raw"
printf 'mpi:mpi_twosided_empty_p2 5 us\nss:put_p4_64MiB 0.5 GB/s\nmpi:mpi_twosided_bulk_64MiB_p4 1 GB/s\n' >>"$tmp/c.raw"
(cd "$tmp" && O=$empty "$OLDPWD/bench/cluster" --table c.raw) >"$tmp/out" 2>"$tmp/err" ||
    fail "bench/cluster --table with nothing built: status $? ($(cat "$tmp/err"))"
grep -qxF "Superstep across 2 nodes beside plain MPI and BSPonMPI, from c.raw, $there_cpu" "$tmp/out" ||
    fail "bench/cluster --table does not name the recorded machine: $(head -n 3 "$tmp/out")"
grep -qxF 'mpirun (Test MPI) 9.9; launcher: mpirun --hostfile BED/hostfile' "$tmp/out" ||
    fail "bench/cluster --table does not name the recorded MPI and launcher: $(head -n 4 "$tmp/out")"
grep -qF '| empty superstep (us) | 2 | 20.0 | - | 5.00 | 4.00 | - | 10-30 | 5-5 |' "$tmp/out" ||
    fail "bench/cluster --table: no empty superstep row of 20 us, 4x MPI's: $(cat "$tmp/out")"
grep -qF '| bsp_put 64 MiB (GB/s per processor) | 4 | 0.500 | - | 1.00 | 0.50 |' "$tmp/out" ||
    fail "bench/cluster --table: no bsp_put 64 MiB row at half MPI's bandwidth: $(cat "$tmp/out")"

# Stand-ins for what make bench builds: each prints one figure at once.
o=$tmp/o bin=$tmp/bin
mkdir -p "$o/bench" "$bin"
for prog in yardstick empty puts bulk hpsizes send begin memory; do
    printf '#!/bin/sh\necho "%s_stand_in 1 us"\n' "$prog" >"$o/bench/$prog"
done
printf '#!/bin/sh\nshift 2\nexec "$@"\n' >"$bin/bsprun"
printf '#!/bin/sh\necho "summary: p=1 g_us=0.001 l_us=1"\n' >"$bin/bspbench"
chmod +x "$o/bench/"* "$bin/"*
O=$o BINDIR=$bin bench/run --quick --raw "$tmp/m.raw" --keep "$tmp/keep" >"$tmp/out" 2>"$tmp/err" ||
    fail "bench/run --quick with stand-ins: status $? ($(cat "$tmp/err"))"
# One line as each benchmark starts, naming it, with the seconds so far.
for what in "yardstick memcpy 1 4 16 64" "$o/bench/empty" "$o/bench/memory 1024 1024" "$bin/bspbench"; do
    grep -Eq "^bench/run: [0-9]+ s: [0-9]+x .*$what" "$tmp/err" || fail "bench/run says nothing as '$what' starts: $(cat "$tmp/err")"
done
[ "$(grep -Ec '^bench/run: [0-9]+ s: ' "$tmp/err")" -ge 25 ] || fail "bench/run: too few progress lines: $(cat "$tmp/err")"
grep -qxF "# machine: $here_cpu" "$tmp/m.raw" || fail "bench/run --raw does not record the machine: $(head -n 2 "$tmp/m.raw")"

# bench/peers without the peers: where to get them, how to name them.
printf '#!/bin/sh\nexit 0\n' >"$bin/mpirun"
chmod +x "$bin/mpirun"
mkdir -p "$o/bench/mpi"
cp "$o/bench/empty" "$o/bench/mp_bench" && cp "$o/bench/empty" "$o/bench/mpi/pingpong"
PATH=$bin:$PATH O=$o BINDIR=$bin bench/peers --mcbsp "$tmp/no-mcbsp" --bsponmpi "$tmp/no-bsponmpi" >"$tmp/out" 2>"$tmp/err" &&
    fail "bench/peers without the peers succeeded"
for want in "no $tmp/no-mcbsp/bin/bspcc" "http://www.multicorebsp.com" "https://github.com/wijnand-suijlen/bsponmpi" \
    "make bench-peers MCBSP=PREFIX BSPONMPI=PREFIX"; do
    grep -qF "$want" "$tmp/err" || fail "bench/peers without the peers does not say '$want': $(cat "$tmp/err")"
done
exit 0
