#!/usr/bin/env bash
# bed.sh - a cluster of N nodes (2 to 4) on this one Linux machine, for the
# multi-node tests (issue 31).  Root only; needs unshare, nsenter, ip.
#
#   bed.sh up N            make the nodes; prints the bed's state folder
#   bed.sh node DIR I CMD... run CMD on node I (1..N), as ssh would: its
#                          namespaces, its CPUs, a clean environment (PATH,
#                          HOME, and what BED_ENV names), the current
#                          folder kept (a shared file system)
#   bed.sh pids DIR I      the processes on node I (but the node's holder)
#   bed.sh left DIR        what is left on any node: processes, files in
#                          its /dev/shm and /tmp; status 1 when anything is
#   bed.sh down DIR        stop every process on every node, remove all
#
# A node is a process ("holder", sleep) in namespaces of its own: network
# (eth0, 10.77.0.I/24, a veth pair to a bridge that lives in a network
# namespace of its own, the bridge's holder), UTS (hostname nodeI), mount
# (tmpfs on /dev/shm and /tmp, the bed's hosts file on /etc/hosts: every
# node by name) and IPC (no System V shared memory common to the nodes).
# Nothing is made in the machine's own namespaces: links, addresses and
# mounts live and die with the holders, so two beds never meet, and down
# (kill the nodes' processes) leaves nothing.  Each node's processes run
# pinned to CPUs of its own (node I: CPU (I-1) mod ncpu).
#
# The state folder DIR (under /var/tmp, which the nodes share with the
# machine, as a cluster shares /home):
#   DIR/nodes              N
#   DIR/I/pid              node I's holder
#   DIR/I/cpus             its CPU list (taskset -c)
#   DIR/hosts              the /etc/hosts of every node
#   DIR/bridge.pid         the bridge's holder
#   DIR/keep               the tree's entry in /tmp, when the tree is there
#                          (bound at its path in every node's own /tmp)
# A layer on top (Slurm: a daemon per node) keeps its per-node state in
# DIR/I/ and starts what runs on node I with 'bed.sh node DIR I'.
# tests/cluster/enter is the rsh/ssh agent for the launchers: it runs
# 'bed.sh node' for a host name.
# NORUN: the test bed that the tests of tests/cluster start
set -eu
here=$(cd "$(dirname "$0")" && pwd)

die() { echo "bed.sh: $*" >&2; exit 1; }

ns_of() { readlink "/proc/$1/ns/net" 2>/dev/null; } # pid

# Every process in the network namespace of node I's holder (holder too).
node_procs() { # DIR I
    local want p
    want=$(ns_of "$(cat "$1/$2/pid")") || return 0
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/ns/net" 2>/dev/null)" = "$want" ] && echo "${p#/proc/}"
    done
    return 0
}

up() { # N
    local n=$1 dir i ncpu pfx bridge tree keep_pre keep_post
    [ "$n" -ge 1 ] 2>/dev/null && [ "$n" -le 4 ] || die "up: N must be 1 to 4, not '$n'"
    [ "$(id -u)" = 0 ] || die "up: root is needed (network, mount, UTS, IPC namespaces)"
    dir=$(mktemp -d "${BED_TMP:-/var/tmp}/superstep-bed.XXXXXX")
    # Link names: a prefix from the folder's unique suffix (IFNAMSIZ 16).
    pfx=sb$(printf '%s' "${dir##*.}" | tr -cd 'a-zA-Z0-9' | cut -c1-6)
    echo "$n" >"$dir/nodes"
    { echo "127.0.0.1 localhost"; for i in $(seq 1 "$n"); do echo "10.77.0.$i node$i"; done; } >"$dir/hosts"
    ncpu=$(nproc)
    # Whatever fails on the way, nothing is left.
    made_dir=$dir # (the trap runs where up's variables are gone)
    trap '[ -n "${made:-}" ] || down "$made_dir" >/dev/null 2>&1' EXIT
    start_holder "$dir/bridge.pid" "$dir" --net -- sh -c 'ip link set lo up'
    bridge=$(cat "$dir/bridge.pid")
    nsenter -t "$bridge" -n ip link add "${pfx}br" type bridge
    nsenter -t "$bridge" -n ip link set "${pfx}br" up
    # The tree the tests run from is the cluster's shared file system: one
    # under /tmp (a CI clone) stays visible through the node's own /tmp,
    # bound at its path (and 'left' does not count it).
    tree=$(pwd -P) keep_pre= keep_post=
    case $tree in /tmp/?*)
        echo "tmp/$(printf '%s' "${tree#/tmp/}" | cut -d/ -f1)" >"$dir/keep" ;;
    esac
    for i in $(seq 1 "$n"); do
        mkdir "$dir/$i"
        echo $(( (i - 1) % ncpu )) >"$dir/$i/cpus"
        if [ -f "$dir/keep" ]; then
            keep_pre="mkdir '$dir/$i/tree' && mount --bind '$tree' '$dir/$i/tree' &&"
            keep_post="mkdir -p '$tree' && mount --move '$dir/$i/tree' '$tree' &&"
        fi
        start_holder "$dir/$i/pid" "$dir" --net --uts --mount --ipc --propagation private -- \
            taskset -c "$(cat "$dir/$i/cpus")" sh -c "
                hostname node$i &&
                mount -t tmpfs -o mode=1777 tmpfs /dev/shm &&
                $keep_pre
                mount -t tmpfs -o mode=1777 tmpfs /tmp &&
                $keep_post
                mount --bind '$dir/hosts' /etc/hosts &&
                ip link set lo up"
        nsenter -t "$bridge" -n ip link add "${pfx}v$i" type veth peer name eth0 netns "$(cat "$dir/$i/pid")"
        nsenter -t "$bridge" -n ip link set "${pfx}v$i" master "${pfx}br" up
        nsenter -t "$(cat "$dir/$i/pid")" -n sh -c "ip addr add 10.77.0.$i/24 dev eth0 && ip link set eth0 up"
    done
    made=1
    echo "$dir"
}

# A holder: unshare's namespaces around a setup command, then sleep; its pid
# into FILE once the setup is done (a fifo says so: no polling).
start_holder() { # pid-file dir unshare-options... -- setup...
    local file=$1 dir=$2 opts=() fifo pid
    shift 2
    while [ "$1" != -- ]; do opts+=("$1"); shift; done
    shift
    fifo=$dir/ready.$$
    mkfifo "$fifo"
    # setsid: the bed outlives this script; sleep holds the namespaces.
    # The fifo is open from the start: a failed unshare or setup closes it.
    setsid unshare "${opts[@]}" sh -c '"$@" && echo $$ >&3 && exec sleep infinity 3>&-' \
        holder "$@" </dev/null >/dev/null 2>&1 3>"$fifo" &
    read -r pid <"$fifo" || die "a node's setup failed"
    rm -f "$fifo"
    echo "$pid" >"$file"
}

node() { # DIR I CMD...
    local dir=$1 i=$2 pid keep=() v
    shift 2
    pid=$(cat "$dir/$i/pid" 2>/dev/null) || die "node: no node $i in $dir"
    for v in ${BED_ENV:-}; do [ -n "${!v+x}" ] && keep+=("$v=${!v}"); done
    exec nsenter -t "$pid" -n -u -m -i --wd="$PWD" taskset -c "$(cat "$dir/$i/cpus")" \
        env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME="${HOME:-/root}" \
        USER=root LOGNAME=root SUPERSTEP_BED="$dir" "${keep[@]}" "$@"
}

pids() { # DIR I
    local holder p
    holder=$(cat "$1/$2/pid")
    for p in $(node_procs "$1" "$2"); do [ "$p" = "$holder" ] || echo "$p"; done
}

left() { # DIR
    local dir=$1 i p files bad=0
    for i in $(seq 1 "$(cat "$dir/nodes")"); do
        for p in $(pids "$dir" "$i"); do
            echo "node$i: process $p left: $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null)"
            bad=1
        done
        files=$(nsenter -t "$(cat "$dir/$i/pid")" -m sh -c 'cd / && find dev/shm tmp -mindepth 1 -maxdepth 1' |
            { grep -vxF "$(cat "$dir/keep" 2>/dev/null || echo /)" || true; })
        [ -z "$files" ] || { echo "node$i: left in /dev/shm or /tmp: $(echo $files)"; bad=1; }
    done
    return $bad
}

# Kill every process of every node (the holders last in the same sweep: a
# process entering a node meanwhile finds no namespace).  The namespaces,
# and with them the links, addresses and mounts, go with their last process.
down() { # DIR
    local dir=$1 i p all=()
    [ -f "$dir/nodes" ] || die "down: $dir is no bed"
    for i in $(seq 1 "$(cat "$dir/nodes")"); do
        [ -f "$dir/$i/pid" ] && all+=($(node_procs "$dir" "$i"))
    done
    [ -f "$dir/bridge.pid" ] && all+=($(cat "$dir/bridge.pid"))
    [ ${#all[@]} -eq 0 ] || kill -KILL "${all[@]}" 2>/dev/null || true
    # SIGKILL ends them at once; wait until the kernel has (a zombie holds
    # no namespace, so those count as gone).
    for p in "${all[@]}"; do
        while [ -e "/proc/$p" ] && ! grep -q '^State:.*Z' "/proc/$p/status" 2>/dev/null; do
            sleep 0.01
        done
    done
    rm -rf "$dir"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
up) [ $# = 1 ] || die "usage: bed.sh up N"; up "$1" ;;
node) [ $# -ge 3 ] || die "usage: bed.sh node DIR I CMD..."; node "$@" ;;
pids) [ $# = 2 ] || die "usage: bed.sh pids DIR I"; pids "$@" ;;
left) [ $# = 1 ] || die "usage: bed.sh left DIR"; left "$@" ;;
down) [ $# = 1 ] || die "usage: bed.sh down DIR"; down "$@" ;;
*) sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
esac
