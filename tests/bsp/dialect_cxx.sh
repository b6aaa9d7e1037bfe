# dialect_cxx.sh - the C++ compiler takes the same programs with plain
# bsp.h: a MulticoreBSP-style and 1998-style program (dialect_mixed.c) and
# the forced dialects (mcbsp_dialect.c, dialect_1998.c), with -Wall -Wextra
# -Werror, and they run as in C.
# RUN: n=3
set -eu
command -v g++ >/dev/null || { echo "dialect_cxx.sh: g++ not installed" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
libs="lib/libsuperstep.a -lpthread -lm -ldl" san=""
if [ "${SANITIZE:-}" = 1 ]; then
    libs="$O/lib/libsuperstep.a -lpthread -lm -ldl" san="-fsanitize=address,undefined"
fi
for t in dialect_mixed mcbsp_dialect dialect_1998 mcbsp_ext; do
    g++ -std=c++11 -Wall -Wextra -Werror $san -Iinclude -Itests -x c++ "tests/bsp/$t.c" -x none $libs -o "$dir/$t"
    "$dir/$t"
done
