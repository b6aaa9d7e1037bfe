# lines.sh - lines of different processors never mix inside a line: output
# and error line-buffered in every processor, into a file and into a pipe.
# RUN: n=8 timeout=120
set -u
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
check() { # what file
    local bad
    bad=$(grep -cvE '^p([0-9]) line [0-9]+:( \1\1\1\1\1\1)+ end$' "$2")
    if [ "$bad" != 0 ]; then
        echo "lines.sh: $1: $bad mixed lines, e.g. $(grep -m1 -vE '^p([0-9]) line [0-9]+:( \1\1\1\1\1\1)+ end$' "$2" | cut -c1-120)" >&2
        fail=1
    fi
    [ "$(wc -l <"$2")" = $((8 * 200 / 2)) ] || { echo "lines.sh: $1: $(wc -l <"$2") lines, expected 800" >&2; fail=1; }
}
"$O/tests/core/lines" 200 60 >"$work/out" 2>"$work/err" || { echo "lines.sh: the program failed" >&2; exit 1; }
check "stdout to a file" "$work/out"
check "stderr to a file" "$work/err"
"$O/tests/core/lines" 200 60 2>&1 | cat >"$work/pipe"
grep -c . "$work/pipe" >/dev/null
[ "$(wc -l <"$work/pipe")" = 1600 ] || { echo "lines.sh: pipe: $(wc -l <"$work/pipe") lines, expected 1600" >&2; fail=1; }
sed -n '1,$p' "$work/pipe" >"$work/pipe_all"
bad=$(grep -cvE '^p([0-9]) line [0-9]+:( \1\1\1\1\1\1)+ end$' "$work/pipe_all")
[ "$bad" = 0 ] || { echo "lines.sh: pipe: $bad mixed lines" >&2; fail=1; }
exit $fail
