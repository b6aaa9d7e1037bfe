# tagsize_dialects.sh - tagsize_twice.c built with each forced dialect
# (-DSUPERSTEP_MCBSP: the size in force; -DMCBSP_COMPATIBILITY_MODE: the
# 1998 rule) runs as the dialect says.
# RUN: n=3
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
libs="lib/libsuperstep.a -lpthread -lm" san=""
if [ "${SANITIZE:-}" = 1 ]; then
    libs="$O/lib/libsuperstep.a -lpthread -lm" san="-fsanitize=address,undefined"
fi
grep -qx 'mpi=yes' "$O/config" && libs="$libs $(mpicc --showme:link)"
for d in SUPERSTEP_MCBSP MCBSP_COMPATIBILITY_MODE; do
    cc -std=c11 -Wall -Wextra -Werror $san -D$d -Iinclude -Itests tests/bsp/tagsize_twice.c $libs -o "$dir/$d"
    SUPERSTEP_DEVICE=shm "$dir/$d"
done
