#!/usr/bin/env bash
# Wall time of a timing-only diff of two simple kernels with a warm build cache, and the
# spread (CV) the harness achieved. Target (issue 3): under 5 s on an H100/H200.
#   bench/timing_wall.sh [BUILD_DIR] > bench/timing_wall.txt
set -eu
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
export XDG_CACHE_HOME=$(mktemp -d) NO_COLOR=1
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
echo "# bench/timing_wall.sh  $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
echo "# kernels: $A vs $B (timing only: --no-ncu; --target 1%, --max-time 10)"
"$BUILD/kerndiff" --no-run "$A" "$B" >/dev/null   # fills the build cache
for run in 1 2 3; do
    start=$(date +%s.%N)
    "$BUILD/kerndiff" --no-ncu --json="$XDG_CACHE_HOME/r.json" "$A" "$B" >/dev/null
    end=$(date +%s.%N)
    python3 - "$XDG_CACHE_HOME/r.json" "$start" "$end" "$run" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); r = d["runtime"]
wall = float(sys.argv[3]) - float(sys.argv[2])
s = [side["summary_ns"] for side in r["sides"]]
print(f"run {sys.argv[4]}: wall {wall:.2f} s (measuring {r['stop']['seconds']:.2f} s, {r['stop']['rounds']} rounds, "
      f"{s[0]['n']}+{s[1]['n']} samples) CV v1 {100*s[0]['cv']:.2f}% v2 {100*s[1]['cv']:.2f}%; {r['headline']}")
PY
done
