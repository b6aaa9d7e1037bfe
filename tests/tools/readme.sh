# readme.sh - the README's tour works when typed literally in a fresh clone:
# its first command (make && bin/bsprun -n 4 build/rel/examples/hello), then
# every file it says to save and every command of its sh blocks, in order
# (tests/tools/readme_tour.py), with the output its text blocks show.  The
# clone is a copy of the tracked and untracked files of this tree, with this
# tree's release build copied in (timestamps kept) so make has nothing to do.
# RUN: timeout=900
set -u
. tests/tools/install.inc
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
work=$tmp/clone
mkdir -p "$work"
if files=$(git ls-files -co --exclude-standard 2>/dev/null) && [ -n "$files" ]; then
    printf '%s\n' "$files" | while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done |
        tar -cf - -T - | tar -xf - -C "$work" || fail "cannot copy the tree"
else
    cp -a . "$work" || fail "cannot copy the tree"
fi
superstep_make all "$tmp/unused"   # the release build, up to date, to copy
mkdir -p "$work/build"
cp -a bin lib superstep.pc "$work/" && cp -a build/rel "$work/build/" || fail "cannot copy the build"

# The README's first command, as its first lines give it.
first=$(sed -n '3p' README.md | sed 's/^ *//')
[ "$first" = "make && bin/bsprun -n 4 build/rel/examples/hello" ] || fail "README's first command changed to '$first': update this test"
out=$(cd "$work" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O -u BINDIR -u SANITIZE bash -c "$first" 2>&1) ||
    fail "'$first' failed: $out"
[ "$(printf '%s\n' "$out" | grep -c 'of 4$')" = 4 ] || fail "'$first' printed: $out"

mpi_ok=0
if grep -qx 'mpi=yes' build/rel/config 2>/dev/null && command -v mpirun >/dev/null 2>&1; then mpi_ok=1; fi
MPI_OK=$mpi_ok env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O -u BINDIR -u SANITIZE \
    python3 tests/tools/readme_tour.py README.md "$work" || exit 1
