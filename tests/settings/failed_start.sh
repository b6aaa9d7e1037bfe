# failed_start.sh - the processors forked before a start fails run none of
# the program: a start that the descriptor limit stops part way (p = 100
# under ulimit -n 64: about 30 forks, then no descriptor for the next
# pidfd) kills every processor it forked while it waits to be released;
# none exits by itself (before: mp.h's nodes ran on and exited 0).
# Watched with strace -f: the supervisor and the starter exit (status 1);
# no other process exits by itself.
# RUN: n=1 timeout=120
set -u
fail() { echo "failed_start.sh: $*" >&2; exit 1; }
. tests/require.sh
require strace
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
for api in bsp mp; do
    bash -c 'ulimit -n 64; SUPERSTEP_NPROCS=100 exec strace -f -o "$1" -e trace=exit_group,clone -e signal=none "$2" "$3"' \
        _ "$t/trace" "$O/tests/settings/start" "$api" >"$t/out" 2>"$t/err"
    rc=$?
    [ "$rc" = 1 ] || fail "$api: exit status $rc, expected 1 ($(head -c 300 "$t/err"))"
    grep -q "RLIMIT_NOFILE 64" "$t/err" || fail "$api: not the descriptor limit's line: $(head -c 300 "$t/err")"
    [ -s "$t/out" ] && fail "$api: the program printed: $(head -c 300 "$t/out")"
    exited=$(grep -c '+++ exited with' "$t/trace")
    forks=$(grep -c 'clone(' "$t/trace")
    [ "$exited" = 2 ] || fail "$api: $exited processes exited by themselves, expected 2 (supervisor, starter): $(grep '+++ exited with' "$t/trace" | sort -k2 | uniq -c -f1 | head -5)"
    [ "$forks" -ge 3 ] || fail "$api: $forks forks: the start failed before forking processors"
    echo "$api: $forks forks, 2 exits (supervisor, starter)"
done
