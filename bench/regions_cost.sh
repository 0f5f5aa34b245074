#!/usr/bin/env bash
# The cost of region records (issue 12), on a GPU:
#   bench/regions_cost.sh [BUILD_DIR] > bench/regions_cost.txt
# 1. cycles per record: an FMA chain with a region around every 16 dependent steps, plain
#    and instrumented (each timed by the harness: L2 flushed, median of 20 launches);
#    extra cycles per record = (instrumented - plain) x SM clock / records per warp.
# 2. the overhead on the tiled matmul of examples/regions (2 regions per tile iteration).
set -u
BUILD=$(realpath "${1:-build}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-rcost.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1
echo "# region record cost, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>&1)"
for iters in 1024 4096; do
    "$BUILD/kerndiff" --no-ncu --regions --arg iters=$iters tests/gpu/kernels/regions_loop.cu tests/gpu/kernels/regions_loop.cu >"$WORK/loop.txt" 2>&1
    python3 - "$WORK/loop.txt" "$iters" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
iters = int(sys.argv[2])
plain = float(re.search(r"^  median +([0-9.]+)(us|ms|ns)", t, re.M).group(1))
unit = re.search(r"^  median +[0-9.]+(us|ms|ns)", t, re.M).group(1)
over = re.search(r"instrumented vs plain time per launch: v1 ([-+][0-9.]+)%", t).group(1)
mhz = re.search(r"SM clock [0-9]+-([0-9]+) MHz", t).group(1)
rec = re.search(r"cost subtracted \(v1 ([0-9.]+)", t).group(1)
scale = {"us": 1e3, "ms": 1e6, "ns": 1}[unit]
plain_ns = plain * scale
extra_ns = plain_ns * float(over) / 100
records = 2 * iters / 16   # per warp, in program order
# All warps of an SM run concurrently; the dependent chain is the critical path of each warp.
per_record = extra_ns * float(mhz) / 1e3 / records
print(f"iters={iters}: plain {plain_ns/1e3:.2f} us, instrumented {float(over):+.2f}%, {records:.0f} records per warp, "
      f"{per_record:.1f} extra cycles per record (at {mhz} MHz); the calibration kernel's record cost: {rec} cycles")
PY
done
"$BUILD/kerndiff" --no-ncu --regions examples/regions/v1.cu examples/regions/v2.cu >"$WORK/mm.txt" 2>&1
echo "tiled matmul (examples/regions, 2 regions per tile iteration):"
grep -E '^v2 is|^no signif|^  (load|mma) |instrumented vs plain' "$WORK/mm.txt"
