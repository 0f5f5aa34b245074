#!/usr/bin/env bash
# Wall time of a full diff (static + timing + ncu counters) of two simple kernels with a
# warm build cache. Target (issue 4): under 10 s on an H100/H200.
#   bench/full_wall.sh [BUILD_DIR] > bench/full_wall.txt
set -eu
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
export XDG_CACHE_HOME=$(mktemp -d) NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin"
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
echo "# bench/full_wall.sh  $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
echo "# kernels: $A vs $B, default settings (fast metric set, 1 profiled launch per side)"
"$BUILD/kerndiff" --no-run "$A" "$B" >/dev/null   # fills the build cache
for run in 1 2 3; do
    start=$(date +%s.%N)
    KERNDIFF_TRACE=1 "$BUILD/kerndiff" --json="$XDG_CACHE_HOME/r.json" "$A" "$B" >/dev/null 2>"$XDG_CACHE_HOME/trace"
    end=$(date +%s.%N)
    python3 - "$XDG_CACHE_HOME/r.json" "$start" "$end" "$run" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
wall = float(sys.argv[3]) - float(sys.argv[2])
counters = "counters present" if d.get("counters") else "NO counters: " + str(d["notes"].get("counters"))
print(f"run {sys.argv[4]}: wall {wall:.2f} s; {d['runtime']['headline']}; {counters}")
PY
done
echo "# stages of the last run (KERNDIFF_TRACE):"
sed 's/^/#   /' "$XDG_CACHE_HOME/trace"
