#!/usr/bin/env bash
# Issue 31's speed must-show: the full diff (timing + counters, in-process CUPTI counters by
# default) of examples/vector_loads, warm (build cache kept) and cold (an empty build cache),
# alternating, 3 of each, and a warm run whose counter pass starts its own harness
# (KERNDIFF_COUNTERS_FRESH=1: the design before the timing pass handed its child over), with
# where the time went (KERNDIFF_TRACE stages: build and static
# analysis, timing pass, counter pass with the harness's own setup / passes / evaluation, the
# report after the last stage). Target: warm <= 2.5 s, cold <= 5 s on an H100/H200.
#   bench/full_diff.sh BUILD_DIR > bench/full_diff.txt   (copies it to $OUT when set)
set -u
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
export NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
LOG="${OUT:+$OUT/full_diff.txt}"
LOG="${LOG:-$WORK/full_diff.txt}"
say() { echo "$*" | tee -a "$LOG"; }
say "# bench/full_diff.sh  $(date -u '+%Y-%m-%d %H:%M UTC'), kerndiff $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p')"
say "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
say "# L2 preparation ${KERNDIFF_COUNTER_PREP:-default}, CUPTI replay ${KERNDIFF_CUPTI_REPLAY:-default (kernel with cache control, else user)}"
say "# command: kerndiff --json=R.json $A $B   (defaults: --counters from the harness, --max-time 10)"
XDG_CACHE_HOME="$WORK/warm" "$BUILD/kerndiff" --no-run "$A" "$B" >/dev/null 2>&1   # the warm cache's builds
for run in 1 2 3; do
    for kind in warm fresh cold; do
        cache="$WORK/warm" fresh=0
        [ $kind = cold ] && cache="$WORK/cold$run"
        [ $kind = fresh ] && fresh=1
        start=$(date +%s%N)
        KERNDIFF_COUNTERS_FRESH=$fresh XDG_CACHE_HOME="$cache" KERNDIFF_TRACE=1 "$BUILD/kerndiff" --json="$WORK/r.json" "$A" "$B" >/dev/null 2>"$WORK/trace"
        rc=$?
        end=$(date +%s%N)
        python3 - "$WORK/r.json" "$WORK/trace" "$start" "$end" "$kind $run" "$rc" <<'PY' | tee -a "$LOG"
import json, re, sys
wall = (int(sys.argv[4]) - int(sys.argv[3])) / 1e9
try:
    d = json.load(open(sys.argv[1]))
    counters = "counters yes" if d.get("counters") else "counters NO"
except Exception:
    counters = "no JSON"
stages = []
for line in open(sys.argv[2]):
    m = re.match(r"\[kerndiff\s+([0-9.]+)s\] (.*)", line.strip())
    if m:
        stages.append((float(m.group(1)), m.group(2)))
def at(pattern, last=False):
    hits = [t for t, s in stages if re.search(pattern, s)]
    return (hits[-1] if last else hits[0]) if hits else None
t_timing, t_measured = at(r"^timing pass"), at(r"^measured")
t_counters, t_end = at(r"^counters pass"), (stages[-1][0] if stages else None)
parts = []
if t_timing is not None:
    parts.append(f"build+static {t_timing:.2f}")
if t_timing is not None and t_counters is not None:
    parts.append(f"timing {t_counters - t_timing:.2f}")
if t_counters is not None and t_end is not None:
    parts.append(f"counters {t_end - t_counters:.2f}")
if t_end is not None:
    parts.append(f"report+exit {wall - t_end:.2f}")
inner = [s.split("in the harness: ")[1] for t, s in stages if "in the harness: " in s]
print(f"{sys.argv[5]:7} wall {wall:5.2f} s  exit {sys.argv[6]}  {counters}  | " + ", ".join(parts) +
      ("  | harness: " + " / ".join(inner) if inner else ""))
PY
        [ "$kind $run" = "warm 3" ] && cp "$WORK/trace" "$WORK/trace.warm"
        [ "$kind $run" = "cold 3" ] && cp "$WORK/trace" "$WORK/trace.cold"
    done
done
for kind in warm cold; do
    say "# stages of the last $kind run (KERNDIFF_TRACE):"
    sed 's/^/#   /' "$WORK/trace.$kind" | tee -a "$LOG"
done

# The medians of each kind, and the hand-over's ratio (warm against fresh, same run).
python3 - "$LOG" <<'PY' | tee -a "$LOG"
import re, statistics, sys
walls = {}
for line in open(sys.argv[1]):
    m = re.match(r"(warm|fresh|cold) \d+\s+wall\s+([0-9.]+) s", line)
    if m:
        walls.setdefault(m.group(1), []).append(float(m.group(2)))
med = {k: statistics.median(v) for k, v in walls.items()}
print("# medians: " + ", ".join(f"{k} {med[k]:.2f} s" for k in ("warm", "fresh", "cold") if k in med) +
      (f"; warm/fresh {med['warm'] / med['fresh']:.2f} (the counter pass in the timing's harness against its own)"
       if "warm" in med and "fresh" in med else ""))
PY
