# tagsize_dialects.sh - tagsize_twice.c built with each forced dialect
# (-DSUPERSTEP_MCBSP: the size in force; -DMCBSP_COMPATIBILITY_MODE: the
# 1998 rule) runs as the dialect says.
# RUN: n=3
set -eu
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for d in SUPERSTEP_MCBSP MCBSP_COMPATIBILITY_MODE; do
    CC="cc -std=c11 -Wall -Wextra -Werror" "$BINDIR/bspcc" -D$d -Itests tests/bsp/tagsize_twice.c -o "$dir/$d"
    SUPERSTEP_DEVICE=shm "$dir/$d"
done
