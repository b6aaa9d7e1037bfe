# bspcc.sh - bspcc and bspcxx: --help, --version, -show, --mcbsp (accepted,
# not passed on), --help naming exactly the shared libraries a program
# needs, the errors for no arguments and for a missing library, and C++: a C++ program using bsp.h (both dialects), built with
# bspcxx and with bspcc given a .cpp file, compiles without warnings, links
# and runs on 3 processors; mp.h, e_bsp.h and host_bsp.h compile as C++.
# RUN: cmd="$BINDIR/bspcc" fail="^bspcc: no input files \(try bspcc --help\)$"
# RUN: cmd="$BINDIR/bspcxx" fail="^bspcxx: no input files \(try bspcxx --help\)$"
# RUN: n=3 timeout=300
set -u
. tests/tools/install.inc
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
bspcc=$BINDIR/bspcc bspcxx=$BINDIR/bspcxx
version=$(sed -n 's/^#define SUPERSTEP_VERSION "\(.*\)"/\1/p' include/bsp.h)

for tool in bspcc bspcxx; do
    help=$("$BINDIR/$tool" --help) || fail "$tool --help: status $?"
    printf '%s\n' "$help" | grep -q "^usage: $tool " || fail "$tool --help: no usage line: $help"
    for opt in --help --version -show; do
        printf '%s\n' "$help" | grep -q -- "$opt" || fail "$tool --help does not mention $opt"
    done
    [ "$("$BINDIR/$tool" --version)" = "$tool (Superstep) $version" ] || fail "$tool --version: $("$BINDIR/$tool" --version)"
    "$BINDIR/$tool" >/dev/null 2>"$tmp/err"; rc=$?
    [ "$rc" = 2 ] && [ "$(wc -l < "$tmp/err")" = 1 ] || fail "$tool with no argument: status $rc, stderr $(cat "$tmp/err")"
done

# A bspcc moved away from its library says so, in one line, status 1.
mkdir -p "$tmp/moved/bin" && cp "$bspcc" "$tmp/moved/bin/bspcc"
printf 'int main(void) { return 0; }\n' > "$tmp/empty.c"
"$tmp/moved/bin/bspcc" "$tmp/empty.c" -o "$tmp/empty" 2>"$tmp/err"; rc=$?
[ "$rc" = 1 ] && [ "$(cat "$tmp/err")" = "bspcc: cannot find $tmp/moved/lib/libsuperstep.a (is Superstep built or installed?)" ] ||
    fail "bspcc without its library: status $rc, stderr: $(cat "$tmp/err")"
"$tmp/moved/bin/bspcc" -c "$tmp/empty.c" -o "$tmp/empty.o" || fail "bspcc -c needs no library, yet failed"

# -show prints the command and runs nothing.
shown=$("$bspcc" -show -O2 ring.c -o "$tmp/never") || fail "bspcc -show: status $?"
[ ! -e "$tmp/never" ] || fail "bspcc -show ran the compiler"
case "$shown" in
    "cc "*"-O2 ring.c -o $tmp/never -I"*"/include "*"/libsuperstep.a -lpthread -lm"*) ;; # (the user's first, MPI's -I after ours)
    *) fail "bspcc -show printed: $shown" ;;
esac
case "$(CC=my-cc "$bspcc" -show -c a.c)" in "my-cc "*"-c a.c -I"*) ;; *) fail "bspcc -show ignores CC: $(CC=my-cc "$bspcc" -show -c a.c)" ;; esac
case "$(CXX=my-cxx "$bspcc" -show a.cpp)" in "my-cxx "*) ;; *) fail "bspcc -show a.cpp does not use CXX" ;; esac
case "$(CXX=my-cxx "$bspcxx" -show a.o)" in "my-cxx "*) ;; *) fail "bspcxx -show does not use CXX" ;; esac
case "$("$bspcc" -show -c a.c)" in *libsuperstep.a*) fail "bspcc -show -c links" ;; esac
# -show quotes what needs quoting: the line, run by a shell, gives the same words.
shown=$("$bspcc" -show -c '-DMSG="a b"' "it's.c")
eval "set -- $shown"
prev= quoted=no
for word in "$@"; do [ "$prev" = '-DMSG="a b"' ] && [ "$word" = "it's.c" ] && quoted=yes; prev=$word; done
[ "$quoted" = yes ] || fail "bspcc -show does not quote its arguments: $shown"

# --mcbsp (BSPonMPI's flag for the MulticoreBSP dialect) is accepted and
# not passed on: the dialect is chosen per call.
case "$("$bspcc" --mcbsp -show -c a.c)" in *--mcbsp*) fail "bspcc passes --mcbsp to the compiler" ;; esac
"$BINDIR/bspcc" --help | grep -q -- '--mcbsp .*ignored' || fail "bspcc --help does not say --mcbsp is ignored"
cat > "$tmp/mc.c" <<'END'
#include <bsp.h>
#include <stdio.h>
int main(void)
{
    bsp_begin(bsp_nprocs());
    bsp_size_t tagsize = sizeof(bsp_pid_t);
    bsp_set_tagsize(&tagsize);
    bsp_sync();
    bsp_pid_t s = bsp_pid();
    bsp_send((s + 1) % bsp_nprocs(), &s, NULL, 0);
    bsp_sync();
    bsp_pid_t from = 0;
    bsp_size_t status;
    bsp_get_tag(&status, &from);
    printf("%u from %u\n", (unsigned)s, (unsigned)from);
    bsp_end();
    return 0;
}
END
"$bspcc" --mcbsp -Wall -Wextra -Werror "$tmp/mc.c" -o "$tmp/mc" || fail "bspcc --mcbsp does not build a MulticoreBSP program"
[ "$(SUPERSTEP_NPROCS=3 "$tmp/mc" | sort | tr '\n' ' ')" = "0 from 2 1 from 0 2 from 1 " ] ||
    fail "the MulticoreBSP program built with --mcbsp printed: $(SUPERSTEP_NPROCS=3 "$tmp/mc")"

# --help tells the truth about what a program needs at run time: the
# shared libraries it names are those the program depends on, besides
# the C library's own.
needed=$(readelf -d "$tmp/mc" | sed -n 's/.*(NEEDED).*\[\(lib[^.]*\)\.so.*\]/\1/p' |
    grep -vx 'libc\|libm\|libpthread\|libdl\|librt\|libgcc_s\|libasan\|libubsan\|libstdc++' | sort | tr '\n' ' ')
named=$("$bspcc" --help | grep -o 'lib[a-z0-9_]*\.so' | grep -v '^libsuperstep' | sed 's/\.so$//' | sort -u | tr '\n' ' ')
[ "$needed" = "$named" ] || fail "bspcc --help names the shared libraries '$named', a program needs '$needed'"
readelf -d "$tmp/mc" | grep -q 'NEEDED.*libsuperstep' && fail "a program built with bspcc needs libsuperstep.so"

# A C++ program: classes, the standard library, exceptions, bsp.h.
cat > "$tmp/ring.cpp" <<'END'
#include <bsp.h>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
class Ring {
  public:
    explicit Ring(int n) : left_(static_cast<std::size_t>(n), -1) {
        bsp_push_reg(left_.data(), static_cast<int>(left_.size() * sizeof(int)));
        bsp_sync();
    }
    ~Ring() { bsp_pop_reg(left_.data()); }
    void shift(int value) {
        int s = static_cast<int>(bsp_pid()), p = static_cast<int>(bsp_nprocs());
        bsp_put((s + 1) % p, &value, left_.data(), 0, sizeof value);
        bsp_sync();
    }
    int left() const { return left_.at(0); }
  private:
    std::vector<int> left_;
};
}

int main()
{
    bsp_begin(bsp_nprocs());
    try {
        Ring ring(4);
        ring.shift(static_cast<int>(bsp_pid()) * 10);
        std::string line = "processor " + std::to_string(bsp_pid()) + " got " + std::to_string(ring.left());
        std::printf("%s\n", line.c_str());
        if (bsp_nprocs() > 0)
            throw std::runtime_error("caught");
    } catch (const std::exception &e) {
        std::printf("%s %d\n", e.what(), static_cast<int>(bsp_pid()));
    }
    bsp_end();
    return 0;
}
END
check_ring() { # program
    local out
    out=$(SUPERSTEP_NPROCS=3 "$1") || fail "$1 failed: $?"
    for s in 0 1 2; do
        printf '%s\n' "$out" | grep -qx "processor $s got $(( (s + 2) % 3 * 10 ))" || fail "$1 printed: $out"
        printf '%s\n' "$out" | grep -qx "caught $s" || fail "$1 (exceptions) printed: $out"
    done
}
"$bspcxx" -Wall -Wextra -Werror "$tmp/ring.cpp" -o "$tmp/ring_xx" || fail "bspcxx ring.cpp does not build"
check_ring "$tmp/ring_xx"
"$bspcc" -Wall -Wextra -Werror "$tmp/ring.cpp" -o "$tmp/ring_cc" || fail "bspcc ring.cpp does not build"
check_ring "$tmp/ring_cc"
"$bspcxx" -Wall -Wextra -Werror -DSUPERSTEP_MCBSP "$tmp/ring.cpp" -o "$tmp/ring_mc" || fail "bspcxx -DSUPERSTEP_MCBSP ring.cpp does not build"
check_ring "$tmp/ring_mc"
# Separate compilation: a C++ object and a C object in one program.
printf '#include <bsp.h>\nint c_side(void) { return bsp_pid(); }\n' > "$tmp/side.c"
printf '#include <bsp.h>\n#include <cstdio>\nextern "C" int c_side(void);\nint main() { bsp_begin(bsp_nprocs()); std::printf("%%d\\n", c_side() == static_cast<int>(bsp_pid())); bsp_end(); }\n' > "$tmp/mixed.cpp"
"$bspcc" -c "$tmp/side.c" -o "$tmp/side.o" && "$bspcxx" -c "$tmp/mixed.cpp" -o "$tmp/mixed.o" &&
    "$bspcxx" "$tmp/mixed.o" "$tmp/side.o" -o "$tmp/mixed" || fail "a C and a C++ object do not link"
[ "$(SUPERSTEP_NPROCS=3 "$tmp/mixed" | sort -u)" = 1 ] || fail "mixed C/C++ program printed: $(SUPERSTEP_NPROCS=3 "$tmp/mixed")"

# Every public header compiles as C++ without warnings.
for h in bsp mp e_bsp host_bsp; do
    printf '#include <%s.h>\nint main() { return 0; }\n' "$h" > "$tmp/h_$h.cpp"
    "$bspcxx" -Wall -Wextra -Werror -pedantic -c "$tmp/h_$h.cpp" -o "$tmp/h_$h.o" 2>"$tmp/err" ||
        fail "$h.h does not compile as C++: $(head -n 5 "$tmp/err")"
done
exit 0
