# table.sh - docs/settings.md's table and superstep(7)'s ENVIRONMENT list
# say exactly what the settings parser's table says (tests/settings/list
# prints it), row for row.
# RUN: n=1
set -u
fail() { echo "table.sh: $*" >&2; exit 1; }
list=$O/tests/settings/list
[ -x "$list" ] || fail "not built: $list"
doc=$(awk '/^\|/ { on = 1; print; next } on { exit }' docs/settings.md)
[ -n "$doc" ] || fail "docs/settings.md has no table"
diff <("$list" markdown) <(printf '%s\n' "$doc") >&2 ||
    fail "docs/settings.md's table differs from the parser's (< parser, > docs/settings.md)"
man=$(sed -n '/^\.\\" settings-begin/,/^\.\\" settings-end/p' man/superstep.7 | sed '1d;$d')
[ -n "$man" ] || fail "man/superstep.7 has no settings-begin/settings-end list"
diff <("$list" man) <(printf '%s\n' "$man") >&2 ||
    fail "man/superstep.7's list differs from the parser's (< parser, > man page)"
# Every SUPERSTEP_ variable the sources read is a row (the launcher's
# internal ones and SUPERSTEP_TEST excepted).
internal='SUPERSTEP_(SEGMENT_FD|PROC_ID|EBSP_FD|TEST|HAVE_MPI|NO_PROFILE)$'
for v in $(grep -rhoE 'getenv\("SUPERSTEP_[A-Z_]+"\)' src tools | grep -oE 'SUPERSTEP_[A-Z_]+' | sort -u); do
    printf '%s\n' "$v" | grep -Eq "$internal" && continue
    "$list" markdown | grep -q "^| \`$v\` |" || fail "$v is read with getenv but is not in the parser's table"
done
exit 0
