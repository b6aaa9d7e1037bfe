# werror.sh - warnings stop the build only when asked: a plain make
# compiles with -Wall -Wextra and without -Werror (a user's newer compiler
# may warn where ours does not), make WERROR=1 adds -Werror, and CI
# (.ci/run) asks for it before its first build.
# RUN: timeout=120
set -u
fail() { echo "${0##*/}: $*" >&2; exit 1; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
# flags ARGS...: the compile line make would run for one object.
flags() {
    env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u WERROR make -n -B MPI=0 O="$tmp/b" "$@" "$tmp/b/src/settings/settings.o" 2>&1 |
        grep -- ' -c src/settings/settings.c '
}
plain=$(flags) || fail "no compile line from make -n"
case " $plain " in *" -Wall -Wextra "*) ;; *) fail "a plain make lacks -Wall -Wextra: $plain" ;; esac
case " $plain " in *" -Werror "*) fail "a plain make stops at warnings: $plain" ;; esac
strict=$(flags WERROR=1) || fail "no compile line from make -n WERROR=1"
case " $strict " in *" -Wall -Wextra -Werror "*) ;; *) fail "make WERROR=1 lacks -Werror: $strict" ;; esac
# .ci/run: WERROR=1 exported, at its top level, before its first build
# (make test; the functions that build run after it).
werror=$(grep -n '^export WERROR=1$' .ci/run | head -n 1 | cut -d: -f1)
first=$(grep -n '^timed "make test" make ' .ci/run | head -n 1 | cut -d: -f1)
[ -n "$werror" ] && [ -n "$first" ] && [ "$werror" -lt "$first" ] ||
    fail ".ci/run does not export WERROR=1 before its first build (line ${werror:-none}, make test at ${first:-none})"
exit 0
