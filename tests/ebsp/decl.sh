# decl.sh - Epiphany BSP programs' own declarations and calls compile
# against e_bsp.h / host_bsp.h / e-lib.h unchanged (-std=c99 -Wall -Werror):
# the argument-less calls declared with empty parentheses, as upstream
# does, accept a stray argument (ebsp_get_tagsize(tagsize)); upstream's
# prototypes repeated after the headers do not conflict; e-lib.h gives
# core ids and timers and nothing of the hardware-only part.
# RUN: n=1 timeout=120
set -u
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "decl.sh: $1" >&2; exit 1; }
cat > "$dir/e_k.c" <<'END'
#include <e_bsp.h>
#include <e-lib.h>
void bsp_begin();
int ebsp_get_tagsize();
unsigned int ebsp_raw_time();
int main() {
    bsp_begin();
    int tagsize = 0;
    tagsize = ebsp_get_tagsize(tagsize);
    e_coreid_t id = e_get_coreid();
    ebsp_message("%d %u", tagsize, id);
    bsp_end();
    return 0;
}
END
cat > "$dir/h.c" <<'END'
#include <host_bsp.h>
int ebsp_write(int pid, void* src, off_t dst, int size);
void ebsp_set_sync_callback(void (*cb)());
int ebsp_spmd();
int main(int argc, char** argv) {
    bsp_init("e_k", argc, argv);
    bsp_begin(1);
    ebsp_spmd();
    bsp_end();
    return 0;
}
END
"$BINDIR/bspcc" -std=c99 -Wall -Werror -c "$dir/e_k.c" -o "$dir/e_k.o" || fail "kernel declarations do not compile"
"$BINDIR/bspcc" -std=c99 -Wall -Werror -c "$dir/h.c" -o "$dir/h.o" || fail "host declarations do not compile"
# The hardware-only part of e-lib is not declared.
printf '#include <e-lib.h>\nint main(void) { e_dma_wait(0); return 0; }\n' > "$dir/hw.c"
if "$BINDIR/bspcc" -std=c99 -Werror -c "$dir/hw.c" -o "$dir/hw.o" 2>/dev/null; then
    fail "a hardware-only e-lib call compiled"
fi
exit 0
