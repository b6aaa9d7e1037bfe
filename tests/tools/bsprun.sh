# bsprun.sh - bsprun's options (getopt_long) and every error of its option
# parsing: each bad option or value is one line "bsprun: ..." on stderr and
# exit status 2; the program's own arguments are never bsprun's; --show
# prints the command that would run, on either device, and runs nothing.
# The error cases, one RUN line each:
# RUN: cmd="$BINDIR/bsprun -nabc true" fail="^bsprun: bad processor count 'abc' for -n \(a number 1..65535\)"
# RUN: cmd="$BINDIR/bsprun -n abc true" fail="^bsprun: bad processor count 'abc'"
# RUN: cmd="$BINDIR/bsprun -n 0 true" fail="^bsprun: bad processor count '0'"
# RUN: cmd="$BINDIR/bsprun -n -1 true" fail="^bsprun: bad processor count '-1'"
# RUN: cmd="$BINDIR/bsprun -n 65536 true" fail="^bsprun: bad processor count '65536'"
# RUN: cmd="$BINDIR/bsprun -n 4x true" fail="^bsprun: bad processor count '4x'"
# RUN: cmd="$BINDIR/bsprun -n 99999999999999999999 true" fail="^bsprun: bad processor count '99999999999999999999'"
# RUN: cmd="$BINDIR/bsprun --nprocs= true" fail="^bsprun: bad processor count ''"
# RUN: cmd="$BINDIR/bsprun -n" fail="^bsprun: option '-n' needs a value"
# RUN: cmd="$BINDIR/bsprun --device" fail="^bsprun: option '--device' needs a value"
# RUN: cmd="$BINDIR/bsprun --profile" fail="^bsprun: option '--profile' needs a value"
# RUN: cmd="$BINDIR/bsprun --profile= true" fail="^bsprun: --profile needs a file name"
# RUN: cmd="$BINDIR/bsprun --device gpu true" fail="^bsprun: unknown device 'gpu' for --device \(shm, mpi or auto\)"
# RUN: cmd="$BINDIR/bsprun --frobnicate true" fail="^bsprun: unknown option '--frobnicate'"
# RUN: cmd="$BINDIR/bsprun -q true" fail="^bsprun: unknown option '-q'"
# RUN: cmd="$BINDIR/bsprun --mandatory=yes true" fail="^bsprun: unknown option '--mandatory=yes'"
# RUN: cmd="$BINDIR/bsprun" fail="^bsprun: no program to run \(try bsprun --help\)"
# RUN: cmd="$BINDIR/bsprun -n 2" fail="^bsprun: no program to run"
# RUN: cmd="$BINDIR/bsprun -n 2 --" fail="^bsprun: no program to run"
# RUN: cmd="$BINDIR/bsprun -n 2 ./no-such-program" fail="^bsprun: cannot run ./no-such-program: No such file or directory"
# The rest, by this script:
# RUN: n=1 timeout=120
set -u
. tests/tools/install.inc
bsprun=$BINDIR/bsprun

# Each error: exactly one line on stderr, nothing on stdout, status 2.
for args in "-nabc true" "-n 0 true" "-n -1 true" "-n" "--device gpu true" "--frobnicate" "-q true" ""; do
    # shellcheck disable=SC2086
    out=$("$bsprun" $args 2>"$root/.bsprun.err.$$"); rc=$?
    err=$(cat "$root/.bsprun.err.$$"); rm -f "$root/.bsprun.err.$$"
    [ "$rc" = 2 ] || fail "bsprun $args: exit status $rc, not 2"
    [ -z "$out" ] || fail "bsprun $args: printed on stdout: $out"
    [ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "bsprun $args: not one line: $err"
    case "$err" in "bsprun: "*"(try bsprun --help)") ;; *) fail "bsprun $args: $err" ;; esac
done

# What each option sets, seen by the program (env).
env_of() { "$bsprun" "$@" env | grep -v "^SUPERSTEP_TEST\|^SUPERSTEP_MACHINE_FILE=" | grep '^SUPERSTEP_' | sort | tr '\n' ' '; }
# Only what bsprun sets: none of the caller's own SUPERSTEP_ variables (CI
# may set SUPERSTEP_CONFORMANCE) but the runner's.
for v in $(compgen -e | grep '^SUPERSTEP_' | grep -v '^SUPERSTEP_TEST\|^SUPERSTEP_MACHINE_FILE$'); do
    unset "$v"
done
for form in "-n 3" "-n3" "--nprocs 3" "--nprocs=3" "-np 3" "-n 003" "--npr 3"; do
    # shellcheck disable=SC2086
    got=$(env_of $form)
    [ "$got" = "SUPERSTEP_NPROCS=3 " ] || fail "bsprun $form: the program sees '$got'"
done
got=$(env_of -n 2 --device shm --mandatory --profile /tmp/t.json)
[ "$got" = "SUPERSTEP_DEVICE=shm SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_NPROCS=2 SUPERSTEP_PROFILE=/tmp/t.json " ] ||
    fail "bsprun -n 2 --device shm --mandatory --profile: the program sees '$got'"
got=$(env_of --stall-timeout 5 -n 2)
[ "$got" = "SUPERSTEP_NPROCS=2 SUPERSTEP_STALL_TIMEOUT=5 " ] || fail "bsprun --stall-timeout 5: the program sees '$got'"
err=$("$bsprun" --stall-timeout=soon true 2>&1) && fail "bsprun --stall-timeout=soon: status 0"
case "$err" in "superstep: SUPERSTEP_STALL_TIMEOUT='soon' is not accepted: expected "*) ;;
    *) fail "bsprun --stall-timeout=soon: $err" ;; esac
got=$(env_of --device=auto)
[ "$got" = "SUPERSTEP_DEVICE=auto " ] || fail "bsprun --device=auto: the program sees '$got'"

# Options end at the program: its own -n and --help are its own.
got=$("$bsprun" -n 2 sh -c 'echo "$SUPERSTEP_NPROCS $*"' prog -n 5 --help) || fail "bsprun with program options failed"
[ "$got" = "2 -n 5 --help" ] || fail "program arguments changed: '$got'"
got=$("$bsprun" -n 2 -- sh -c 'echo "$*"' prog -x) || fail "bsprun -- failed"
[ "$got" = "-x" ] || fail "bsprun -- prog: '$got'"
# A program exiting with 3 gives 3.
"$bsprun" -n 1 sh -c 'exit 3'; rc=$?
[ "$rc" = 3 ] || fail "the program's exit status 3 came back as $rc"

# --show prints the command, runs nothing, and the line, run by a shell,
# does what bsprun does.
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
prog=(sh -c 'touch "$0.ran"; echo "$SUPERSTEP_NPROCS $SUPERSTEP_PROFILE $SUPERSTEP_DEVICE_MANDATORY $*"' "$tmp/p" "it's" 'a b')
shown=$("$bsprun" --show -n 3 --mandatory --profile "$tmp/a b.json" "${prog[@]}") || fail "bsprun --show: status $?"
[ ! -e "$tmp/p.ran" ] || fail "bsprun --show ran the program"
[ "$(printf '%s\n' "$shown" | wc -l)" = 1 ] || fail "bsprun --show printed more than one line: $shown"
case "$shown" in "env SUPERSTEP_NPROCS=3 SUPERSTEP_DEVICE_MANDATORY=1 'SUPERSTEP_PROFILE=$tmp/a b.json' sh -c "*) ;;
    *) fail "bsprun --show printed: $shown" ;; esac
want=$("$bsprun" -n 3 --mandatory --profile "$tmp/a b.json" "${prog[@]}") || fail "bsprun: status $?"
rm -f "$tmp/p.ran"
got=$(bash -c "$shown") || fail "the line of bsprun --show failed: $shown"
[ -e "$tmp/p.ran" ] && [ "$got" = "$want" ] || fail "the line of bsprun --show printed '$got', bsprun '$want'"
[ "$("$bsprun" --show "$O/examples/hello")" = "$O/examples/hello" ] || fail "bsprun --show with no option: $("$bsprun" --show "$O/examples/hello")"
# The mpi device: mpirun (the build's, else SUPERSTEP_MPIRUN's) and its options.
if grep -qx 'mpi=yes' "$O/config"; then
    shown=$(SUPERSTEP_MPIRUN=mpirun "$bsprun" --show --device mpi -n 2 "$O/examples/hello" x) || fail "bsprun --show --device mpi: status $?"
    case "$shown" in "env SUPERSTEP_DEVICE=mpi SUPERSTEP_NPROCS=2 /"*"/mpirun "*"-n 2 $O/examples/hello x") ;;
        *) fail "bsprun --show --device mpi printed: $shown" ;; esac
    if command -v mpirun >/dev/null; then
        got=$(bash -c "$shown" | sort) || fail "the line of bsprun --show --device mpi failed: $shown"
        [ "$(printf '%s\n' "$got" | grep -c 'of 2$')" = 2 ] || fail "the line of bsprun --show --device mpi printed: $got"
    fi
    # An Epiphany host program starts on one rank (its kernels are spawned;
    # docs/mpi.md), told by host_bsp.h's section; hello above, which carries
    # the whole library archive, host layer included, is no host program.
    host=$O/examples/ebsp/dot_product_host
    shown=$(SUPERSTEP_MPIRUN=mpirun "$bsprun" --show --device mpi -n 4 "$host") || fail "bsprun --show --device mpi host: status $?"
    case "$shown" in "env SUPERSTEP_DEVICE=mpi SUPERSTEP_NPROCS=4 /"*"/mpirun "*"-n 1 $host") ;;
        *) fail "bsprun --show --device mpi of a host program printed: $shown" ;; esac
    # MPICH's Hydra exits with a killing signal's number and names it in a
    # banner on stdout, which bsprun reads: 128 + it, as mpirun gives; but
    # the banner names "Hangup (signal 1)" beside a plain exit with status
    # 1 too, which stays 1 (a CI run of MPICH's build saw 129).  A stand-in
    # mpiexec.hydra prints the banner and exits with the status given.
    mkdir "$tmp/hydra"
    printf '#!/bin/sh
echo "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: $HYDRA_SAYS"
exit $HYDRA_EXIT
' \
        >"$tmp/hydra/mpiexec.hydra"
    chmod +x "$tmp/hydra/mpiexec.hydra"
    for c in "1|Hangup (signal 1)|1" "9|Killed (signal 9)|137" "15|Terminated (signal 15)|143" "3|Quit (signal 9)|3"; do
        IFS='|' read -r code says want <<<"$c"
        HYDRA_EXIT=$code HYDRA_SAYS=$says SUPERSTEP_MPIRUN=$tmp/hydra/mpiexec.hydra \
            "$bsprun" --device mpi -n 2 "$O/examples/hello" >/dev/null 2>&1
        rc=$?
        [ "$rc" = "$want" ] || fail "Hydra's exit $code with '$says': bsprun's status $rc, not $want"
    done
    shown=$(SUPERSTEP_MPIRUN=no-such-mpirun "$bsprun" --show --device mpi -n 2 "$O/examples/hello" 2>/dev/null)
    [ "$shown" = "env SUPERSTEP_NPROCS=2 SUPERSTEP_DEVICE=shm $O/examples/hello" ] ||
        fail "bsprun --show --device mpi without mpirun printed: $shown"
fi

# --help on stdout with status 0; --version names bsp.h's version.
help=$("$bsprun" --help) || fail "bsprun --help: status $?"
for opt in --nprocs --device --mandatory --profile --stall-timeout --show --help --version; do
    printf '%s\n' "$help" | grep -q -- "$opt" || fail "bsprun --help does not mention $opt"
done
[ "$("$bsprun" -h)" = "$help" ] || fail "bsprun -h differs from --help"
version=$(sed -n 's/^#define SUPERSTEP_VERSION "\(.*\)"/\1/p' include/bsp.h)
[ "$("$bsprun" --version)" = "bsprun (Superstep) $version" ] || fail "bsprun --version: $("$bsprun" --version)"

# A BSP program on the processors asked for.
out=$("$bsprun" -n 3 "$O/examples/hello") || fail "bsprun -n 3 hello failed"
[ "$(printf '%s\n' "$out" | grep -c 'of 3')" = 3 ] || fail "bsprun -n 3 hello printed: $out"
exit 0
