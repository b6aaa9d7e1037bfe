# scripts.sh - the checks of tests/bsp's scripts, on the mpi device: runs
# tests/bsp/SCRIPT with O pointing at wrappers that start each program of
# $O/tests/bsp and $O/examples as "$MPIRUN -n $SUPERSTEP_NPROCS program".
# So abort_once.sh checks that an abort is one line, printed once, exit 1;
# exit_status.sh the exit statuses (1 for errors, 128 + signal, SIGKILL of
# processor 0 too); examples.sh the examples' output; ../mp/example.sh
# examples/master_worker on mp.h's MPI transport.  (begin_once.sh is
# fork-specific: begin.sh is its mpi counterpart.)
# Usage: scripts.sh SCRIPT ARGS...
# RUN: n=1 args="abort_once.sh 0"
# RUN: n=4 args="abort_once.sh 0"
# RUN: n=4 args="abort_once.sh 2"
# RUN: n=8 args="abort_once.sh all"
# RUN: n=4 args="abort_once.sh busy" timeout=30
# RUN: n=2 args="abort_once.sh vabort"
# RUN: n=2 args="abort_once.sh newline"
# RUN: n=3 args="exit_status.sh" timeout=120
# RUN: n=1 args="examples.sh hello"
# RUN: n=4 args="examples.sh hello"
# RUN: n=8 args="examples.sh hello"
# RUN: n=1 args="examples.sh inner_product"
# RUN: n=4 args="examples.sh inner_product"
# RUN: n=3 args="examples.sh inner_product 1001"
# RUN: n=8 args="examples.sh inner_product 5"
# RUN: n=4 args="examples.sh sort"
# RUN: n=3 args="examples.sh sort 1001"
# RUN: n=8 args="examples.sh sort 5"
# RUN: n=2 args="../mp/example.sh 100000 37"
# RUN: n=4 args="../mp/example.sh 100000 37"
# RUN: n=3 args="../mp/example.sh 0 5"
set -u
script=$1
shift
wrap=$(mktemp -d) || exit 1
trap 'rm -rf "$wrap"' EXIT
# A few forks per program only: on a loaded machine making the wrappers
# took 30 s of the cases' time (abort_once.sh busy has 30 s in all).
mpich=no
grep -qx 'mpikind=mpich' "$O/config" && mpich=yes
for dir in tests/bsp examples; do
    mkdir -p "$wrap/$dir"
    abs=$(cd "$O/$dir" && pwd)
    for prog in "$O/$dir"/*; do
        [ -f "$prog" ] && [ -x "$prog" ] || continue
        real=$abs/${prog##*/}
        if [ "$mpich" = yes ]; then
            # MPICH's mpiexec exits with the signal's number for a rank
            # killed by a signal, and names that signal on stdout: 128 + that,
            # as Open MPI's mpirun and shm give, for the scripts' checks.  Only
            # a signal named with the status' number: another one is Hydra's
            # own stop of a rank after an abort (status 1 and a signal on
            # stdout, 1 case of 506 in a CI run, read as 129 before).  Never
            # status 1, the runtime's error status: no script expects a
            # SIGHUP, and Hydra named signal 1 beside status 1 again in a
            # later CI run (abort_once.sh 0, n = 1).
            printf '#!/bin/sh\nout=$(mktemp)\n%s -n "$SUPERSTEP_NPROCS" %s "$@" >"$out"\nrc=$?\ncat "$out"\n[ "$rc" -gt 1 ] && grep -q "EXIT STRING: .*(signal $rc)" "$out" && rc=$((128 + rc))\nrm -f "$out"\nexit $rc\n' \
                "$MPIRUN" "$real" >"$wrap/$dir/${prog##*/}"
        else
            printf '#!/bin/sh\nexec %s -n "$SUPERSTEP_NPROCS" %s "$@"\n' "$MPIRUN" "$real" >"$wrap/$dir/${prog##*/}"
        fi
    done
    chmod +x "$wrap/$dir"/*
done
O=$wrap bash "tests/bsp/$script" "$@"
