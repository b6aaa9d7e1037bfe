#!/usr/bin/env bash
# Lines of src/ spent on failure handling, counted the same way before and
# after: code lines (neither blank nor only a comment) of
#  - files whose whole purpose is a failure path (FILES below, if present),
#  - elsewhere, every top-level function one of whose name's parts (split
#    at '_') is a word of WORDS.
# Usage: tools/failure_lines.sh [ROOT] (default: the current directory),
# e.g. on a commit: git archive C src | tar -x -C DIR; tools/failure_lines.sh DIR
set -eu
cd "${1:-.}"
tmp=$(mktemp)
FILES="src/launch/supervise.c src/mpi/hwatch.c src/mpi/mpi_watch.c src/bsp/stall.c src/mpi/mpi_fail.h"
WORDS="fail failed failure failing abort stall stalled kill killed stop stopped signal die dead deadlock watch watched late exit hung hangup settle settled report reported error reap leave left drain drained ask answer computing await mismatch execd claim reject oom stuck suspect gone"
code_lines() { awk '{ l = $0; gsub(/^[[:space:]]+/, "", l); if (l != "" && l !~ /^(\/\*|\*|\/\/)/) n++ } END { print n + 0 }' "$1"; }
total=0
for f in $FILES; do [ -f "$f" ] || continue; n=$(code_lines "$f"); total=$((total + n)); printf '%5d %s (whole file)\n' "$n" "$f"; done
for f in src/*/*.c; do
  case " $FILES " in *" $f "*) continue ;; esac
  awk -v words="$WORDS" '
    BEGIN { n = split(words, w, " "); for (i = 1; i <= n; i++) word[w[i]] = 1 }
    /^[A-Za-z_].*\(/ && !/;[[:space:]]*$/ { cand = $0; next }
    /^\{/ && cand != "" { s = cand; sub(/\(.*/, "", s); k = split(s, t, /[ *]+/); fn = t[k]; inside = 1; cnt = 0; cand = ""; next }
    inside && /^\}/ { m = split(fn, part, "_"); hit = 0; for (i = 1; i <= m; i++) if (part[i] in word) hit = 1
                      if (hit) { total += cnt; list = list " " fn "(" cnt ")" } inside = 0; next }
    inside { l = $0; gsub(/^[[:space:]]+/, "", l); if (l != "" && l !~ /^(\/\*|\*|\/\/)/) cnt++; next }
    { cand = "" }
    END { if (total) printf "%5d %s:%s\n", total, FILENAME, list }' "$f"
done | sort -rn > "$tmp"
cat "$tmp"
awk -v t=$total '{ t += $1 } END { print "total", t }' "$tmp"
rm -f "$tmp"
