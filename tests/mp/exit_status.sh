# exit_status.sh - the program's exit status after each kind of ending:
# 0 for a clean quit, 1 for errors and mp_quit(non-zero), 128 + signal for
# a node killed by a signal; also when the main node itself dies by SIGKILL
# (nothing can report it; the runner checks that no process and no
# /dev/shm file is left).
# RUN: n=3
set -u
B=$O/tests/mp
fail=0
expect() { # status command...
    local want=$1
    shift
    timeout 30 "$@" >/dev/null 2>&1
    local rc=$?
    if [ "$rc" != "$want" ]; then
        echo "exit_status.sh: '$*' exited with $rc, expected $want" >&2
        fail=1
    fi
}
expect 0 "$B/quit" recv
expect 0 "$B/quit" main_return
expect 0 "$B/pingpong" 10 10
expect 1 "$B/errors" quit_error
expect 1 "$B/errors" quit_error_main
expect 1 "$B/errors" toolong
expect 1 "$B/errors" badnode0
expect 1 "$B/errors" exit_noquit
expect 1 "$B/errors" before_send
expect 137 "$B/errors" kill
expect 139 "$B/errors" segv
expect 134 "$B/errors" abort_busy
expect 137 "$B/errors" kill_main
exit $fail
