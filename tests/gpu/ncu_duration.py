"""Profile one side of a kerndiff run with Nsight Compute and print the median
gpu__time_duration of its launches, in ns.

The harness is driven through its line protocol in run-once mode (`once` launches inside
cuProfilerStart/Stop, so ncu profiles exactly those launches), with the launch that
kerndiff timed, taken from kerndiff's --json output.

usage: python3 ncu_duration.py RUN.json SIDE(0|1) HARNESS [REPEATS [CACHE-CONTROL]]
"""
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROLE_WORD = {"input buffer": "in", "output buffer": "out"}


def protocol(side, cubin, repeats):
    launch = side["launch"]
    lines = ["hello 1", f"load cubin {cubin} {side['entry']}"]
    for i, arg in enumerate(launch["args"]):
        if arg["role"] in ROLE_WORD:
            lines.append(f"arg {i} buffer {arg['dtype']} {arg['lanes']} {arg['count']} {ROLE_WORD[arg['role']]}")
        else:
            lines.append(f"arg {i} scalar {arg['dtype']} {arg['value']!r}")
    g, b = launch["grid"], launch["block"]
    lines += [f"geometry {g[0]} {g[1]} {g[2]} {b[0]} {b[1]} {b[2]} {launch['dynamic_smem']}", "seed 1", "setup"]
    lines += ["once"] * repeats + ["quit"]
    return "\n".join(lines) + "\n"


def main():
    run = json.load(open(sys.argv[1]))
    side = run["sides"][int(sys.argv[2])]
    harness = sys.argv[3]
    repeats = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    cache_control = sys.argv[5] if len(sys.argv) > 5 else "all"
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    cubin = os.path.join(cache, "kerndiff", "builds", side["build"]["key"], "kernel.cubin")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r")
        cmd = ["ncu", "--clock-control", "none", "--cache-control", cache_control, "--profile-from-start", "off",
               "--metrics", "gpu__time_duration.sum", "-o", report, harness]
        done = subprocess.run(cmd, input=protocol(side, cubin, repeats), text=True, capture_output=True, timeout=300)
        if done.returncode != 0 or "err " in done.stdout:
            sys.exit(f"ncu run failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        raw = subprocess.run(["ncu", "-i", report + ".ncu-rep", "--csv", "--page", "raw"], text=True,
                             capture_output=True, timeout=120).stdout
    rows = list(csv.reader(io.StringIO(raw)))
    col = rows[0].index("gpu__time_duration.sum")
    unit = rows[1][col]
    scale = {"ns": 1, "nsecond": 1, "usecond": 1e3, "us": 1e3, "msecond": 1e6, "ms": 1e6}.get(unit, 1)
    durations = [float(r[col].replace(",", "")) * scale for r in rows[2:] if r[col]]
    if not durations:
        sys.exit("ncu returned no durations:\n" + raw[:2000])
    print(f"{statistics.median(durations):.1f} {len(durations)} {unit}")


if __name__ == "__main__":
    main()
