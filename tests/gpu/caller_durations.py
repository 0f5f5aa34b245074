#!/usr/bin/env python3
"""The GPU's own durations of one kernel's launches in a caller's process (issue 45's must-show:
a replayed median agrees within 2% with the kernel's duration in the caller's own process).

usage: caller_durations.py KERNEL OUT.json -- PYTHON [-m MODULE | SCRIPT] ARGS...

Runs the caller (the program `kerndiff --from` ran: `python3 -m pytest -x -q tests/x.py`,
`python3 bench.py`, ...) in THIS process, under torch.profiler's CUDA activity (CUPTI's kernel
records: the GPU's start and end of each kernel, nothing of the host), and writes to OUT.json
the launches of KERNEL in launch order: {"kernel", "program", "exit", "launches": [{"name",
"grid", "block", "ns"}]}. A launch is KERNEL's when its name is KERNEL (Triton) or KERNEL's
demangled signature (`void KERNEL<...>(...)`, `ns::KERNEL(...)`).

Only Python callers: a caller that is a compiled program has no torch.profiler to run it
under (exit 2). The first PYTHON word is taken as the interpreter the caller names and is
replaced by this one, so run this script with the caller's Python.
"""
import json
import os
import re
import runpy
import sys
import tempfile


def usage(why):
    print("caller_durations.py: " + why, file=sys.stderr)
    print("usage: caller_durations.py KERNEL OUT.json -- PYTHON [-m MODULE | SCRIPT] ARGS...", file=sys.stderr)
    sys.exit(2)


def runner(program):
    """A function that runs the caller as `python ...` would, and its sys.argv."""
    if not program or not os.path.basename(program[0]).startswith("python"):
        usage("the caller is not a Python program: %r" % (program[:1],))
    rest = program[1:]
    if len(rest) >= 2 and rest[0] == "-m":
        module, argv = rest[1], [rest[1]] + rest[2:]
        return (lambda: runpy.run_module(module, run_name="__main__", alter_sys=True)), argv
    if rest and not rest[0].startswith("-"):
        script, argv = rest[0], rest[:]
        return (lambda: runpy.run_path(script, run_name="__main__")), argv
    usage("no script or -m MODULE after the interpreter: %r" % (program,))


def is_kernel(name, kernel):
    if name == kernel:
        return True
    # a demangled C++ signature: the name, qualified or not, before its template or parameters
    return re.search(r"(^|[\s:])" + re.escape(kernel) + r"(<|\()", name) is not None


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--":
        usage("expected KERNEL OUT.json -- PROGRAM...")
    kernel, out, program = sys.argv[1], sys.argv[2], sys.argv[4:]
    run, argv = runner(program)
    import torch
    from torch.profiler import ProfilerActivity, profile

    status = 0
    sys.argv = argv
    sys.path.insert(0, os.getcwd())
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        try:
            run()
        except SystemExit as e:  # pytest and scripts end so; their status is kept
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        torch.cuda.synchronize()
    fd, trace = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    try:
        prof.export_chrome_trace(trace)
        with open(trace) as f:
            events = json.load(f).get("traceEvents", [])
    finally:
        os.unlink(trace)
    launches = []
    for e in events:
        if e.get("cat") != "kernel" or not is_kernel(e.get("name", ""), kernel):
            continue
        args = e.get("args") or {}
        launches.append({"name": e["name"], "ts": e.get("ts", 0), "grid": args.get("grid"),
                         "block": args.get("block"), "ns": round(float(e.get("dur", 0)) * 1000.0, 1)})
    launches.sort(key=lambda l: l["ts"])
    for l in launches:
        del l["ts"]
    with open(out, "w") as f:
        json.dump({"kernel": kernel, "program": program, "exit": status, "launches": launches}, f, indent=1)
    print("caller_durations.py: %d launches of %s (the caller exited %s)" % (len(launches), kernel, status),
          file=sys.stderr)


if __name__ == "__main__":
    main()
