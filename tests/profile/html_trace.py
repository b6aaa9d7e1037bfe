# html_trace.py OUT P STEP_US... - write a Superstep trace (the format of
# src/profile/trace.c, as bspprof reads it) of P processors whose
# supersteps last the given microseconds (the last one closed by bsp_end):
# processor s starts 100 * (s + 1) us after bsp_begin's call, works 60 % of
# each superstep (less for higher s), waits, and communicates 10 %; each
# superstep moves 8 * (k + 1) bytes.  For tests/profile/html.sh: runs far
# longer (seconds) or with far more supersteps than a test can afford.
import json, sys

out, p, steps = sys.argv[1], int(sys.argv[2]), [float(x) for x in sys.argv[3:]]
ev = [{"name": "thread_name", "ph": "M", "pid": 1, "tid": s + 1, "args": {"name": "processor %d" % s}} for s in range(p)]
ends = [100.0 * (s + 1) for s in range(p)]
for k, dur in enumerate(steps):
    last = k == len(steps) - 1
    barrier = max(ends) + dur * 0.9
    for s in range(p):
        start = ends[s]
        work = (barrier - start) * (0.6 - 0.1 * s / p) if not last else dur
        end = start + work if last else barrier + dur * 0.1
        args = {"step": k, "h_bytes": 8 * (k + 1), "h_records": k + 1, "last": last}
        ev.append({"name": "superstep %d" % k, "cat": "bsp", "ph": "X", "pid": 1, "tid": s + 1, "ts": start,
                   "dur": end - start, "args": args})
        ev.append({"name": "compute", "cat": "bsp", "ph": "X", "pid": 1, "tid": s + 1, "ts": start, "dur": work,
                   "args": {"step": k}})
        if not last:
            ev.append({"name": "sync wait", "cat": "bsp", "ph": "X", "pid": 1, "tid": s + 1, "ts": start + work,
                       "dur": barrier - start - work, "args": {"step": k}})
            ev.append({"name": "communication", "cat": "bsp", "ph": "X", "pid": 1, "tid": s + 1, "ts": barrier,
                       "dur": end - barrier, "args": {"step": k, "bytes_out": 8 * (k + 1), "bytes_in": 8 * (k + 1)}})
        ends[s] = end
od = {"nprocs": p, "supersteps": len(steps), "syncs": len(steps) - 1, "complete": True, "missing": [], "stopped": []}
json.dump({"displayTimeUnit": "ns", "otherData": od, "traceEvents": ev}, open(out, "w"))
