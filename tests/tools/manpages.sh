# manpages.sh - every function declared in include/*.h has a section 3 page
# in man/ (a page of its own, or a one-line ".so man3/family.3" alias whose
# family page names it in NAME), every installed tool a section 1 page, and
# every page make install puts under
# PREFIX/share/man renders with man --warnings (groff -ww) without a single
# warning, aliases resolved as "man NAME" resolves them; make uninstall
# removes every page again.
# RUN: timeout=600
set -u
. tests/tools/install.inc
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# The extractor itself: a header with what other headers may bring.
cat > "$tmp/sample.h" <<'END'
#define bsp_hpsend bsp_mc_hpsend
/* void not_this(void); */
typedef void (*handler_t)(int);
typedef struct { void (*cb)(void); int n; } box_t;
void bsp_direct_get(unsigned pid, const void *src, size_t offset,
                    void *dst, size_t size);
static inline size_t mcbsp_get_pinning_count(void) { return superstep_count(); }
unsigned int *mcbsp_get_pinning(void) __attribute__((pure));
void _private(void);
void superstep_internal(void);
END
got=$(python3 tests/tools/declared.py "$tmp/sample.h" | tr '\n' ' ')
[ "$got" = "bsp_direct_get mcbsp_get_pinning mcbsp_get_pinning_count " ] ||
    fail "declared.py finds '$got' in a sample header"

# 1. A page for every declared function; every alias's family page names it.
missing=""
for name in $(python3 tests/tools/declared.py include/*.h); do
    [ -f "man/$name.3" ] || missing="$missing $name"
done
[ -z "$missing" ] || fail "functions of include/*.h without a page man/NAME.3:$missing"
# Each function of a SYNOPSIS is declared by the header of the #include
# line above it, or by a header that one includes which no page names (its
# *_deprecated.h): a page must not send a reader to mcbsp.h for what bsp.h
# declares.
bad=$(python3 - <<'PY'
import glob, re, subprocess
def includes(h):
    return re.findall(r'^\s*#\s*include\s+"([^"]+)"', open("include/" + h).read(), re.M)
def names(h):
    return set(subprocess.run(["python3", "tests/tools/declared.py", "include/" + h],
                              capture_output=True, text=True).stdout.split())
pages = {p: open(p).read() for p in glob.glob("man/*.3")}
named = {h for t in pages.values() for h in re.findall(r"#include <([^>]+)>", t)}
for page, text in sorted(pages.items()):
    syn = re.search(r"^\.SH SYNOPSIS\n(.*?)^\.SH", text, re.S | re.M)
    hdr = None
    for line in syn.group(1).splitlines() if syn else []:
        inc = re.search(r"#include <([^>]+)>", line)
        if inc:
            hdr = inc.group(1)
            continue
        f = re.match(r'^\.BI? "(?:[^"(]*[\s*])?(\w+)\(', line)
        if not f or hdr is None or not glob.glob("include/" + hdr):
            continue
        ok = names(hdr) | {n for i in includes(hdr) if i not in named for n in names(i)}
        if f.group(1) not in ok:
            print("%s: %s under <%s>, which does not declare it" % (page, f.group(1), hdr))
PY
)
[ -z "$bad" ] || fail "$bad"
# ... and every tool make install puts in PREFIX/bin has a section 1 page.
for tool in tools/*.c tools/bspcc.in; do
    name=${tool#tools/}; name=${name%.*}
    [ -f "man/$name.1" ] || missing="$missing $name"
done
[ -f man/bspcxx.1 ] || missing="$missing bspcxx"
[ -z "$missing" ] || fail "tools without a page man/NAME.1:$missing"
for page in man/*.[137]; do
    first=$(head -n 1 "$page")
    case "$first" in
        .so\ *)
            [ "$(wc -l < "$page")" = 1 ] || fail "$page: an alias must be the one line .so man3/PAGE.3"
            target=man/${first#.so man?/}
            [ -f "$target" ] || fail "$page: .so to a missing page ($target)"
            name=${page#man/}; name=${name%.*}
            sed -n '/^\.SH NAME/,/^\.SH/p' "$target" | grep -qw -- "$name" ||
                fail "$page is an alias of $target, whose NAME section does not name $name"
            ;;
        .TH\ *) # the version of this Superstep, one manual title
            version=$(sed -n 's/^#define SUPERSTEP_VERSION "\(.*\)"/\1/p' include/bsp.h)
            case "$first" in *" \"Superstep $version\" \"Superstep Manual\"") ;;
                *) fail "$page: .TH does not end with \"Superstep $version\" \"Superstep Manual\": $first" ;; esac
            ;;
        *) fail "$page: neither a page (.TH first) nor an alias (.so)" ;;
    esac
done

# 2. Installed, every page renders without warnings.
prefix=$tmp/prefix
install_superstep "$prefix"
mandir=$prefix/share/man
# An alias (.so) renders as its family page, which is rendered here too:
# every alias's .so must resolve in the installed tree, as man resolves it
# (relative to the man directory), and one alias of each family is rendered
# through man as well; rendering all 150-odd aliases repeated their
# families' pages (three quarters of this test's CPU time).
n=0
declare -A family_shown=()
for page in man/*.[137]; do
    sec=${page##*.}
    inst=man$sec/${page#man/}
    [ -f "$mandir/$inst" ] || fail "make install did not install $page as $mandir/$inst"
    first=$(head -n 1 "$mandir/$inst")
    if [ "${first#.so }" != "$first" ]; then
        [ -f "$mandir/${first#.so }" ] || fail "$inst: its .so does not resolve in $mandir (${first#.so })"
        [ -z "${family_shown[${first#.so }]:-}" ] || { n=$((n + 1)); continue; }
        family_shown[${first#.so }]=1
    fi
    out=$(cd "$mandir" && MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$inst" 2>"$tmp/err")
    [ -s "$tmp/err" ] && fail "$inst renders with warnings: $(head -n 3 "$tmp/err")"
    [ "$(printf '%s\n' "$out" | grep -c .)" -ge 5 ] || fail "$inst renders to nothing"
    n=$((n + 1))
done
# As a user asks: man -M PREFIX/share/man bsp_hpput shows bsp_put's page.
out=$(MANWIDTH=80 man -M "$mandir" 3 bsp_hpput 2>&1) || fail "man -M $mandir 3 bsp_hpput: $out"
printf '%s\n' "$out" | grep -q 'BSP_PUT(3)' || fail "man bsp_hpput does not show bsp_put(3): $(printf '%s\n' "$out" | head -n 3)"
out=$(MANWIDTH=80 man -M "$mandir" 1 bsprun 2>&1) || fail "man bsprun: $out"
printf '%s\n' "$out" | grep -q -- '--nprocs' || fail "man bsprun does not describe --nprocs"
for tool in bspbench bspprof; do
    out=$(MANWIDTH=80 man -M "$mandir" 1 $tool 2>&1) || fail "man $tool: $out"
    printf '%s\n' "$out" | grep -q -- '--version' || fail "man $tool does not describe --version"
done

# 3. make uninstall removes them (and everything else it installed).
uninstall_superstep "$prefix"
left=$(find "$prefix" ! -type d)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "manpages.sh: $n pages render cleanly"
