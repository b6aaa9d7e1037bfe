# check_failed.py TRACE P STEPS [--stopped S] [--only R] [--who W] [--line L]
# - the trace of a failed job (tests/profile/fail_at.c): marked incomplete,
# holding exactly supersteps 0..STEPS-1 on every processor (with --only R:
# on processor R alone, the others listed as missing, as on mpi), each
# superstep's slices tiling it; the last one is the superstep the failure
# came in, marked failed on every processor and named in otherData's
# failure; processors listed as stopped have the superstep before it
# marked so and no other; with --stopped S, processor S is among them;
# with --who W, processor W computed until the failure (it never came to
# bsp_sync there); with --line L, otherData's failure line is L.
import json, sys

args = sys.argv[1:]
path, p, steps = args[0], int(args[1]), int(args[2])
opts = dict(zip(args[3::2], args[4::2]))
must_stop = int(opts["--stopped"]) if "--stopped" in opts else None
only = int(opts["--only"]) if "--only" in opts else None
who = int(opts["--who"]) if "--who" in opts else None
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
failure = od.get("failure") or {}
check(failure.get("step") == steps - 1, "failure %s: not in superstep %d" % (failure, steps - 1))
if "--line" in opts:
    check(failure.get("line") == opts["--line"], "failure line %r, want %r" % (failure.get("line"), opts["--line"]))
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
        check(marked == (s in stopped and k == steps - 2), "processor %d superstep %d: stopped=%s" % (s, k, marked))
        failed = e["args"].get("failed", False)
        check(failed == (k == steps - 1), "processor %d superstep %d: failed=%s" % (s, k, failed))
        t0 = e["ts"]
        for c in (c for c in mine if c is not e and c["args"]["step"] == k):
            check(abs(c["ts"] - t0) < 1e-6, "processor %d superstep %d: %s does not follow on" % (s, k, c["name"]))
            t0 = c["ts"] + c["dur"]
        check(abs(t0 - e["ts"] - e["dur"]) < 1e-6, "processor %d superstep %d: slices do not fill it" % (s, k))
check(not any(e["tid"] - 1 not in present for e in xs), "slices of a missing processor")
if who is not None and who in present:
    last = [e["name"] for e in xs if e["tid"] == who + 1 and e["args"]["step"] == steps - 1]
    check(last == ["superstep %d" % (steps - 1), "compute"],
          "processor %d in the failing superstep: %s, not its compute alone" % (who, last))
if bad:
    print("check_failed: " + "\n  ".join(bad[:20]))
    sys.exit(1)
print("check_failed: %s: supersteps 0..%d, stopped %s" % (path, steps - 1, stopped))
