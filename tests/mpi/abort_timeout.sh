# abort_timeout.sh - SUPERSTEP_ABORT_TIMEOUT: of two ranks that fail
# together (every processor calls bsp_abort, tests/bsp/err_abort.c "all"),
# one prints the job's line and stops the job, the other waits for that.
# Here the first MPI_Abort of the job never returns nor stops anything (a
# preloaded MPI_Abort that pauses: a launcher or MPI whose abort never
# comes), so the waiting rank, after the limit (1 s), prints one line
# saying that the limit expired and stops the job itself: exit status 1,
# the abort line and that line, nothing left running.  (Before the
# setting, the waiting rank aborted silently after a fixed 2 s.)
# RUN: n=2 timeout=120
set -u
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
$MPIRUN -n 2 env HANG_ABORT_MARK="$tmp/mark" LD_PRELOAD="$preload$tmp/hang.so" \
    "$O/tests/bsp/err_abort" all </dev/null >/dev/null 2>"$tmp/err" || status=$?
fail() { echo "abort_timeout.sh: $*; stderr:" >&2; cat "$tmp/err" >&2; exit 1; }
[ -e "$tmp/mark" ] || fail "the preloaded MPI_Abort was never called"
[ "$status" = 1 ] || fail "exit status $status, expected 1"
grep -Eq '^superstep: bsp_abort: processor [01], superstep 2: everybody aborts$' "$tmp/err" || fail "no abort line"
limit='^superstep: MPI rank [01] waited 1 s for the rank that reported the failure to stop the job: the time limit expired \(SUPERSTEP_ABORT_TIMEOUT=1\); rank [01] stops it$'
grep -Eq "$limit" "$tmp/err" || fail "no line saying that the limit expired"
[ "$(grep -c '^superstep: ' "$tmp/err")" = 2 ] || fail "not exactly those two superstep: lines"
exit 0
