# cxx_program.sh - MulticoreBSP's C++ class, mcbsp::BSP_program (bsp.hpp):
# a class-based program builds with bspcxx, processor 0 runs spmd() on the
# caller's object and every other processor on an instance of its own from
# newInstance() (made after bsp_begin, destroyed with destroyInstance after
# one more sync), begin() defaults to bsp_nprocs() and runs again; the C++
# example builds and runs; mcbsp.hpp (1.x's name) works too.
# RUN: n=3 timeout=180
set -u
command -v g++ >/dev/null || { echo "cxx_program.sh: g++ not installed" >&2; exit 1; }
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
fail() { echo "cxx_program.sh: $*" >&2; exit 1; }
export CXX="g++ -std=c++11 -Wall -Wextra -Werror"

"$BINDIR/bspcxx" examples/cxx/hello_world.cpp -o "$dir/hello" || fail "the example does not build"
out=$(SUPERSTEP_DEVICE=shm "$dir/hello") || fail "the example failed: $out"
for s in 0 1 2; do
    grep -qx "Hello world from processor $s of 3; my left neighbour's instance holds $(( (s + 2) % 3 ))" <<<"$out" ||
        fail "example, processor $s: $out"
done
[ "$(grep -c '^Hello world from processor [01] of 2;' <<<"$out")" = 2 ] || fail "second run: $out"

cat >"$dir/instances.cpp" <<'END'
#include <mcbsp.hpp>
#include <cstdio>
#include <cstdlib>
static int made, destroyed;
class Counter : public mcbsp::BSP_program {
    int mine, created_by;
  protected:
    void spmd() {
        if (bsp_pid() != 0 && created_by != (int)bsp_pid()) {
            std::fprintf(stderr, "processor %d: instance not its own (made by %d)\n", (int)bsp_pid(), created_by);
            std::exit(2);
        }
        if (bsp_pid() == 0 && created_by != -7) {
            std::fprintf(stderr, "processor 0 does not run on the caller's object\n");
            std::exit(2);
        }
        mine = 10 * (int)bsp_pid();
        bsp_push_reg(&mine, sizeof mine);
        bsp_sync();
        int next = -1;
        bsp_get((bsp_pid() + 1) % bsp_nprocs(), &mine, 0, &next, sizeof next);
        bsp_sync();
        std::printf("processor %d next %d made %d\n", (int)bsp_pid(), next, made);
        std::fflush(stdout);
        bsp_pop_reg(&mine);
    }
    mcbsp::BSP_program *newInstance() { made++; return new Counter((int)bsp_pid()); }
    void destroyInstance(mcbsp::BSP_program *const p) { destroyed++; delete p; }
  public:
    explicit Counter(int by) : mine(-1), created_by(by) {}
};
int main() {
    Counter c(-7);
    c.begin();
    std::printf("after: made %d destroyed %d\n", made, destroyed);
    return 0;
}
END
"$BINDIR/bspcxx" "$dir/instances.cpp" -o "$dir/instances" || fail "instances.cpp does not build"
out=$(SUPERSTEP_DEVICE=shm SUPERSTEP_NPROCS=4 "$dir/instances") || fail "instances failed: $out"
for s in 0 1 2 3; do
    m=1; [ "$s" = 0 ] && m=0
    grep -qx "processor $s next $(( (s + 1) % 4 * 10 )) made $m" <<<"$out" || fail "instances, processor $s: $out"
done
grep -qx "after: made 0 destroyed 0" <<<"$out" || fail "processor 0 made or destroyed an instance: $out"
exit 0
