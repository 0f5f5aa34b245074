"""Why in-process counters and ncu disagree (issue 31): one kernel, the same launch, profiled by
Nsight Compute (--cache-control all and none) and by the harness's CUPTI range profiler under each
L2 preparation (KERNDIFF_COUNTER_PREP) and CUPTI's own kernel replay; each profiled 3 times, the
median kept. Prints one row per metric: every collector's value and its difference from
ncu --cache-control all (what kerndiff's ncu path runs). Writes the raw values as JSON.

usage: python3 counters_experiment.py RUN.json HARNESS NAME OUT.json
  RUN.json: a kerndiff --json run of the kernel (its side 0's launch and build are used)."""
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROLE_WORD = {"input buffer": "in", "output buffer": "out", "in-out buffer": "inout"}


def protocol(side, cubin, repeats):
    """The harness commands for a kerndiff side's launch (as tests/gpu/ncu_duration.py), then
    `once` REPEATS times (ncu profiles those launches)."""
    launch = side["launch"]
    lines = ["hello 2", f"load cubin {cubin} {side['entry']}"]
    for i, arg in enumerate(launch["args"]):
        if arg["role"] in ROLE_WORD:
            lines.append(f"arg {i} buffer {arg['dtype']} {arg['lanes']} {arg['count']} {ROLE_WORD[arg['role']]}")
        else:
            lines.append(f"arg {i} scalar {arg['dtype']} {arg['value']:.17g}")
    g, b = launch["grid"], launch["block"]
    lines += [f"geometry {g[0]} {g[1]} {g[2]} {b[0]} {b[1]} {b[2]} {launch['dynamic_smem']}", "seed 1", "setup"]
    return lines + ["once"] * repeats

REPEATS = 3
# The table's counters (src/ncu/metrics.c, fast set; launch facts left out: they agree) and
# diagnostics: reads/writes apart, L2 sectors by operation, active vs elapsed cycles, what ran.
TABLE = """gpu__time_duration.sum dram__bytes_read.sum dram__bytes_write.sum dram__bytes.sum.per_second
dram__throughput.avg.pct_of_peak_sustained_elapsed gpc__cycles_elapsed.avg.per_second
gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
l1tex__t_sector_hit_rate.pct l1tex__throughput.avg.pct_of_peak_sustained_elapsed lts__t_sector_hit_rate.pct
lts__throughput.avg.pct_of_peak_sustained_elapsed sm__inst_executed.avg.per_cycle_active
sm__throughput.avg.pct_of_peak_sustained_elapsed sm__warps_active.avg.pct_of_peak_sustained_active
smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio
smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio smsp__inst_executed.sum""".split()
DIAG = """sm__cycles_active.avg gpc__cycles_elapsed.max sm__warps_active.avg.per_cycle_active smsp__warps_launched.sum
sm__ctas_launched.sum lts__t_sectors_op_write.sum lts__t_sectors_op_read.sum lts__t_sectors_lookup_miss.sum
dram__cycles_elapsed.avg.per_second""".split()
METRICS = TABLE + DIAG
# The variants: EXPERIMENT_PREPS (comma-separated KERNDIFF_COUNTER_PREP values), EXPERIMENT_REPLAYS
# (KERNDIFF_CUPTI_REPLAY values, each with the default preparation: kernel = CUPTI's kernel
# replay, user-range = the launch in a range of its own; empty: none).
PREPS = os.environ.get("EXPERIMENT_PREPS", "touch,memset,read,discard,clean,none").split(",")
REPLAYS = [r for r in os.environ.get("EXPERIMENT_REPLAYS", "kernel").split(",") if r]
LABEL = {"kernel": "kreplay", "user-range": "urange"}


def agrees(m, x, y):
    """issue 31's bar: 1 point for a percentage, else 2%; ncu prints some metrics with 2
    decimals (0.09), so a difference within that rounding (0.005) agrees too."""
    if "pct" in m:
        return abs(x - y) <= 1.0
    return abs(x - y) <= max(0.02 * abs(y), 0.005 if abs(y) < 1000 and y == round(y, 2) else 0.0)


def harness_session(harness, commands, env):
    """Runs the commands one at a time; the replies in order (stops at the first err)."""
    p = subprocess.Popen([harness], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=env)
    replies = []
    for c in commands:
        p.stdin.write(c + "\n")
        p.stdin.flush()
        line = p.stdout.readline().strip()
        replies.append(line)
        if not line.startswith("ok"):
            break
    try:
        p.stdin.write("quit\n")
        p.stdin.flush()
    except BrokenPipeError:
        pass
    err = p.communicate(timeout=60)[1]
    return replies, err


def cupti(side, cubin, harness, prep, replay, metrics, prepared=False):
    """prepared: the configuration built by `prepare-counters` first (the Profiler Host API
    alone, no counter availability image), as the timing pass has it built."""
    env = dict(os.environ, KERNDIFF_COUNTER_PREP=prep)
    if replay:
        env["KERNDIFF_CUPTI_REPLAY"] = replay
    cmds = protocol(side, cubin, 0) + (["prepare-counters " + ",".join(metrics)] if prepared else [])
    cmds += ["counters " + ",".join(metrics)] * REPEATS
    timed = prep == "touch" and not replay and not prepared
    if timed:
        cmds += ["mode single", "warmup 200", "time 30"]
    replies, err = harness_session(harness, cmds, env)
    runs, times, note = [], [], ""
    for r in replies:
        if r.startswith("ok counters"):
            words = dict(w.split("=", 1) for w in r.split()[2:] if "=" in w)
            vals = [float(v) for v in words["r0"].split(",")]
            runs.append(dict(zip(metrics, vals)))
            note = f"passes={words.get('passes')} replay={words.get('replay')} ranges={words.get('ranges')}"
        elif r.startswith("ok time"):
            words = dict(w.split("=", 1) for w in r.split()[2:] if "=" in w)
            times = [float(t) for t in words["samples"].split(",")]
        elif r.startswith("err counters unknown"):
            return None, r.split()[3].split(","), ""
        elif r.startswith("err"):
            return None, None, r + " | " + err[-400:]
    if not runs:
        return None, None, "no counters: " + " / ".join(replies[-2:]) + " | " + err[-400:]
    med = {m: statistics.median(run[m] for run in runs) for m in metrics}
    if times:
        med["activity_duration_ns"] = statistics.median(times)
    return med, None, note


def ncu(side, cubin, harness, cache_control, metrics):
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "r")
        cmd = ["ncu", "--clock-control", "none", "--cache-control", cache_control, "--profile-from-start", "off",
               "--metrics", ",".join(metrics), "-o", report, harness]
        proto = "\n".join(protocol(side, cubin, REPEATS) + ["quit"]) + "\n"
        try:
            done = subprocess.run(cmd, input=proto, text=True, capture_output=True, timeout=200)
        except (OSError, subprocess.TimeoutExpired) as e:
            return None, f"ncu did not run: {e}"
        if done.returncode != 0 or "err " in done.stdout:
            return None, f"ncu failed ({done.returncode}): {done.stdout[-300:]} {done.stderr[-500:]}"
        raw = subprocess.run(["ncu", "-i", report + ".ncu-rep", "--csv", "--page", "raw", "--print-units", "base"],
                             text=True, capture_output=True, timeout=120).stdout
    rows = list(csv.reader(io.StringIO(raw)))
    head, data = rows[0], [r for r in rows[2:] if len(r) == len(rows[0])]
    out = {}
    for m in metrics:
        if m not in head:
            continue
        c = head.index(m)
        vals = []
        for r in data:
            try:
                vals.append(float(r[c].replace(",", "")))
            except ValueError:
                pass
        if vals:
            out[m] = statistics.median(vals)
    return out, f"{len(data)} launches"


def main():
    run = json.load(open(sys.argv[1]))
    harness, name, out_path = sys.argv[2], sys.argv[3], sys.argv[4]
    side = run["sides"][0]
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    cubin = os.path.join(cache, "kerndiff", "builds", side["build"]["key"], "kernel.cubin")
    metrics = list(METRICS)
    cols, notes = {}, {}
    variants = [(p, None, False) for p in PREPS] + [("touch", r, False) for r in REPLAYS]
    if os.environ.get("EXPERIMENT_PREPARED"):  # the timing pass's prepare-counters first
        variants.append(("touch", None, True))
    for prep, replay, prepared in variants:
        label = "prepared" if prepared else prep if not replay else LABEL.get(replay, replay)
        t0 = time.time()
        for _ in range(3):
            med, unknown, note = cupti(side, cubin, harness, prep, replay, metrics, prepared)
            if unknown:
                metrics = [m for m in metrics if m not in unknown]
                notes["unknown"] = ",".join(unknown)
                continue
            break
        cols["cupti_" + label] = med
        notes["cupti_" + label] = f"{note} ({time.time() - t0:.1f}s)"
    for cc in os.environ.get("EXPERIMENT_NCU", "all,none").split(","):  # ncu's --cache-control values
        t0 = time.time()
        res, note = ncu(side, cubin, harness, cc, metrics)
        cols["ncu_" + cc] = res
        notes["ncu_" + cc] = f"{note} ({time.time() - t0:.1f}s)"
    json.dump({"kernel": name, "metrics": metrics, "columns": cols, "notes": notes}, open(out_path, "w"), indent=1)
    order = ["ncu_all", "ncu_none"] + ["cupti_" + p for p in PREPS] + ["cupti_" + LABEL.get(r, r) for r in REPLAYS]
    order += ["cupti_prepared"] if os.environ.get("EXPERIMENT_PREPARED") else []
    print(f"== {name}")
    for k in order:
        print(f"   {k}: {notes.get(k)}")
    if "unknown" in notes:
        print(f"   unknown to CUPTI: {notes['unknown']}")
    ref = cols.get("ncu_all") or {}
    short = lambda m: m.replace("smsp__average_warps_issue_stalled_", "stall_").replace(".avg.pct_of_peak_sustained_", ".pct_")[:50]
    print(f"   {'metric':50} {'ncu_all':>11}" + "".join(f" {k.replace('cupti_', 'c_'):>9}" for k in order[1:]))
    for m in metrics + ["activity_duration_ns"]:
        y = ref.get(m)
        cells = []
        for k in order[1:]:
            x = (cols.get(k) or {}).get(m)
            if x is None:
                cells.append(f" {'-':>9}")
            elif y is None:
                cells.append(f" {x:9.4g}")
            elif "pct" in m:
                cells.append(f" {x - y:+8.2f}p")
            else:
                cells.append(f" {(100 * (x - y) / abs(y) if y else (0 if x == 0 else float('inf'))):+8.2f}%")
        print(f"   {short(m):50} {('-' if y is None else f'{y:11.5g}'):>11}" + "".join(cells))

    # One line per collector: how many of the table's counters disagree with ncu --cache-control all.
    for k in order[1:]:
        col = cols.get(k)
        if not col:
            continue
        bad = [m for m in TABLE if m in col and m in ref and not agrees(m, col[m], ref[m])]
        print(f"   fails {k} {len(bad)} {' '.join(b.split('.')[0] for b in bad)}")


if __name__ == "__main__":
    main()
