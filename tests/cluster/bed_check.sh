# bed_check.sh - the test bed itself (tests/cluster/bed.sh): 3 nodes, each
# with its own hostname, address (eth0; none of it in this machine's own
# network namespace), /dev/shm, /tmp and System V IPC, every node's name
# resolving on every node, a node reaching another; its CPUs; and down,
# or an up that fails half-way, leaves nothing: no process in the nodes'
# namespaces, no state folder.
# RUN: n=1 timeout=120
. tests/cluster/bed.inc
fail() { echo "bed_check.sh: $*" >&2; exit 1; }
bed_up 3
for i in 1 2 3; do
    [ "$(on "$i" hostname)" = "node$i" ] || fail "node$i: hostname $(on "$i" hostname)"
    on "$i" ip -o -4 addr show eth0 | grep -q " 10\.77\.0\.$i/24 " || fail "node$i: no address 10.77.0.$i on eth0"
    [ "$(on "$i" getent hosts node3 | awk '{print $1}')" = 10.77.0.3 ] || fail "node$i: node3 does not resolve"
    on "$i" sh -c "echo $i >/dev/shm/mark && echo $i >/tmp/mark && ipcmk -M 4096 >/dev/null" || fail "node$i: cannot write"
    [ "$(on "$i" sh -c 'taskset -pc $$' | sed 's/.*: //')" = "$(cat "$BED/$i/cpus")" ] ||
        fail "node$i: not on its CPUs $(cat "$BED/$i/cpus")"
done
for i in 1 2 3; do
    [ "$(on "$i" cat /dev/shm/mark /tmp/mark | sort -u)" = "$i" ] || fail "node$i: /dev/shm or /tmp shared"
    [ "$(on "$i" ipcs -m | grep -c '^0x')" = 1 ] || fail "node$i: System V shared memory shared"
done
ip -o link | grep -q "sb${BED##*.}" && fail "a link of the bed in this machine's namespace"
# node2 answers node1 (a refused connection; unreachable would say so).
on 1 bash -c 'exec 3<>/dev/tcp/node2/1' 2>&1 | grep -q 'Connection refused' || fail "node1 does not reach node2"
"$bed" left "$BED" >/dev/null && fail "bed.sh left saw nothing left"
"$bed" node "$BED" 2 sleep 1000 &
sleeper=$!
disown # (killed by down: no word from this shell)
holders=$(cat "$BED"/*/pid "$BED/bridge.pid")
dir=$BED
bed_down
[ ! -e "$dir" ] || fail "down left $dir"
for p in $holders $sleeper; do
    [ ! -e "/proc/$p" ] || grep -q '^State:.*Z' "/proc/$p/status" || fail "down left process $p"
done
# An up that fails half-way (the veth pairs cannot be made) leaves nothing:
# no state folder, no process (its processes carry a mark in their
# environment).
fake=$(mktemp -d)
trap 'rm -rf "$fake"' EXIT
printf '#!/bin/sh\ncase "$*" in *veth*) exit 2 ;; esac\nexec "%s" "$@"\n' "$(command -v ip)" >"$fake/ip"
chmod +x "$fake/ip"
mkdir "$fake/tmp"
mark=BED_CHECK_MARK=$$.$RANDOM
env "$mark" PATH="$fake:$PATH" BED_TMP="$fake/tmp" "$bed" up 2 >/dev/null 2>&1 && fail "up with a failing ip succeeded"
[ -z "$(ls -A "$fake/tmp")" ] || fail "a failed up left its state folder"
for p in /proc/[0-9]*; do
    ! grep -qz "^$mark\$" "$p/environ" 2>/dev/null || fail "a failed up left process ${p#/proc/}: $(tr '\0' ' ' <"$p/cmdline")"
done
exit 0
