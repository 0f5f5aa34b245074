#!/usr/bin/env python3
"""Checks a kerndiff --trace file the way a trace viewer reads it (Chrome trace JSON):
two processes (v1, v2), a named thread per warp, complete slices ("X") with a start and a
positive duration on known threads. With KERNDIFF_TRACE_PROCESSOR=PATH (Perfetto's
trace_processor_shell, which PyPI's `perfetto` downloads at first use and CI cannot reach),
the file is also loaded there and its slices counted by SQL.
    check_trace.py TRACE.json REGION=COUNT...   (slices per region name, both sides together)"""
import json, os, subprocess, sys
from collections import Counter

trace = json.load(open(sys.argv[1]))
events = trace["traceEvents"]
procs = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
threads = {(e["pid"], e["tid"]) for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
slices = [e for e in events if e["ph"] == "X"]
assert sorted(p.split(":")[0] for p in procs.values()) == ["v1", "v2"], procs
assert slices, "no slices"
for s in slices:
    assert (s["pid"], s["tid"]) in threads, f"slice on an unnamed thread: {s}"
    assert s["dur"] > 0 and s["ts"] >= 0, s
counts = Counter(s["name"] for s in slices)
for want in sys.argv[2:]:
    name, n = want.split("=")
    assert counts[name] == int(n), f"{name}: {counts[name]} slices, wanted {n}"
print(f"trace ok: {len(slices)} slices on {len(threads)} warps of {len(procs)} processes: {dict(counts)}")
tp = os.environ.get("KERNDIFF_TRACE_PROCESSOR")
if tp:
    from perfetto.trace_processor import TraceProcessor, TraceProcessorConfig
    with TraceProcessor(trace=sys.argv[1], config=TraceProcessorConfig(bin_path=tp)) as proc:
        rows = {r.name: r.n for r in proc.query("select name, count(*) as n from slice group by name")}
    assert rows == dict(counts), (rows, counts)
    print(f"trace processor: {rows}")
else:
    print("trace processor not run: set KERNDIFF_TRACE_PROCESSOR to a trace_processor_shell")
