# layers.sh - the layers under src/ form no cycle, and each uses only the
# layers above it in docs/architecture.md's table ("Layers"); MPI is
# src/mpi's alone (the mpi plug-in).
#
# The folder graph comes from the #include "folder/..." lines of every
# src/*/*.c and src/*/*.h: an edge A -> B when a file of src/A includes a
# header of src/B.  Two folders that reach each other are a cycle, named
# with the lines that make it; an edge towards a folder listed lower in the
# table (or one the table does not list) is named too.  The plug-in, src/mpi,
# is the table's last row; the core reaches it only through its one
# interface header, mpi/plugin.h (the loader includes it), which is no edge
# of the graph; a core file that includes any other header of src/mpi, or
# <mpi.h>, is named.
# RUN: n=1
set -u
fail=0
outside=$(grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*\(<mpi\.h>\|"mpi/\)' src/*/*.[ch] |
    grep -v '^src/mpi/' | grep -v '"mpi/plugin\.h"')
if [ -n "$outside" ]; then
    while read -r l; do echo "layers.sh: only src/mpi may include MPI or src/mpi's headers (but mpi/plugin.h): $l" >&2; done <<<"$outside"
    fail=1
fi
edges=$(grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_0-9]*/' src/*/*.[ch] |
    sed -E 's|^src/([^/]*)/([^:]*):[[:space:]]*#[[:space:]]*include[[:space:]]*"([^/"]*)/([^"]*)".*|\1 \3 src/\1/\2 \3/\4|' |
    awk '$1 != $2 && !($1 != "mpi" && $4 == "mpi/plugin.h")')
[ -n "$edges" ] || { echo "layers.sh: no #include between src/ folders found" >&2; exit 1; }

# Cycles: the transitive closure of the folder graph (a dozen folders);
# a shortest cycle through each folder that reaches itself and lies on no
# cycle named yet, each step named by one #include line.
cycles=$(awk '
    { e[$1, $2] = 1; n[$1] = 1; n[$2] = 1; if (!why[$1, $2]) why[$1, $2] = $3 " includes " $4 }
    END {
        for (k in n) for (i in n) if (e[k, i] == 1) d[k, i] = 1
        for (k in n) for (i in n) if (d[i, k]) for (j in n) if (d[k, j]) d[i, j] = 1
        for (a in n) {
            if (seen[a] || !d[a, a]) continue
            # breadth first from a back to a
            delete prev; delete q; qh = 1; qt = 0; found = 0
            for (b in n) if (e[a, b] == 1 && !(b in prev)) { prev[b] = a; q[++qt] = b }
            while (qh <= qt && !found) {
                x = q[qh++]
                if (x == a) { found = 1; break }
                for (b in n) if (e[x, b] == 1 && !(b in prev)) { prev[b] = x; q[++qt] = b }
            }
            path = a; steps = ""; x = a
            do { y = prev[x]; seen[y] = 1; path = y " -> " path; steps = why[y, x] (steps ? "; " steps : ""); x = y } while (x != a)
            print "cycle between src/ folders " path " (" steps ")"
        }
    }' <<<"$edges")
if [ -n "$cycles" ]; then
    while read -r l; do echo "layers.sh: $l" >&2; done <<<"$cycles"
    fail=1
fi

# Order: the table lists the layers from the bottom up; a row may name
# several folders (they may use each other, without a cycle).
order=$(sed -n '/^## Layers/,/^## /p' docs/architecture.md |
    awk -F'|' '/^\| *`src\// { n++; s = $2; while (match(s, /`src\/[a-z_0-9]+`/)) { print substr(s, RSTART + 5, RLENGTH - 6), n; s = substr(s, RSTART + RLENGTH) } }')
[ -n "$order" ] || { echo "layers.sh: no layer table in docs/architecture.md" >&2; exit 1; }
for d in src/*/; do
    d=${d#src/} d=${d%/}
    grep -q "^$d " <<<"$order" || { echo "layers.sh: src/$d is not in docs/architecture.md's layer table" >&2; fail=1; }
done
bad=$(awk 'NR == FNR { row[$1] = $2; next }
    row[$1] && row[$2] && row[$2] > row[$1] { print $3 " includes " $4 " (src/" $2 " is listed below src/" $1 ")" }' \
    <(echo "$order") <(echo "$edges"))
if [ -n "$bad" ]; then
    while read -r l; do echo "layers.sh: $l" >&2; done <<<"$bad"
    fail=1
fi
exit $fail
