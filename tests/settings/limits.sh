# limits.sh - a job that a limit stops from starting says which limit and
# which setting (or ulimit) raises it: one line, exit status 1, for BSPlib,
# mp.h and the Epiphany host.
#   segment: p = 1024 in a 64 MiB segment (SUPERSTEP_SEGMENT_SIZE)
#   fsize:   ulimit -f below the segment size (RLIMIT_FSIZE, not SIGXFSZ)
#   as:      ulimit -v below the segment size (RLIMIT_AS; not under ASan)
#   nofile:  ulimit -n below p (RLIMIT_NOFILE: one pidfd per processor)
#   nproc:   ulimit -u below p (RLIMIT_NPROC; as an unprivileged user, so
#            only when run as root with setpriv, else said and skipped)
# RUN: n=1 timeout=120
set -u
fail() { echo "limits.sh: $*" >&2; exit 1; }
t=$(mktemp -d)
chmod 755 "$t"
trap 'rm -rf "$t"' EXIT
start=$O/tests/settings/start
host=$O/tests/ebsp/dma_host
# expect NAME REGEX -- command... (run in a subshell so ulimits stay there)
expect() {
    local name=$1 re=$2
    shift 3
    "$@" >"$t/out" 2>"$t/err"
    local rc=$?
    [ "$rc" = 1 ] || fail "$name: exit status $rc, expected 1 ($(head -c 500 "$t/err"))"
    [ "$(wc -l <"$t/err")" = 1 ] || fail "$name: not one line: $(cat "$t/err")"
    grep -Eq -- "$re" "$t/err" || fail "$name: '$(cat "$t/err")' does not match /$re/"
}
seg='the shared segment of 67108864 bytes \(SUPERSTEP_SEGMENT_SIZE\) is too small for the tables of 1024 processors: set SUPERSTEP_SEGMENT_SIZE larger$'
expect segment-bsp "^superstep: bsp_begin: cannot start 1024 processors on device shm: $seg" -- \
    env SUPERSTEP_SEGMENT_SIZE=64M SUPERSTEP_NPROCS=1024 "$start" bsp
expect segment-mp "^superstep: mp_start: cannot start 1024 nodes on shm: $seg" -- \
    env SUPERSTEP_SEGMENT_SIZE=64M SUPERSTEP_NPROCS=1024 "$start" mp
fsize='the file size limit \(ulimit -f, RLIMIT_FSIZE 1024000 bytes\) is below the [0-9]+-byte shared segment: raise ulimit -f or set SUPERSTEP_SEGMENT_SIZE smaller$'
expect fsize-bsp "^superstep: bsp_begin: cannot start 2 processors on device shm: $fsize" -- \
    bash -c 'ulimit -f 1000; SUPERSTEP_NPROCS=2 exec "$0" bsp' "$start"
expect fsize-mp "^superstep: mp_start: cannot start 2 nodes on shm: $fsize" -- \
    bash -c 'ulimit -f 1000; SUPERSTEP_NPROCS=2 exec "$0" mp' "$start"
expect fsize-host "^superstep: ebsp_spmd: host: cannot create the session segment \([0-9]+ bytes\): $fsize" -- \
    bash -c 'ulimit -f 1000; SUPERSTEP_NPROCS=2 exec "$0"' "$host"
if [ "${SANITIZE:-}" != 1 ]; then
    as='the address space limit \(ulimit -v, RLIMIT_AS 2048000000 bytes\) leaves no room for the 17179869184-byte shared segment: raise ulimit -v or set SUPERSTEP_SEGMENT_SIZE smaller$'
    expect as-bsp "^superstep: bsp_begin: cannot start 2 processors on device shm: $as" -- \
        bash -c 'ulimit -v 2000000; SUPERSTEP_NPROCS=2 exec "$0" bsp' "$start"
    expect as-mp "^superstep: mp_start: cannot start 2 nodes on shm: $as" -- \
        bash -c 'ulimit -v 2000000; SUPERSTEP_NPROCS=2 exec "$0" mp' "$start"
fi
nofile='the descriptor limit \(ulimit -n, RLIMIT_NOFILE 64\) is below the 100 descriptors the monitor needs \(one per processor\): raise ulimit -n or set SUPERSTEP_NPROCS smaller$'
expect nofile-bsp "^superstep: bsp_begin: cannot start 100 processors on device shm: $nofile" -- \
    bash -c 'ulimit -n 64; SUPERSTEP_NPROCS=100 exec "$0" bsp' "$start"
expect nofile-mp "^superstep: mp_start: cannot start 100 nodes on shm: $nofile" -- \
    bash -c 'ulimit -n 64; SUPERSTEP_NPROCS=100 exec "$0" mp' "$start"
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$start"; then
    nproc='the process limit \(ulimit -u, RLIMIT_NPROC 20\) stops 64 processes: raise ulimit -u or set SUPERSTEP_NPROCS smaller$'
    # Under ASan no leak check: at exit LeakSanitizer needs a thread, which
    # the exhausted process limit may refuse ("LeakSanitizer has
    # encountered a fatal error") while the refused job's processes end.
    [ "${SANITIZE:-}" = 1 ] && export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"
    for api in bsp mp; do
        expect nproc-$api "^superstep: (bsp_begin|mp_start): cannot start 64 (processors on device shm|nodes on shm): $nproc" -- \
            setpriv --reuid=65534 --regid=65534 --clear-groups bash -c 'ulimit -u 20; SUPERSTEP_NPROCS=64 exec "$0" "$1"' "$start" $api
    done
else
    echo "limits.sh: RLIMIT_NPROC case skipped (needs root, setpriv and a build that user 65534 can run)"
fi
exit 0
