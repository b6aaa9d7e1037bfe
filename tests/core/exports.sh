# exports.sh - the libraries export only the public API: every symbol that
# libsuperstep.so exports and every global symbol libsuperstep.a defines is
# named in include/*.h (comments aside), and a program that defines names
# the runtime uses inside (job, dev, bsp, grow, now_ns, seg_alloc) links
# against either library and keeps its own values.
# RUN: n=1 timeout=180
set -u
libdir=lib
[ "${SANITIZE:-}" = 1 ] && libdir=$O/lib
cflags=(-std=c11 -D_GNU_SOURCE -Iinclude)
[ "${SANITIZE:-}" = 1 ] && cflags+=(-fsanitize=address,undefined -fno-omit-frame-pointer)
mpilibs=()
grep -qx 'mpi=yes' "$O/config" && read -ra mpilibs <<<"$(mpicc --showme:link)"
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
if gcc "${cflags[@]}" "$work/names.c" -o "$work/static" "$libdir/libsuperstep.a" -lpthread -lm "${mpilibs[@]}" \
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
exit $fail
