# exports.sh - the libraries export only the public API: every symbol that
# libsuperstep.so exports and every global symbol libsuperstep.a defines is
# named in include/*.h (comments aside), and a program that defines names
# the runtime uses inside (job, dev, bsp, grow, now_ns, seg_alloc) links
# against either library, without MPI, and keeps its own values.  Then,
# from an installed Superstep (make install PREFIX=...): a program that
# refers to every function and variable the public headers declare (the
# build's exports.list, which the compiler makes from them) links against
# the installed libsuperstep.a and libsuperstep.so; neither library needs
# libmpi, and the mpi plug-in exports its two symbols only.
# RUN: n=1 timeout=300
set -u
. tests/tools/install.inc
libdir=lib
[ "${SANITIZE:-}" = 1 ] && libdir=$O/lib
cflags=(-std=c11 -D_GNU_SOURCE -Iinclude)
[ "${SANITIZE:-}" = 1 ] && cflags+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
say() { echo "exports.sh: $*" >&2; fail=1; }

# 1. What is exported is declared.
for h in include/*.h; do gcc -fpreprocessed -dD -E -P "$h"; done >"$work/public" 2>/dev/null
check_names() { # what names...
    local what=$1 name
    shift
    for name in "$@"; do
        grep -qw -- "$name" "$work/public" || say "$what exports $name, which no public header declares"
    done
}
[ -s "$libdir/libsuperstep.so" ] || say "no $libdir/libsuperstep.so"
check_names libsuperstep.so $(nm -D --defined-only "$libdir/libsuperstep.so" | awk 'NF == 3 { print $3 }')
check_names libsuperstep.a $(nm -g --defined-only "$libdir/libsuperstep.a" | awk 'NF == 3 { print $3 }')

# 2. A program with names of its own that the runtime also uses inside.
cat >"$work/names.c" <<'PROG'
#include <bsp.h>
#include <stdio.h>
#include <string.h>
int job = 42;
double dev = 2.5;
char bsp[8] = "mine";
int grow = 7;
long long now_ns(void) { return 12345; }
int seg_alloc(int x) { return x + 1; }
int main(void)
{
    bsp_begin(2);
    int v = (int)bsp_pid();
    bsp_push_reg(&v, sizeof v);
    bsp_sync();
    int got = -1;
    bsp_get(1 - bsp_pid(), &v, 0, &got, sizeof got);
    bsp_sync();
    int ok = job == 42 && dev == 2.5 && strcmp(bsp, "mine") == 0 && grow == 7 && now_ns() == 12345 &&
             seg_alloc(1) == 2 && got == 1 - (int)bsp_pid();
    printf("%s %u\n", ok ? "ok" : "CLOBBERED", bsp_pid());
    bsp_end();
    return 0;
}
PROG
if gcc "${cflags[@]}" "$work/names.c" -o "$work/static" "$libdir/libsuperstep.a" -lpthread -lm -ldl \
    2>"$work/err"; then
    out=$(SUPERSTEP_DEVICE=shm "$work/static" 2>&1)
    [ "$(grep -c '^ok' <<<"$out")" = 2 ] || say "against the .a: $out"
else
    say "against the .a, the program does not link: $(grep -m1 -E 'multiple|error' "$work/err")"
fi
if gcc "${cflags[@]}" "$work/names.c" -o "$work/shared" -L"$libdir" -lsuperstep -lpthread -lm 2>"$work/err"; then
    out=$(SUPERSTEP_DEVICE=shm LD_LIBRARY_PATH=$libdir "$work/shared" 2>&1)
    [ "$(grep -c '^ok' <<<"$out")" = 2 ] || say "against the .so: $(head -n 3 <<<"$out")"
else
    say "against the .so, the program does not link: $(grep -m1 error "$work/err")"
fi

# 3. Every public declaration, from an installed Superstep (the release
# build, as a user installs it).
list=build/rel/exports.list
[ -s "$list" ] || say "no $list"
grep -qx e_group_config "$list" || say "$list lacks e_group_config (a variable of e-lib.h)"
prefix=$work/prefix
install_superstep "$prefix"
# Declared as what the installed .so says each is (a name it lacks: as a
# function, which then does not link).
nm -D --defined-only "$prefix/lib/libsuperstep.so.1" | awk 'NF == 3 && $2 !~ /[TtWi]/ { print $3 }' >"$work/variables"
{
    echo '/* refers to every exported name; calls none */'
    while read -r name; do
        if grep -qx "$name" "$work/variables"; then echo "extern char $name[];"; else echo "void $name(void);"; fi
    done <"$list"
    echo 'void *volatile every[] = {'
    sed 's/.*/    (void *)&,/' "$list"
    echo '};'
    echo 'int main(void) { return every[0] == 0; }'
} >"$work/every.c"
if gcc -std=c11 "$work/every.c" -o "$work/every_static" "$prefix/lib/libsuperstep.a" -lpthread -lm -ldl 2>"$work/err"; then
    "$work/every_static" || say "the program linked with the installed libsuperstep.a fails"
else
    say "every public name against the installed .a: $(grep -m3 -E 'undefined|error' "$work/err" | tr '\n' ' ')"
fi
if gcc -std=c11 "$work/every.c" -o "$work/every_shared" -L"$prefix/lib" -Wl,-rpath,"$prefix/lib" -lsuperstep 2>"$work/err"; then
    "$work/every_shared" || say "the program linked with the installed libsuperstep.so fails"
else
    say "every public name against the installed .so: $(grep -m3 -E 'undefined|error' "$work/err" | tr '\n' ' ')"
fi
readelf -d "$prefix/lib/libsuperstep.so.1" | grep -q 'NEEDED.*libmpi' && say "the installed libsuperstep.so needs libmpi"
nm -u "$prefix/lib/libsuperstep.a" | grep -q ' MPI_' && say "the installed libsuperstep.a refers to MPI"
if grep -qx 'mpi=yes' build/rel/config; then
    plugin=$prefix/lib/superstep/device-mpi.so
    got=$(nm -D --defined-only "$plugin" 2>&1 | awk 'NF == 3 { print $3 }' | sort | tr '\n' ' ')
    [ "$got" = "superstep_plugin_abi superstep_plugin_entry superstep_plugin_version " ] || say "$plugin exports: $got"
fi
exit $fail
