# install.sh - make install PREFIX=... gives a working installation under
# any prefix: the versioned shared library (libsuperstep.so.1.0.0, SONAME
# libsuperstep.so.1, the two links), PREFIX/bin/bspcc, bspcxx and bsprun
# that build and run a program, a program built with pkg-config and one
# built with CMake (find_package(Superstep), Superstep::superstep, also
# after cmake --install) that run without LD_LIBRARY_PATH; then make
# uninstall removes every file it installed and every folder it made,
# leaving the prefix's own files and folders (an empty one too).
# RUN: n=2 timeout=900
set -u
. tests/tools/install.inc
command -v cmake >/dev/null || fail "cmake is not installed (.ci/run installs it)"
command -v pkg-config >/dev/null || fail "pkg-config is not installed (.ci/run installs it)"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset LD_LIBRARY_PATH
version=$(sed -n 's/^#define SUPERSTEP_VERSION "\(.*\)"/\1/p' include/bsp.h)

cat > "$tmp/ring.c" <<'END'
#include <bsp.h>
#include <stdio.h>

int main(void)
{
    bsp_begin(bsp_nprocs());
    int p = bsp_nprocs(), s = bsp_pid(), left = -1;
    bsp_push_reg(&left, sizeof left);
    bsp_sync();
    bsp_put((s + 1) % p, &s, &left, 0, sizeof s);
    bsp_sync();
    printf("processor %d of %d: left %d\n", s, p, left);
    bsp_pop_reg(&left);
    bsp_end();
    return 0;
}
END
check_ring() { # program how
    local out
    out=$(SUPERSTEP_NPROCS=2 "$1" 2>&1) || fail "$2: the program fails: $out"
    printf '%s\n' "$out" | grep -qx 'processor 1 of 2: left 0' &&
        printf '%s\n' "$out" | grep -qx 'processor 0 of 2: left 1' || fail "$2: the program printed: $out"
}

# A prefix with a blank-free but unusual path, installed twice over (an
# update in place must work).  It holds a file of its own in bin/ and an
# empty folder share/man/ before: uninstall must leave those.
prefix="$tmp/opt/super-step_1"
mkdir -p "$prefix/bin" "$prefix/share/man"
echo mine >"$prefix/bin/mine"
install_superstep "$prefix"
install_superstep "$prefix"
lib=$prefix/lib
[ -f "$lib/libsuperstep.so.1.0.0" ] && [ ! -L "$lib/libsuperstep.so.1.0.0" ] || fail "no $lib/libsuperstep.so.1.0.0"
[ "$(readlink "$lib/libsuperstep.so.1")" = libsuperstep.so.1.0.0 ] || fail "libsuperstep.so.1 is not a link to libsuperstep.so.1.0.0"
[ "$(readlink "$lib/libsuperstep.so")" = libsuperstep.so.1.0.0 ] || fail "libsuperstep.so is not a link to libsuperstep.so.1.0.0"
soname=$(objdump -p "$lib/libsuperstep.so.1.0.0" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libsuperstep.so.1 ] || fail "SONAME is '$soname'"
[ -f "$lib/libsuperstep.a" ] || fail "no libsuperstep.a"
[ -f "$prefix/share/doc/superstep/LICENSE" ] || fail "no LICENSE installed"
for h in bsp.h mp.h e_bsp.h host_bsp.h; do [ -f "$prefix/include/$h" ] || fail "$h not installed"; done

# The installed tools, from a directory far from the source tree.
( cd "$tmp" && "$prefix/bin/bspcc" ring.c -o ring_bspcc ) || fail "PREFIX/bin/bspcc ring.c fails"
out=$("$prefix/bin/bspcc" -show ring.c)
case "$out" in *"-I$prefix/include "*"$prefix/lib/libsuperstep.a"*) ;; *) fail "installed bspcc does not use its prefix: $out" ;; esac
out=$(cd "$tmp" && "$prefix/bin/bsprun" -n 2 ./ring_bspcc) || fail "PREFIX/bin/bsprun -n 2 ./ring fails"
printf '%s\n' "$out" | grep -qx 'processor 0 of 2: left 1' || fail "bsprun -n 2 ./ring printed: $out"
cp "$tmp/ring.c" "$tmp/ring.cpp"
"$prefix/bin/bspcxx" "$tmp/ring.cpp" -o "$tmp/ring_xx" || fail "PREFIX/bin/bspcxx ring.cpp fails"
check_ring "$tmp/ring_xx" "bspcxx"

# pkg-config: shared library, found at run time through the RPATH.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[ "$(pkg-config --modversion superstep)" = "$version" ] || fail "pkg-config --modversion: $(pkg-config --modversion superstep)"
# shellcheck disable=SC2046
cc "$tmp/ring.c" -o "$tmp/ring_pc" $(pkg-config --cflags --libs superstep) || fail "cc ring.c \$(pkg-config --cflags --libs superstep) fails"
ldd "$tmp/ring_pc" | grep -q "libsuperstep.so.1 => $lib/libsuperstep.so.1" || fail "ring_pc does not find $lib/libsuperstep.so.1: $(ldd "$tmp/ring_pc")"
check_ring "$tmp/ring_pc" "pkg-config"
# shellcheck disable=SC2046
cc "$tmp/ring.c" -o "$tmp/ring_pcs" $(pkg-config --cflags superstep) "$lib/libsuperstep.a" $(pkg-config --static --libs-only-l superstep | sed 's/-lsuperstep//') \
    $(pkg-config --static --libs-only-L superstep) || fail "static link through pkg-config --static fails"
check_ring "$tmp/ring_pcs" "pkg-config --static"
unset PKG_CONFIG_PATH

# CMake: find_package(Superstep 0.1), shared and static targets, a C and a
# C++ program, in the build tree and after cmake --install.
mkdir -p "$tmp/cm"
cp "$tmp/ring.c" "$tmp/ring.cpp" "$tmp/cm/"
cat > "$tmp/cm/CMakeLists.txt" <<END
cmake_minimum_required(VERSION 3.13)
project(ring C CXX)
find_package(Superstep $version REQUIRED)
add_executable(ring ring.c)
target_link_libraries(ring PRIVATE Superstep::superstep)
add_executable(ringxx ring.cpp)
target_link_libraries(ringxx PRIVATE Superstep::superstep)
add_executable(ring_static ring.c)
target_link_libraries(ring_static PRIVATE Superstep::superstep_static)
install(TARGETS ring ringxx ring_static DESTINATION bin)
END
cmake -S "$tmp/cm" -B "$tmp/cm/build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_INSTALL_PREFIX="$tmp/app" >"$tmp/cmake.log" 2>&1 ||
    { cat "$tmp/cmake.log" >&2; fail "cmake configure with find_package(Superstep) fails"; }
cmake --build "$tmp/cm/build" >"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log" >&2; fail "cmake --build fails"; }
cmake --install "$tmp/cm/build" >"$tmp/cmake.log" 2>&1 || { cat "$tmp/cmake.log" >&2; fail "cmake --install fails"; }
for t in ring ringxx ring_static; do
    check_ring "$tmp/cm/build/$t" "cmake ($t, build tree)"
    check_ring "$tmp/app/bin/$t" "cmake ($t, installed)"
done
ldd "$tmp/app/bin/ring" | grep -q "$lib/libsuperstep.so.1" || fail "the installed CMake program does not use $lib"
# A version that is not there is refused.
sed -i "s/find_package(Superstep $version REQUIRED)/find_package(Superstep 7.0 REQUIRED)/" "$tmp/cm/CMakeLists.txt"
if cmake -S "$tmp/cm" -B "$tmp/cm/build7" -DCMAKE_PREFIX_PATH="$prefix" >"$tmp/cmake.log" 2>&1; then
    fail "find_package(Superstep 7.0) accepted version $version"
fi

# uninstall: nothing of Superstep's is left, neither file nor folder; what
# was there before is.
uninstall_superstep "$prefix"
left=$(cd "$prefix" && find . ! -type d)
[ "$left" = ./bin/mine ] || fail "make uninstall left files (or removed bin/mine): $left"
left=$(cd "$prefix" && find . -type d | sort | tr '\n' ' ')
[ "$left" = ". ./bin ./share ./share/man " ] || fail "make uninstall left these folders (expected . bin share share/man): $left"
# Programs built against it now fail to start, as they should: the test
# above did use the installed library, not another one.
if SUPERSTEP_NPROCS=2 "$tmp/ring_pc" >/dev/null 2>&1; then fail "ring_pc still runs after uninstall"; fi
exit 0
