# check_failed.py TRACE P STEPS [--stopped S] [--only R] - the trace of a
# failed job (tests/profile/fail_at.c): marked incomplete, holding exactly
# supersteps 0..STEPS-1 on every processor (with --only R: on processor R
# alone, the others listed as missing, as on mpi), each superstep's slices
# tiling it; processors listed as stopped have their last superstep marked
# so and no other; with --stopped S, processor S is among them.
import json, sys

args = sys.argv[1:]
path, p, steps = args[0], int(args[1]), int(args[2])
opts = dict(zip(args[3::2], args[4::2]))
must_stop = int(opts["--stopped"]) if "--stopped" in opts else None
only = int(opts["--only"]) if "--only" in opts else None
t = json.load(open(path))
od = t["otherData"]
bad = []


def check(cond, msg):
    if not cond:
        bad.append(msg)


present = [only] if only is not None else list(range(p))
check(od["complete"] is False, "not marked incomplete: complete=%s" % od["complete"])
check(od["nprocs"] == p, "nprocs %s" % od["nprocs"])
check(od["supersteps"] == steps, "supersteps %s, want %d" % (od["supersteps"], steps))
check(od["missing"] == [q for q in range(p) if q not in present], "missing %s" % od["missing"])
stopped = od["stopped"]
check(set(stopped) <= set(present), "stopped %s" % stopped)
if must_stop is not None:
    check(must_stop in stopped, "processor %d not listed as stopped: %s" % (must_stop, stopped))
xs = [e for e in t["traceEvents"] if e.get("ph") == "X"]
for s in present:
    mine = [e for e in xs if e["tid"] == s + 1]
    tops = [e for e in mine if e["name"].startswith("superstep ")]
    check([e["args"]["step"] for e in tops] == list(range(steps)),
          "processor %d: supersteps %s, want 0..%d" % (s, [e["args"]["step"] for e in tops], steps - 1))
    for e in tops:
        k = e["args"]["step"]
        marked = e["args"].get("stopped", False)
        check(marked == (s in stopped and k == steps - 1), "processor %d superstep %d: stopped=%s" % (s, k, marked))
        t0 = e["ts"]
        for c in (c for c in mine if c is not e and c["args"]["step"] == k):
            check(abs(c["ts"] - t0) < 1e-6, "processor %d superstep %d: %s does not follow on" % (s, k, c["name"]))
            t0 = c["ts"] + c["dur"]
        check(abs(t0 - e["ts"] - e["dur"]) < 1e-6, "processor %d superstep %d: slices do not fill it" % (s, k))
check(not any(e["tid"] - 1 not in present for e in xs), "slices of a missing processor")
if bad:
    print("check_failed: " + "\n  ".join(bad[:20]))
    sys.exit(1)
print("check_failed: %s: supersteps 0..%d, stopped %s" % (path, steps - 1, stopped))
