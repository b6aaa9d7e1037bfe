# plugin.sh - choosing the mpi device loads its plug-in; when the plug-in
# cannot be loaded the program says why in one line and runs on shm (one
# warning), or, with SUPERSTEP_DEVICE_MANDATORY=1, stops with that line
# and status 1.  Needs no MPI: the launcher's variable is faked, which
# only makes the library choose mpi (no plug-in is loaded in these cases).
#   missing   SUPERSTEP_PLUGIN_DIR names a folder without device-mpi.so
#   foreign   a device-mpi.so for another version of the core's services
#   headers   a device-mpi.so of the same version built from other headers
#             (another interface checksum)
#   notone    a shared object that is no plug-in (no entry point)
# RUN: n=2 args="missing"
# RUN: n=2 args="foreign"
# RUN: n=2 args="headers"
# RUN: n=2 args="notone"
set -u
p=$SUPERSTEP_NPROCS
mode=$1
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
out=$work/out err=$work/err
fail() { echo "plugin.sh $mode: $*" >&2; echo "-- stderr" >&2; cat "$err" >&2; exit 1; }
hello=$O/examples/hello
so=$work/plugins/device-mpi.so
mkdir -p "$work/plugins"
case $mode in
missing) why="cannot load its plug-in: $so: cannot open shared object file: No such file or directory" ;;
foreign)
    printf 'const unsigned superstep_plugin_version = 1;\nconst unsigned long long superstep_plugin_abi = 7;\nvoid *superstep_plugin_entry(void) { return 0; }\n' >"$work/p.c"
    gcc -shared -fPIC "$work/p.c" -o "$so" || fail "cannot build the stand-in"
    why="its plug-in $so takes version 1 of the core's services, this library gives version [0-9]+: rebuild or reinstall both, or set SUPERSTEP_PLUGIN_DIR" ;;
headers)
    version=$(sed -n 's/^#define PLUGIN_VERSION \([0-9]*\)u$/\1/p' src/mpi/plugin.h)
    [ -n "$version" ] || fail "no PLUGIN_VERSION in src/mpi/plugin.h"
    printf 'const unsigned superstep_plugin_version = %s;\nconst unsigned long long superstep_plugin_abi = 7;\nvoid *superstep_plugin_entry(void) { return 0; }\n' "$version" >"$work/p.c"
    gcc -shared -fPIC "$work/p.c" -o "$so" || fail "cannot build the stand-in"
    why="its plug-in $so was built from other sources than this library \(interface 7, the library's [0-9]+\): rebuild or reinstall both, or set SUPERSTEP_PLUGIN_DIR" ;;
notone)
    printf 'int not_a_plugin;\n' >"$work/p.c"
    gcc -shared -fPIC "$work/p.c" -o "$so" || fail "cannot build the stand-in"
    why="its plug-in $so is not one \(no superstep_plugin_version\)" ;;
esac
export SUPERSTEP_PLUGIN_DIR=$work/plugins OMPI_COMM_WORLD_SIZE=1
unset SUPERSTEP_DEVICE_MANDATORY
SUPERSTEP_DEVICE=mpi "$hello" >"$out" 2>"$err" || fail "fallback: exit status $?"
[ "$(wc -l <"$out")" = "$p" ] || fail "fallback: not $p lines of output: $(cat "$out")"
[ "$(wc -l <"$err")" = 1 ] || fail "fallback: not one line on stderr"
grep -qE "^superstep: warning: device mpi cannot be used \($why\); running on shm$" "$err" ||
    fail "fallback: not the warning expected"
SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 "$hello" >"$out" 2>"$err" && fail "mandatory: exit status 0"
[ "$?" = 1 ] || fail "mandatory: exit status not 1"
[ ! -s "$out" ] || fail "mandatory: output: $(cat "$out")"
[ "$(wc -l <"$err")" = 1 ] || fail "mandatory: not one line on stderr"
grep -qE "^superstep: bsp_begin: device mpi cannot be used: $why \(SUPERSTEP_DEVICE_MANDATORY=1\)$" "$err" ||
    fail "mandatory: not the error expected"
# auto under a launcher of one process: the same warning.
env -u SUPERSTEP_DEVICE "$hello" >"$out" 2>"$err" || fail "auto: exit status $?"
grep -qE "^superstep: warning: device mpi cannot be used \($why\); running on shm$" "$err" ||
    fail "auto: not the warning expected"
# Under a launcher that started several processes, running each alone on
# shm would change what the program means: an error, naming the rank.
for dev in mpi auto; do
    OMPI_COMM_WORLD_SIZE=4 OMPI_COMM_WORLD_RANK=2 SUPERSTEP_DEVICE=$dev "$hello" >"$out" 2>"$err" &&
        fail "$dev, 4 processes started: exit status 0"
    [ ! -s "$out" ] || fail "$dev, 4 processes started: output: $(cat "$out")"
    [ "$(wc -l <"$err")" = 1 ] || fail "$dev, 4 processes started: not one line on stderr"
    grep -qE "^superstep: bsp_begin: device mpi cannot be used on $(hostname) \(rank 2 of the 4 processes the launcher started, which would each run the program alone on shm\): $why$" "$err" ||
        fail "$dev, 4 processes started: not the error expected: $(cat "$err")"
done
exit 0
