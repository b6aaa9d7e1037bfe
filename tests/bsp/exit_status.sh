# exit_status.sh - the program's exit status after a failure: 1 for errors
# and aborts, 128 + signal when a processor was killed by a signal; also when
# processor 0 itself dies by SIGKILL (named by the supervisor:
# tests/core/leave0.sh) the job stops (the runner checks that no process and
# no /dev/shm file is left).
# RUN: n=3
set -u
B=$O/tests/bsp
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
expect 1 "$B/err_abort" 2
expect 1 "$B/err_pid" put 7
expect 1 "$B/err_regcount" push
expect 1 "$B/err_end" 1 1
expect 1 "$B/err_exit" exit 1 1
expect 139 "$B/err_signal" segv 2 1
expect 137 "$B/err_signal" kill 1 1
expect 134 "$B/err_signal" abort 1 1
expect 137 "$B/err_signal" kill 0 1
exit $fail
