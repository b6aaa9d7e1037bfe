# readme.sh - the README, then docs/*.md (in order of name), work when
# typed literally in a fresh clone: every file they say to save and every
# command of every fenced sh block, in order (tests/tools/readme_run.py),
# with the output their text blocks show; a block that cannot run here
# says why, in a comment "<!-- not run by tests/tools/readme.sh: REASON -->"
# right before it.  The
# clone is a copy of the tracked and untracked files of this tree, with
# this tree's release build copied in (timestamps kept) so make has
# nothing to do.
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

mpi_ok=0
if grep -qx 'mpi=yes' build/rel/config 2>/dev/null && command -v mpirun >/dev/null 2>&1; then mpi_ok=1; fi
MPI_OK=$mpi_ok env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u O -u BINDIR -u SANITIZE \
    python3 tests/tools/readme_run.py "$work" README.md docs/*.md || exit 1
