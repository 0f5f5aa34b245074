#!/usr/bin/env bash
# Wall time of the static diff (--no-run) with a warm build cache, with the disassembly
# taken from the cache entry (default) and re-made by cuobjdump (KERNDIFF_SASS_CACHE=off,
# as before the SASS cache), interleaved in one run; the ratio is what the cache saves.
# Needs nvcc and cuobjdump, no GPU.
#   bench/static_wall.sh [BUILD_DIR] [RUNS] > bench/static_wall.txt
set -eu
BUILD=$(realpath "${1:-build}")
RUNS=${2:-9}
cd "$(dirname "$0")/.."
export XDG_CACHE_HOME=$(mktemp -d) NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin"
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
echo "# bench/static_wall.sh  $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# host: $(nproc) CPUs, $(uname -m); gpu: $(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null || echo none)"
echo "# nvcc: $(nvcc --version | tail -1); cuobjdump: $(command -v cuobjdump || echo 'not on PATH')"
echo "# kernels: $A vs $B, kerndiff --no-run, warm build cache, $RUNS runs of each mode, interleaved"
"$BUILD/kerndiff" --no-run "$A" "$B" >/dev/null # fills the build cache
grep -q '^SASS instructions' <("$BUILD/kerndiff" --no-run "$A" "$B") || { echo "no SASS section: is cuobjdump on PATH?"; exit 1; }
wall() { # MODE: seconds of one run
    local start end
    start=$(date +%s.%N)
    KERNDIFF_SASS_CACHE=$1 "$BUILD/kerndiff" --no-run "$A" "$B" >/dev/null
    end=$(date +%s.%N)
    echo "$end - $start" | bc
}
for ((i = 0; i < RUNS; i++)); do
    echo "cached $(wall on)"
    echo "uncached $(wall off)"
done | python3 -c '
import statistics, sys
runs = {"cached": [], "uncached": []}
for line in sys.stdin:
    mode, seconds = line.split()
    runs[mode].append(float(seconds))
for mode, xs in runs.items():
    print(f"{mode:9} median {statistics.median(xs):.3f} s  (min {min(xs):.3f}, max {max(xs):.3f}, n={len(xs)})")
ratio = statistics.median(runs["uncached"]) / statistics.median(runs["cached"])
print(f"ratio uncached/cached: {ratio:.2f}x")'
