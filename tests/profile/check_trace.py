# check_trace.py TRACE P - the trace of tests/profile/traffic.c on P
# processors: its structure, supersteps, h-relations and slices (used by
# trace.sh on shm and mpi_trace.sh on mpi, which must give the same).
import json, sys
path, p = sys.argv[1], int(sys.argv[2])
t = json.load(open(path))
ev = t["traceEvents"]
bad = []
def check(cond, msg):
    if not cond:
        bad.append(msg)
od = t.get("otherData", {})
check(od.get("nprocs") == p, "otherData.nprocs %s" % od.get("nprocs"))
check(od.get("supersteps") == 6 and od.get("syncs") == 5, "otherData supersteps/syncs %s" % od)
check(od.get("truncated") == 0 and od.get("unknown_records") == 0, "truncated/unknown %s" % od)
names = {e["tid"]: e["args"]["name"] for e in ev if e.get("ph") == "M" and e.get("name") == "thread_name"}
check(sorted(names) == list(range(1, p + 1)), "thread tids %s" % sorted(names))
check(all(names[s + 1] == "processor %d" % s for s in range(p) if s + 1 in names), "thread names %s" % names)
xs = [e for e in ev if e.get("ph") == "X"]
check(all(e["pid"] == 1 and isinstance(e["ts"], (int, float)) and e["dur"] >= 0 for e in xs), "bad X event")
check(sorted({e["tid"] for e in xs}) == list(range(1, p + 1)), "tracks %s" % sorted({e["tid"] for e in xs}))
# h per superstep, in bytes and records: see traffic.c
want_h = [0, 8 * p, 40 * p, 24, 1000, 0]
want_rec = [0, p, 2 * p, 1, None, 0]
for s in range(p):
    steps = [e for e in xs if e["tid"] == s + 1 and e["name"].startswith("superstep")]
    check([e["args"]["step"] for e in steps] == list(range(6)), "processor %d supersteps %s" % (s, [e["args"]["step"] for e in steps]))
    check([e["name"] for e in steps] == ["superstep %d" % k for k in range(6)], "superstep names")
    check(steps[-1]["args"]["last"] is True and not any(e["args"]["last"] for e in steps[:-1]), "last flag")
    for e in steps:
        k = e["args"]["step"]
        check(e["args"]["h_bytes"] == want_h[k], "processor %d superstep %d: h_bytes %s, want %s" % (s, k, e["args"]["h_bytes"], want_h[k]))
        if want_rec[k] is not None:
            check(e["args"]["h_records"] == want_rec[k], "processor %d superstep %d: h_records %s, want %s" % (s, k, e["args"]["h_records"], want_rec[k]))
        kids = [c for c in xs if c["tid"] == s + 1 and c["args"]["step"] == k and c is not e]
        kinds = [c["name"] for c in kids]
        if k < 5:
            want = ["compute", "sync wait", "profiler"] + (["gets/direct", "sync wait 2", "profiler"] if k == 3 or (k == 4 and "gets/direct" in kinds) else []) + ["communication"]
            check(kinds == want, "processor %d superstep %d slices %s" % (s, k, kinds))
        else:
            check(kinds == ["compute"], "processor %d last superstep slices %s" % (s, kinds))
        # children tile the superstep exactly (times are ns printed as us.3f)
        t0 = e["ts"]
        for c in kids:
            check(abs(c["ts"] - t0) < 1e-6, "processor %d superstep %d: %s starts at %s, expected %s" % (s, k, c["name"], c["ts"], t0))
            t0 = c["ts"] + c["dur"]
        check(abs(t0 - (e["ts"] + e["dur"])) < 1e-6, "processor %d superstep %d: slices end at %s, superstep at %s" % (s, k, t0, e["ts"] + e["dur"]))
    comm = {c["args"]["step"]: c["args"] for c in xs if c["tid"] == s + 1 and c["name"] == "communication"}
    left = (s - 1) % p
    # superstep 1: s puts s+1 words to s+1 and gets left+1 from its left
    check(comm[1]["bytes_out"] == 8 * (s + 1) and comm[1]["records_out"] == s + 1, "processor %d step 1 out %s" % (s, comm[1]))
    check(comm[1]["bytes_in"] == 8 * (left + 1) and comm[1]["records_in"] == left + 1, "processor %d step 1 in %s" % (s, comm[1]))
    # superstep 2: two 16-byte messages with 4-byte tags to 0
    check(comm[2]["bytes_out"] == 40 and comm[2]["records_out"] == 2, "processor %d step 2 out %s" % (s, comm[2]))
    check(comm[2]["bytes_in"] == (40 * p if s == 0 else 0), "processor %d step 2 in %s" % (s, comm[2]))
    # superstep 3: a 24-byte get from the right neighbour: the owner sends
    check(comm[3]["bytes_in"] == 24 and comm[3]["bytes_out"] == 24, "processor %d step 3 %s" % (s, comm[3]))
    # superstep 4: 1000 bytes hpput, directly or through the streams
    c4 = comm[4]
    check(c4["bytes_out"] + c4["direct_bytes_out"] == 1000 and c4["bytes_in"] + c4["direct_bytes_in"] == 1000, "processor %d step 4 %s" % (s, c4))
    check(c4["stream_bytes_in"] >= c4["bytes_in"], "stream bytes below payload")
if bad:
    print("\n".join(bad[:20]))
    sys.exit(1)
