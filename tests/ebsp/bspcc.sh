# bspcc.sh - an Epiphany BSP host + kernel pair builds with bspcc, unchanged,
# into any directory, and runs from there (the kernel is found beside the
# host, also when started from elsewhere); then from the working directory.
# RUN: n=3 timeout=120
set -u
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "bspcc.sh: $1" >&2; exit 1; }
"$BINDIR/bspcc" examples/ebsp/hello_host.c -o "$dir/hello_host" || fail "cannot build the host"
"$BINDIR/bspcc" -O2 examples/ebsp/hello_kernel.c -o "$dir/hello_kernel" || fail "cannot build the kernel"
out=$(cd / && "$dir/hello_host") || fail "host failed: $?"
[ "$(printf '%s\n' "$out" | grep -c 'Hello world from core [0-2]/3')" = 3 ] || fail "unexpected output: $out"
# A kernel in the working directory, the host elsewhere.
mkdir "$dir/bin" && mv "$dir/hello_host" "$dir/bin/" || exit 1
out=$(cd "$dir" && bin/hello_host) || fail "host in bin/ failed: $?"
[ "$(printf '%s\n' "$out" | grep -c 'Hello world')" = 3 ] || fail "unexpected output: $out"
# The Epiphany BSP style: main() without prototype, an .elf kernel name.
cat > "$dir/e_hi.c" <<'END'
#include <e_bsp.h>
int main() {
    bsp_begin();
    int tag = 0, v = bsp_pid();
    ebsp_send_up(&tag, &v, sizeof(int));
    bsp_end();
    return 0;
}
END
cat > "$dir/hi.c" <<'END'
#include <host_bsp.h>
#include <stdio.h>
int main(int argc, char** argv) {
    bsp_init("e_hi.elf", argc, argv);
    bsp_begin(bsp_nprocs());
    int tagsize = 4;
    ebsp_set_tagsize(&tagsize);
    ebsp_spmd();
    int packets, bytes, sum = 0;
    ebsp_qsize(&packets, &bytes);
    for (int i = 0; i < packets; i++) {
        int tag, v;
        ebsp_get_tag(&bytes, &tag);
        ebsp_move(&v, sizeof(int));
        sum += v;
    }
    bsp_end();
    printf("sum %d\n", sum);
    return 0;
}
END
"$BINDIR/bspcc" "$dir/e_hi.c" -o "$dir/e_hi.elf" || fail "cannot build e_hi.elf"
"$BINDIR/bspcc" "$dir/hi.c" -o "$dir/hi" || fail "cannot build hi"
out=$("$dir/hi") || fail "hi failed: $?"
[ "$out" = "sum 3" ] || fail "hi printed: $out"
# e_bsp.h and bsp.h together in one kernel.
printf '#include <bsp.h>\n#include <e_bsp.h>\nint main(void) { bsp_begin(); bsp_end(); return 0; }\n' > "$dir/both.c"
"$BINDIR/bspcc" -c "$dir/both.c" -o "$dir/both.o" || fail "bsp.h then e_bsp.h does not compile"
printf '#include <e_bsp.h>\n#include <bsp.h>\nint main(void) { bsp_begin(); float t = bsp_time(); (void)t; bsp_end(); return 0; }\n' > "$dir/both2.c"
"$BINDIR/bspcc" -c "$dir/both2.c" -o "$dir/both2.o" || fail "e_bsp.h then bsp.h does not compile"
printf '#include <bsp.h>\n#include <host_bsp.h>\nint main(int c, char **v) { bsp_init("k", c, v); bsp_begin(bsp_nprocs()); ebsp_spmd(); bsp_end(); return 0; }\n' > "$dir/host2.c"
"$BINDIR/bspcc" -c "$dir/host2.c" -o "$dir/host2.o" || fail "bsp.h then host_bsp.h does not compile"
exit 0
