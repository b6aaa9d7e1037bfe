# lines.sh - output lines of different ranks never mix inside a line
# (tests/mpi/lines.c: every processor prints many records of its own letter,
# one per line, to stdout and stderr, and a last one without a newline).
# Every line read back must be whole records only, and every record must be
# there.  Usage: lines.sh MODE LONGEST, n the job's size:
#   file     mpirun, stdout and stderr to two files
#   pipe     mpirun, stdout and stderr through one pipe
#   bsprun   bsprun --device mpi, stdout to a pipe, stderr to a file
# Lines are kept whole up to PIPE_BUF (4096 bytes) where the launcher reads
# a pipe (MPICH's stdout and stderr, Open MPI's stderr); Open MPI's stdout
# is a pseudo-terminal, which cuts longer writes (docs/mpi.md, "Output"):
# with Open MPI, stdout's lines are checked only in the runs with short
# lines.
# RUN: n=4 args="file 4000"
# RUN: n=4 args="pipe 4000"
# RUN: n=3 args="bsprun 4000"
# RUN: n=4 args="file 700"
# RUN: n=4 args="pipe 700"
# RUN: n=8 args="file 700"
set -u
n=$SUPERSTEP_NPROCS
mode=$1 longest=$2
rounds=30
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
prog=$O/tests/mpi/lines
fail() { echo "lines.sh $mode $longest: $*" >&2; exit 1; }
status=0
case $mode in
file) $MPIRUN -n "$n" "$prog" $rounds "$longest" >"$dir/out" 2>"$dir/err" </dev/null || status=$? ;;
pipe) $MPIRUN -n "$n" "$prog" $rounds "$longest" 2>&1 </dev/null | cat >"$dir/out" || status=$? ;;
bsprun) "$BINDIR/bsprun" --device mpi -n "$n" "$prog" $rounds "$longest" 2>"$dir/err" </dev/null | cat >"$dir/out" || status=$? ;;
*) fail "unknown mode" ;;
esac
[ "$status" = 0 ] || fail "exit status $status"
touch "$dir/err"
# Open MPI's stdout (a pseudo-terminal) keeps lines whole only when short.
strict_out=1
grep -qx 'mpikind=mpich' "$O/config" || [ "$longest" -le 700 ] || strict_out=0
[ "$mode" = pipe ] && [ $strict_out = 0 ] && exit 0 # stdout and stderr mixed: nothing strict to check
python3 - "$n" "$rounds" "$longest" "$strict_out" "$dir/out" "$dir/err" <<'PY' || fail "lines mixed (above)"
import re, sys
n, rounds, longest, strict_out = (int(a) for a in sys.argv[1:5])
rec = re.compile(r'(\d+):(\d+):([a-z]*)\.')
lengths = [l for l in (1, 80, 700, 1700, 2000, 3000, 4000, 4200, 9000, 70000, 200000) if l <= longest]
count, bad = {}, 0
for path, strict in ((sys.argv[5], strict_out), (sys.argv[6], 1)):
    for number, line in enumerate(open(path, 'rb').read().decode('latin-1').split('\n'), 1):
        pos = 0
        while pos < len(line):
            m = rec.match(line, pos)
            if not m or int(m.group(2)) != len(m.group(3)) or set(m.group(3)) - {chr(97 + int(m.group(1)) % 26)}:
                if strict:
                    bad += 1
                    if bad <= 3:
                        print('%s:%d: not a whole record at column %d: %r...' % (path, number, pos, line[pos:pos + 60]))
                break
            count[int(m.group(1))] = count.get(int(m.group(1)), 0) + 1
            pos = m.end()
if strict_out:
    for s in range(n):
        if count.get(s, 0) != rounds * len(lengths) + 2:
            print('processor %d: %d whole records, not %d' % (s, count.get(s, 0), rounds * len(lengths) + 2))
            bad += 1
sys.exit(1 if bad else 0)
PY
