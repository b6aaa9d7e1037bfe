# abort_once.sh - a bsp_abort message is printed exactly once for the whole
# job, as one line, and the exit status is 1.  Runs err_abort (see there).
# RUN: n=1 args="0"
# RUN: n=4 args="0"
# RUN: n=4 args="2"
# RUN: n=8 args="all"
# RUN: n=4 args="busy" timeout=20
# RUN: n=2 args="vabort"
# RUN: n=2 args="newline"
# RUN: n=2 args="twolines"
set -u
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
"$O/tests/bsp/err_abort" "$1" >/dev/null 2>"$err"
rc=$?
fail() { echo "abort_once.sh $1: $2" >&2; cat "$err" >&2; exit 1; }
[ "$rc" = 1 ] || fail "$1" "exit status $rc, expected 1"
n=$(grep -c '^superstep: bsp_v\{0,1\}abort:' "$err")
[ "$n" = 1 ] || fail "$1" "$n abort lines, expected 1"
n=$(grep -c '^superstep:' "$err")
[ "$n" = 1 ] || fail "$1" "$n error lines, expected 1"
! grep -q '^$' "$err" || fail "$1" "an empty line on stderr"
n=$(wc -l <"$err")
[ "$n" = 1 ] || fail "$1" "$n lines on stderr, expected the one abort line"
exit 0
