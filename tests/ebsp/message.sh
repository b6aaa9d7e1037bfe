# message.sh - ebsp_message lines reach the host's stdout whole, prefixed
# "$PP: ", in order per processor, none lost or mixed with another, also far
# more than fit in the ring at once; each line of a multi-line message gets
# the prefix.
# RUN: n=1 args="3000"
# RUN: n=4 args="2000"
# RUN: n=16 args="300" timeout=120
set -u
p=$SUPERSTEP_NPROCS
count=$1
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
fail() { echo "message.sh: $1" >&2; exit 1; }
"$O/tests/ebsp/message_host" "$count" >"$out" || fail "exit status $?"
awk -v p="$p" -v n="$count" '
    function bad(why) { print "line " NR ": " why ": " substr($0, 1, 80) > "/dev/stderr"; err = 1; exit 1 }
    !/^\$[0-9][0-9]: / { bad("no prefix") }
    {
        pid = substr($0, 2, 2) + 0; text = substr($0, 6)
        if (text ~ /^line /) {
            split(text, w, " ")
            if (w[2] != next_line[pid] + 0 || w[4] != pid) bad("out of order")
            if (length(w[5]) != 200 - (w[2] % 200)) bad("cut")
            next_line[pid]++
        } else if (text == "first") { first[pid]++
        } else if (text == "second of " pid) { if (!first[pid]) bad("second before first"); second[pid]++
        } else if (text ~ /^long y+$/) { if (length(text) < 10000) bad("long line too short"); long[pid]++
        } else if (text == "done " pid) { done[pid]++
        } else bad("unexpected")
    }
    END {
        if (err) exit 1
        for (q = 0; q < p; q++)
            if (next_line[q] != n || first[q] != 1 || second[q] != 1 || long[q] != 1 || done[q] != 1) {
                print "processor " q ": " next_line[q] " lines, " done[q] " done" > "/dev/stderr"; exit 1
            }
    }' "$out" || fail "bad output"
