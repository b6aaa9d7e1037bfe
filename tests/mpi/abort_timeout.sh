# abort_timeout.sh - SUPERSTEP_ABORT_TIMEOUT: of two ranks that fail
# together (every processor calls bsp_abort, tests/bsp/err_abort.c "all"),
# one prints the job's line and stops the job, the other waits for that.
# Here the first MPI_Abort of the job never returns nor stops anything (a
# preloaded MPI_Abort that pauses: a launcher or MPI whose abort never
# comes), so the waiting rank, after the limit (1 s), prints one line
# saying that the limit expired and stops the job itself: exit status 1,
# the abort line and that line, nothing left running.  (Before the
# setting, the waiting rank aborted silently after a fixed 2 s.)
# "signal": rank 1 dies by SIGSEGV (tests/mpi/faults.c).  With MPICH the
# rank aborts the job instead of dying by the signal (mpi_die_by_signal);
# its abort never coming, after the limit it says so and ends by its
# signal (before: SIGALRM after a fixed 10 s, no line).  Open MPI's rank
# dies by the signal without aborting: the kill line alone.
# RUN: n=2 timeout=120
# RUN: n=2 args="signal" timeout=120
set -u
mode=${1:-abort}
# Under SANITIZE, ASan's runtime must come first among the preloads.
preload=
[ "${SANITIZE:-}" = 1 ] && preload="$(cc -print-file-name=libasan.so) "
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mpicc=$(sed -n 's/^mpicc=//p' "$O/config")
cat >"$tmp/hang.c" <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

/* The job's first MPI_Abort (a file made with O_EXCL says which) never
 * comes back and stops nothing; any later one is MPI's. */
int MPI_Abort(MPI_Comm comm, int code)
{
    const char *mark = getenv("HANG_ABORT_MARK");
    if (mark && open(mark, O_CREAT | O_EXCL | O_WRONLY, 0600) >= 0)
        for (;;)
            pause();
    int (*real)(MPI_Comm, int) = (int (*)(MPI_Comm, int))dlsym(RTLD_NEXT, "MPI_Abort");
    return real(comm, code);
}
C
"$mpicc" -shared -fPIC -o "$tmp/hang.so" "$tmp/hang.c" -ldl || { echo "abort_timeout.sh: cannot build the preload" >&2; exit 1; }
export SUPERSTEP_DEVICE=mpi SUPERSTEP_DEVICE_MANDATORY=1 SUPERSTEP_ABORT_TIMEOUT=1
status=0
if [ "$mode" = signal ]; then
    [ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
    $MPIRUN -n 2 env HANG_ABORT_MARK="$tmp/mark" LD_PRELOAD="$preload$tmp/hang.so" \
        "$O/tests/mpi/faults" init segv 1 </dev/null >/dev/null 2>"$tmp/err" || status=$?
else
    $MPIRUN -n 2 env HANG_ABORT_MARK="$tmp/mark" LD_PRELOAD="$preload$tmp/hang.so" \
        "$O/tests/bsp/err_abort" all </dev/null >/dev/null 2>"$tmp/err" || status=$?
fi
fail() { echo "abort_timeout.sh: $*; stderr:" >&2; cat "$tmp/err" >&2; exit 1; }
if [ "$mode" = signal ]; then
    grep -Eq '^superstep: processor 1 killed by signal 11 \(SIGSEGV\) before bsp_begin$' "$tmp/err" || fail "no kill line"
    if grep -qx 'mpikind=mpich' "$O/config"; then
        [ -e "$tmp/mark" ] || fail "the preloaded MPI_Abort was never called"
        # mpiexec exits with the number of the signal a rank died by.
        [ "$status" = 11 ] || fail "exit status $status, expected 11"
        limit='^superstep: MPI rank 1 waited 1 s for its MPI_Abort to stop the job: the time limit expired \(SUPERSTEP_ABORT_TIMEOUT=1\); rank 1 ends by its signal$'
        grep -Eq "$limit" "$tmp/err" || fail "no line saying that the limit expired"
        [ "$(grep -c '^superstep: ' "$tmp/err")" = 2 ] || fail "not exactly those two superstep: lines"
    else
        [ ! -e "$tmp/mark" ] || fail "MPI_Abort was called: Open MPI's rank dies by its signal"
        [ "$status" = 139 ] || fail "exit status $status, expected 139"
        [ "$(grep -c '^superstep: ' "$tmp/err")" = 1 ] || fail "not exactly one superstep: line"
    fi
    exit 0
fi
[ -e "$tmp/mark" ] || fail "the preloaded MPI_Abort was never called"
[ "$status" = 1 ] || fail "exit status $status, expected 1"
grep -Eq '^superstep: bsp_abort: processor [01], superstep 2: everybody aborts$' "$tmp/err" || fail "no abort line"
limit='^superstep: MPI rank [01] waited 1 s for the rank that reported the failure to stop the job: the time limit expired \(SUPERSTEP_ABORT_TIMEOUT=1\); rank [01] stops it$'
grep -Eq "$limit" "$tmp/err" || fail "no line saying that the limit expired"
[ "$(grep -c '^superstep: ' "$tmp/err")" = 2 ] || fail "not exactly those two superstep: lines"
exit 0
