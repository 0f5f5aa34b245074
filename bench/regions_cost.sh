#!/usr/bin/env bash
# The cost of region records (issue 12), on a GPU:
#   bench/regions_cost.sh [BUILD_DIR] > bench/regions_cost.txt
# 1. cycles per record: tests/gpu/kernels/regions_loop.cu, plain and instrumented (each
#    timed by the harness: L2 flushed, median of the launches); extra cycles per record =
#    (instrumented - plain) x SM clock / records per warp. Two kernels: a region around every
#    16 steps of a dependent FMA chain (a record among work) and empty regions (records back
#    to back). With one warp per scheduler (4 per SM) that is what a record adds to a warp's
#    path; with 16 warps per SM, four warps share each scheduler's issue slots as well.
#    --region-blocks all builds the markers with no sampling test; auto (the default) with the
#    store predicated off in blocks that do not record (or branching around the record where
#    predicated markers would cost blocks per SM, or where a grid of more than one wave has
#    blocks that do not record: the matmuls below, whose line says which); these grids have
#    at most 2 blocks per SM, so under auto every block records too.
# 2. the overhead on a tiled matmul with 3 regions in its main loop, and on the matmul of
#    examples/regions (2 regions), from kerndiff's own "instrumented vs plain" line: with the
#    default block sampling (--region-blocks auto: 1 block in 8 records, the others branch
#    around the markers) and with every block recording (--region-blocks all).
# bench/region_record_variants.cu measures the record designs this one was chosen from.
set -u
BUILD=$(realpath "${1:-build}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-rcost.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1
echo "# region record cost, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader 2>&1)"
loop=tests/gpu/kernels/regions_loop.cu
for build in all auto; do
for fn in regions_loop regions_loop_empty; do
for shape in "4 --block 128 --grid 132" "16 --block 256 --grid 264"; do
    set -- $shape
    per_sm=$1
    shift
    "$BUILD/kerndiff" --no-ncu --regions --region-blocks $build --fn $fn --arg iters=4096 "$@" "$loop" "$loop" >"$WORK/loop.txt" 2>&1
    python3 - "$WORK/loop.txt" "$per_sm" "$fn" "$build" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
per_sm = sys.argv[2]
fn = sys.argv[3]
build = sys.argv[4]
m = re.search(r"^  median +([0-9.]+)(us|ms|ns)", t, re.M)
if not m:
    sys.exit(f"no timing in the output:\n{t[-2000:]}")
plain_ns = float(m.group(1)) * {"us": 1e3, "ms": 1e6, "ns": 1}[m.group(2)]
over = float(re.search(r"instrumented vs plain time per launch: v1 ([-+][0-9.]+)%", t).group(1))
mhz = float(re.search(r"SM clock [0-9]+-([0-9]+) MHz", t).group(1))
rec = re.search(r"cost subtracted \(v1 ([0-9.]+)", t).group(1)
step = re.search(r"^  step +([0-9]+)", t, re.M).group(1)
records = 2 * 4096 / 16   # per warp, in program order
per_record = plain_ns * over / 100 * mhz / 1e3 / records
print(f"--region-blocks {build:<4} {fn:<18} {per_sm:>2} warps/SM: plain {plain_ns/1e3:.2f} us, instrumented {over:+.2f}%, {records:.0f} records per warp, "
      f"{per_record:.1f} extra cycles per record (at {mhz:.0f} MHz); calibrated record cost: {rec} cycles; step: {step} cycles")
PY
done
done
done
m3=tests/gpu/kernels/regions_matmul3.cu
for blocks in auto all; do
    "$BUILD/kerndiff" --no-ncu --regions --region-blocks $blocks --region-records 512 "$m3" "$m3" >"$WORK/mm3.txt" 2>&1
    echo "tiled matmul, 3 regions per tile iteration (tests/gpu/kernels/regions_matmul3.cu, n=2048), --region-blocks $blocks:"
    grep -E '^  (load|wait|mma) |instrumented vs plain' "$WORK/mm3.txt"
    "$BUILD/kerndiff" --no-ncu --regions --region-blocks $blocks examples/regions/v1.cu examples/regions/v2.cu >"$WORK/mm.txt" 2>&1
    echo "tiled matmul of examples/regions (2 regions per tile iteration), --region-blocks $blocks:"
    grep -E '^v2 is|^no signif|^  (load|mma) |instrumented vs plain' "$WORK/mm.txt"
done
