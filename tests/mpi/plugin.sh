# plugin.sh - a program built with an installed Superstep's bspcc, or
# linked by hand with its libsuperstep.a without -lmpi, or with its
# libsuperstep.so, needs no libmpi (ldd), and the same binary runs on the
# mpi device unchanged, under the launcher and under bsprun --device mpi,
# the library loading the installed plug-in (found beside libsuperstep.so,
# or in the folder compiled into the installed libsuperstep.a).  And the
# plug-in is mapped on mpi (tests/core/plugin_maps.c: never on shm).  A
# program built with bspcc -static runs on shm, and on mpi says in its
# error line that it cannot load the plug-in.
# RUN: n=2 timeout=600
set -u
. tests/tools/install.inc
p=$SUPERSTEP_NPROCS
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# Open MPI does not free what MPI_Init allocates (bsprun starts mpirun here).
[ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
unset SUPERSTEP_DEVICE SUPERSTEP_DEVICE_MANDATORY SUPERSTEP_PLUGIN_DIR LD_LIBRARY_PATH

out=$($MPIRUN -n "$p" "$O/tests/core/plugin_maps" present 2>&1) || fail "plugin_maps present: $out"
[ "$out" = "present on $p processors (device mpi)" ] || fail "plugin_maps present printed: $out"

# Installed: the build under test (its MPI: an MPICH build's plug-in under
# MPICH's launcher), or under SANITIZE the release build (install.inc).
prefix=$work/prefix
if [ "${SANITIZE:-}" = 1 ]; then
    install_superstep "$prefix"
else
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$root" install PREFIX="$prefix" O="$O" BINDIR="$BINDIR" \
        LIBDIR="$(dirname "$BINDIR")/lib" MPICC="$(sed -n 's/^mpicc=//p' "$O/config")" >"$work/make.log" 2>&1 ||
        fail "make install PREFIX=$prefix O=$O failed: $(tail -n 5 "$work/make.log")"
fi
[ -f "$prefix/lib/superstep/device-mpi.so" ] || fail "no $prefix/lib/superstep/device-mpi.so installed"
cp examples/hello.c "$work/"
( cd "$work" && "$prefix/bin/bspcc" hello.c -o hello_bspcc ) || fail "the installed bspcc fails"
cc -Iinclude "$work/hello.c" -o "$work/hello_static" "$prefix/lib/libsuperstep.a" -lpthread -lm -ldl ||
    fail "no static link against libsuperstep.a without -lmpi"
cc -Iinclude "$work/hello.c" -o "$work/hello_shared" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lsuperstep ||
    fail "no link against libsuperstep.so"
for prog in hello_bspcc hello_static hello_shared; do
    bin=$work/$prog
    ! ldd "$bin" | grep -q 'libmpi\|libopen-\|libhwloc\|libevent' || fail "$prog needs MPI's libraries: $(ldd "$bin")"
    for how in launcher bsprun; do
        case $how in
        launcher) out=$(SUPERSTEP_DEVICE_MANDATORY=1 $MPIRUN -n "$p" "$bin" 2>&1) ;;
        bsprun) out=$("$prefix/bin/bsprun" --device mpi --mandatory -n "$p" "$bin" 2>&1) ;;
        esac || fail "$prog under the $how: exit status $?: $out"
        for s in $(seq 0 $((p - 1))); do
            [ "$(grep -cx "Hello from processor $s of $p" <<<"$out")" = 1 ] || fail "$prog under the $how printed: $out"
        done
        [ "$(wc -l <<<"$out")" = "$p" ] || fail "$prog under the $how printed: $out"
    done
done

# A static program (bspcc -static) runs on shm; on the mpi device it has no
# dynamic loader to load the plug-in with (dlopen would bring in a second
# C library, where libmpi crashed), and says so.
( cd "$work" && "$prefix/bin/bspcc" -static hello.c -o hello_static_exe 2>/dev/null ) || fail "bspcc -static fails"
out=$(SUPERSTEP_NPROCS=$p "$work/hello_static_exe" 2>&1)
[ "$(grep -c '^Hello from processor' <<<"$out")" = "$p" ] || fail "the static program on shm printed: $out"
out=$("$prefix/bin/bsprun" --device mpi --mandatory -n "$p" "$work/hello_static_exe" 2>&1) &&
    fail "the static program ran on the mpi device: $out"
want="^superstep: bsp_begin: device mpi cannot be used on $(hostname) \(rank [0-9]+ of the $p processes the launcher started, which would each run the program alone on shm\): cannot load its plug-in into a statically linked program: link it without -static$"
grep -qE "$want" <<<"$out" && ! grep -vqE "$want" <<<"$out" || fail "the static program on the mpi device printed: $out"
exit 0
