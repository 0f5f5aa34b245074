#!/usr/bin/env bash
# How kerndiff's latency compares with Nsight Compute's gpu__time_duration, for both of
# the harness's timers (CUPTI kernel records, CUDA events), across kernel lengths.
#   bench/timer_vs_ncu.sh [BUILD_DIR] > bench/timer_vs_ncu.txt
# ncu runs with --clock-control none (clocks as found), --cache-control all and none.
set -eu
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
export XDG_CACHE_HOME=$(mktemp -d) NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin"
trap 'rm -rf "$XDG_CACHE_HOME"' EXIT
K=tests/gpu/kernels/fma_loop.cu
med() { python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['runtime']['sides'][0]['summary_ns']['median'],1))" "$1"; }
ncu_med() { # JSON CACHE-CONTROL
    python3 tests/gpu/ncu_duration.py "$1" 0 "$BUILD/kerndiff-harness" 7 "$2" | cut -d' ' -f1
}
echo "# bench/timer_vs_ncu.sh  $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
echo "# kernel: $K (dependent FMA chain, n=270336 threads), A/A runs, medians in ns"
printf '%-6s %12s %12s %14s %15s %12s %12s\n' iters cupti events ncu_cache_all ncu_cache_none cupti-ncu events-ncu
for iters in 50 200 400 1000 5000; do
    "$BUILD/kerndiff" --json="$XDG_CACHE_HOME/c.json" --arg iters=$iters "$K" "$K" >/dev/null
    KERNDIFF_TIMER=events "$BUILD/kerndiff" --json="$XDG_CACHE_HOME/e.json" --arg iters=$iters "$K" "$K" >/dev/null
    c=$(med "$XDG_CACHE_HOME/c.json"); e=$(med "$XDG_CACHE_HOME/e.json")
    na=$(ncu_med "$XDG_CACHE_HOME/c.json" all); nn=$(ncu_med "$XDG_CACHE_HOME/c.json" none)
    python3 -c "import sys; i,c,e,a,n = sys.argv[1:]; print(f'{i:<6} {c:>12} {e:>12} {a:>14} {n:>15} {float(c)-float(a):+12.1f} {float(e)-float(a):+12.1f}')" $iters $c $e $na $nn
done
