# docs.sh - docs/cluster.md works as typed: its blocks marked
# "by tests/cluster/docs.sh [KIND]" (KIND: all, or $O's MPI: openmpi,
# mpich), run in order by tests/tools/readme_run.py on node 1 of a 2-node
# test bed, in a fresh copy of this tree with $O's build as the release
# build (so make has nothing to build), the output their text blocks show.
# The bed's stand-ins for ssh and for nodes of one kind come from the
# environment (docs/cluster.md says which).
# RUN: n=1 timeout=600
. tests/cluster/bed.inc
fail() { echo "docs.sh ($mpikind): $*" >&2; exit 1; }
bed_up 2
clone=$BED/clone
mkdir -p "$clone/build"
git ls-files -co --exclude-standard | while IFS= read -r f; do [ -e "$f" ] && printf '%s\n' "$f"; done |
    tar -cf - -T - | tar -xf - -C "$clone" || fail "cannot copy the tree"
# $O's build, its libraries and tools where a plain make keeps them.
libdir=lib
[ -d "$O/lib" ] && libdir=$O/lib # the MPICH build of .ci/run: LIBDIR=build/mpich/lib
mkdir -p "$clone/lib" "$clone/bin"
cp -a "$O" "$clone/build/rel" && cp -a "$libdir/." "$clone/lib/" && cp -a "$BINDIR/." "$clone/bin/" &&
    { [ ! -e superstep.pc ] || [ "$mpikind" != openmpi ] || cp -a superstep.pc "$clone/"; } || fail "cannot copy the build"
# The blocks for this MPI, unmarked; the others, and the text block after
# one, left out.
python3 - "$mpikind" docs/cluster.md >"$BED/cluster.md" <<'PY' || fail "cannot read docs/cluster.md"
import re, sys
kind, text = sys.argv[1], open(sys.argv[2]).read()
mark = re.compile(r"<!-- not run by tests/tools/readme\.sh: on the test bed, by tests/cluster/docs\.sh \[(\w+)\] -->\n"
                  r"(```.*?\n```\n)(```text\n.*?\n```\n)?", re.S)
out = mark.sub(lambda m: m.group(2) + (m.group(3) or "") if m.group(1) in ("all", kind) else "", text)
sys.stdout.write(out)
PY
[ "$(grep -c '^```sh' "$BED/cluster.md")" -ge 3 ] || fail "no blocks for $mpikind in docs/cluster.md"
BED_ENV="MPI_OK OMPI_MCA_plm_rsh_agent HYDRA_LAUNCHER_EXEC OMPI_MCA_hwloc_base_binding_policy OMPI_ALLOW_RUN_AS_ROOT OMPI_ALLOW_RUN_AS_ROOT_CONFIRM" \
    MPI_OK=1 OMPI_MCA_plm_rsh_agent=$PWD/tests/cluster/enter HYDRA_LAUNCHER_EXEC=$PWD/tests/cluster/enter \
    OMPI_MCA_hwloc_base_binding_policy=none OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    on 1 python3 tests/tools/readme_run.py "$clone" "$BED/cluster.md" || fail "docs/cluster.md failed on the bed"
nothing_left "docs/cluster.md"
exit 0
