# readme_errors.sh - each line of the README's error table ("### 5. What an
# error means") is what a program really prints (a hang and Ctrl-C among
# them): a program commits each
# error at the processor and superstep the table shows; each error is one
# line on stderr, the exit status is 1 (128 + the signal for a crash), every
# line of the table matches one of those lines ("..." standing for the call,
# processor and superstep, "<your message>" for the message; the other
# values of a row, like "absurd nbytes ...", follow them too) and every
# error printed is in the table.
# RUN: timeout=300
set -u
. tests/tools/install.inc
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
cat > "$tmp/errors.c" <<'END'
#include <bsp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Is process pid asleep in a futex (a processor waiting in bsp_sync)? */
static int waiting(int pid)
{
    char path[64], wchan[64] = "";
    snprintf(path, sizeof path, "/proc/%d/wchan", pid);
    FILE *f = fopen(path, "r");
    if (f) {
        if (!fgets(wchan, sizeof wchan, f))
            wchan[0] = 0;
        fclose(f);
    }
    return strstr(wchan, "futex") != NULL;
}

/* Commit error 'which' on processor 'who' after 'steps' bsp_syncs. */
int main(int argc, char **argv)
{
    (void)argc;
    int which = atoi(argv[1]), who = atoi(argv[2]), steps = atoi(argv[3]);
    bsp_begin(4);
    int s = (int)bsp_pid();
    char reg[8];
    int x = 0, y = 0;
    bsp_push_reg(reg, sizeof reg);
    int pids[4] = { 0 }, mine = (int)getpid();
    if (which == 12) { /* processor 'who' learns every processor's pid */
        bsp_push_reg(pids, sizeof pids);
        bsp_sync();
        bsp_put(who, &mine, pids, s * sizeof mine, sizeof mine);
    }
    for (int i = 0; i < steps; i++)
        bsp_sync();
    if (s == who) {
        switch (which) {
        case 1: bsp_put(7, &x, reg, 0, sizeof x); break;
        case 2: { double d[2] = {0, 0}; bsp_put(0, d, reg, 4, 8); } break;
        case 3: bsp_put(0, &x, &y, 0, sizeof x); break;
        case 4: bsp_put(1, &x, reg, 0, -3); break;
#ifdef SUPERSTEP_MCBSP
        case 5: bsp_put(1, &x, reg, 0, (bsp_size_t)1 << 41); break;
#endif
        case 6: bsp_put(1, NULL, reg, 0, 8); break;
        case 7: bsp_push_reg(&x, sizeof x); break;
        case 8: bsp_end(); break;
        case 9: bsp_abort("the input file is empty"); break;
        case 10: raise(SIGSEGV); break;
        case 11: exit(0);
        case 12: /* Ctrl-C's SIGINT, once the others wait in bsp_sync; computing meanwhile */
            for (int q = 0; q < 4; q++)
                while (q != who && !waiting(pids[q]))
                    usleep(1000);
            kill(pids[0], SIGINT);
            for (;;)
                ;
        case 13: /* a hang */
            for (;;)
                ;
        }
    }
    if (which == 7)
        bsp_push_reg(&y, sizeof y);
    bsp_sync();
    bsp_sync();
    bsp_end();
    return 0;
}
END
"$BINDIR/bspcc" -Wall -Wextra -Werror "$tmp/errors.c" -o "$tmp/errors" || fail "cannot build errors.c"
"$BINDIR/bspcc" -Wall -Wextra -Werror -DSUPERSTEP_MCBSP "$tmp/errors.c" -o "$tmp/errors_mc" || fail "cannot build errors.c (MulticoreBSP)"
: > "$tmp/lines"
# which who steps expected-status [program]
while read -r which who steps status prog; do
    stall=0; [ "$which" = 13 ] && stall=5
    SUPERSTEP_STALL_TIMEOUT=$stall "$tmp/${prog:-errors}" "$which" "$who" "$steps" >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" = "$status" ] || fail "error $which: exit status $rc, not $status ($(cat "$tmp/err"))"
    [ "$(wc -l < "$tmp/err")" = 1 ] || fail "error $which: not one line: $(cat "$tmp/err")"
    grep -q '^superstep: ' "$tmp/err" || fail "error $which: $(cat "$tmp/err")"
    cat "$tmp/err" >> "$tmp/lines"
done <<'END'
1 1 0 1
2 1 1 1
3 1 1 1
4 0 1 1
5 0 1 1 errors_mc
6 0 1 1
7 0 1 1
8 1 3 1
9 2 1 1
10 3 2 139
11 3 2 1
12 1 2 130
13 1 3 1
END
python3 - README.md "$tmp/lines" <<'END' || exit 1
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text.split("### 5. What an error means", 1)[1].split("\n## ", 1)[0]
spans = []
for row in section.splitlines():
    if row.startswith("| `"):
        spans += re.findall(r"`([^`]+)`", row.split(" | ")[0])
if len(spans) < 9:
    sys.exit("readme_errors: the error table has only %d messages" % len(spans))
lines = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
used = set()
for span in spans:
    pattern = re.escape(span).replace(r"\.\.\.", ".*").replace(re.escape("<your message>"), ".+")
    # A fragment ("...", or a value list continuing a row) follows the
    # call, processor and superstep; a whole message starts the line.
    whole = re.match(r"^(\w+: |processor )", span) is not None
    hits = [l for l in lines if re.search("^superstep: " + ("" if whole else ".*: ") + pattern + "$", l)]
    if not hits:
        sys.exit("readme_errors: the README's '%s' is printed by no program; they printed:\n  %s" % (span, "\n  ".join(lines)))
    used.update(hits)
for l in lines:
    if l not in used:
        sys.exit("readme_errors: '%s' is not in the README's table" % l)
print("readme_errors: %d messages of the table match what the programs print" % len(spans))
END
