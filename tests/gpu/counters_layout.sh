#!/usr/bin/env bash
# The ~5 us fma_loop (iters=200, counters_inproc.sh's short kernel) through tests/gpu/counters_layout.py: ncu and the
# harness's CUPTI with four metrics and with 28. Run it where kerndiff would find the CUPTI to test (a 13.4+ wheel:
# give the harness its libcupti as KERNDIFF_CUPTI_LIBRARY, since the script starts the harness itself).
#   tests/gpu/counters_layout.sh BUILD_DIR
set -u
BUILD=$(realpath "${1:-build}"); W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
export XDG_CACHE_HOME="$W/cache" NO_COLOR=1 KERNDIFF_WIDTH=0 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
echo "counters_layout: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), kerndiff $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p'), libcupti ${KERNDIFF_CUPTI_LIBRARY:-the system default}"
"$BUILD/kerndiff" --no-ncu --max-time 0.2 --json="$W/r.json" --arg iters=200 tests/gpu/kernels/fma_loop.cu tests/gpu/kernels/fma_loop.cu >/dev/null 2>&1 ||
    { echo "FAIL kerndiff did not run"; exit 1; }
python3 "$(dirname "$0")/counters_layout.py" "$W/r.json" "$BUILD/kerndiff-harness"
