# bspcc_own.sh - an installed bspcc (make install PREFIX=...) lets a
# program bring its own: a header of a name Superstep installs (bsc.h)
# in a folder given with -I, or with -include, is the one compiled; a
# program that defines every collective Superstep's libraries define
# (bsc.h's and bsp_level1.h's functions and variables, as BSPonMPI's tests
# bring its bsc.c) links with its own definitions, against
# libsuperstep.a (bspcc) and libsuperstep.so; and bspcc -static links a
# program that runs, whether or not the MPI has static libraries.
# RUN: n=2 timeout=300
set -u
. tests/tools/install.inc
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
unset LD_LIBRARY_PATH
prefix=$tmp/prefix
install_superstep "$prefix"
bspcc=$prefix/bin/bspcc

# 1. The program's own bsc.h, beside it, comes before Superstep's.
mkdir "$tmp/own"
printf '#define OWN_BSC_H 1\nint own_bsc(void);\n' > "$tmp/own/bsc.h"
printf '#include <bsc.h>\n#ifndef OWN_BSC_H\n#error Superstep'"'"'s bsc.h, not the program'"'"'s\n#endif\nint x;\n' > "$tmp/own/use.c"
( cd "$tmp/own" && "$bspcc" -I. -c use.c -o use.o 2> err ) || fail "bspcc -I. did not find the program's bsc.h: $(head -n 3 "$tmp/own/err")"
( cd "$tmp/own" && "$bspcc" -I"$tmp/own" -c use.c -o use.o 2> err ) || fail "bspcc -I$tmp/own did not find the program's bsc.h: $(head -n 3 "$tmp/own/err")"
printf 'int x;\n' > "$tmp/own/plain.c"
printf '#ifndef OWN_BSC_H\n#error Superstep'"'"'s bsc.h, not the program'"'"'s\n#endif\n' >> "$tmp/own/plain.c"
( cd "$tmp/own" && "$bspcc" -I. -include bsc.h -c plain.c -o plain.o 2> err ) ||
    fail "bspcc -I. -include bsc.h did not include the program's bsc.h: $(head -n 3 "$tmp/own/err")"

# 2. Every collective name the library defines, defined by the program
# too: each function returns 4242, each variable holds it.
for h in bsc bsp_level1; do gcc -fpreprocessed -dD -E -P "$prefix/include/$h.h"; done 2>/dev/null |
    grep -ow '[A-Za-z_][A-Za-z0-9_]*' | sort -u > "$tmp/declared"
nm -g --defined-only "$prefix/lib/libsuperstep.a" | awk 'NF == 3 { print $2, $3 }' | sort -k 2 |
    join -1 2 -2 1 -o 1.1,1.2 - "$tmp/declared" > "$tmp/defined" || fail "nm $prefix/lib/libsuperstep.a failed"
funcs=$(awk '$1 ~ /^[TW]$/ { print $2 }' "$tmp/defined")
vars=$(awk '$1 !~ /^[TW]$/ { print $2 }' "$tmp/defined")
for name in bsc_sync bsc_scan_qtree_single bsp_sumI bsp_bcast bsc_all; do
    grep -qw "$name" "$tmp/defined" || fail "libsuperstep.a does not define $name: $(tr '\n' ' ' < "$tmp/defined")"
done
{
    for f in $funcs; do printf 'long %s(void) { return 4242; }\n' "$f"; done
    for v in $vars; do printf 'long %s = 4242;\n' "$v"; done
} > "$tmp/mine.c"
cat > "$tmp/main.c" <<'END'
#include <bsp.h>
#include <stdio.h>
long bsc_sync(void);
long bsp_sumI(void);
extern long bsc_all;
int main(void)
{
    bsp_begin(bsp_nprocs());
    printf("%u: %ld %ld %ld\n", bsp_pid(), bsc_sync(), bsp_sumI(), bsc_all);
    bsp_end();
    return 0;
}
END
check_own() { # program how
    local out
    out=$(SUPERSTEP_NPROCS=2 "$1" 2>&1) || fail "$2: the program fails: $out"
    [ "$(printf '%s\n' "$out" | sort)" = "$(printf '0: 4242 4242 4242\n1: 4242 4242 4242')" ] ||
        fail "$2: not the program's own collectives: $out"
}
"$bspcc" -c "$tmp/mine.c" -o "$tmp/mine.o" || fail "bspcc -c mine.c failed"
"$bspcc" "$tmp/main.c" "$tmp/mine.o" -o "$tmp/static" 2> "$tmp/err" ||
    fail "with libsuperstep.a, a program defining the collectives does not link: $(grep -m1 -E 'multiple|error' "$tmp/err")"
check_own "$tmp/static" "libsuperstep.a"
cc -I"$prefix/include" "$tmp/main.c" "$tmp/mine.o" -o "$tmp/shared" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lsuperstep 2> "$tmp/err" ||
    fail "with libsuperstep.so, a program defining the collectives does not link: $(grep -m1 -E 'multiple|error' "$tmp/err")"
check_own "$tmp/shared" "libsuperstep.so"

# 3. bspcc -static: no MPI library unless the MPI has a static one.
cat > "$tmp/ring.c" <<'END'
#include <bsp.h>
#include <stdio.h>
int main(void)
{
    bsp_begin(bsp_nprocs());
    int s = bsp_pid(), left = -1;
    bsp_push_reg(&left, sizeof left);
    bsp_sync();
    bsp_put((s + 1) % bsp_nprocs(), &s, &left, 0, sizeof s);
    bsp_sync();
    printf("%d got %d\n", s, left);
    bsp_end();
    return 0;
}
END
"$bspcc" -static "$tmp/ring.c" -o "$tmp/ring" 2> "$tmp/err" || fail "bspcc -static does not link: $(grep -m1 -E 'cannot|error' "$tmp/err")"
readelf -d "$tmp/ring" 2>/dev/null | grep -q NEEDED && fail "bspcc -static made a dynamic program"
out=$(SUPERSTEP_NPROCS=2 "$tmp/ring" 2>&1) || fail "the program built with bspcc -static fails: $out"
[ "$(printf '%s\n' "$out" | sort)" = "$(printf '0 got 1\n1 got 0')" ] || fail "the program built with bspcc -static printed: $out"
exit 0
