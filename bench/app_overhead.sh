#!/usr/bin/env bash
# The cost of `kerndiff app`'s collection (libkerndiff-inject.so) on a program's run time,
# on a machine with a GPU, for two programs in one run:
#   GPU-bound:    tests/gpu/app/steps.cu, 16M elements, 3 kernels x 200 steps;
#   launch-bound: bench/launch_bound.cu, 200000 launches of a one-block kernel, a
#                 synchronisation every 1000 (the per-record cost shows in full).
# Each is run plain, collected, and collected with --range step, in the environment
# `kerndiff app` gives a run (CUDA_INJECTION64_PATH, KERNDIFF_APP_RECORDS, and with --range
# NVTX_INJECTION64_PATH, KERNDIFF_APP_RANGE), alternating, RUNS times each; printed: median
# wall times and the ratio collected / plain.
#   make && bench/app_overhead.sh [BUILD_DIR] [RUNS] | tee bench/app_overhead.txt
set -eu
BUILD=$(realpath "${1:-build}")
RUNS=${2:-7}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export PATH="$PATH:/usr/local/cuda/bin"
INJECT=$BUILD/libkerndiff-inject.so
[ -f "$INJECT" ] || { echo "app_overhead.sh: $INJECT not found: run make first" >&2; exit 1; }
nvcc -O2 -arch=native -o "$WORK/steps3" "$ROOT/tests/gpu/app/steps.cu"
nvcc -O2 -arch=native -o "$WORK/launch_bound" "$ROOT/bench/launch_bound.cu"
echo "# kerndiff app: collection overhead ($(date -u '+%Y-%m-%d'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader))"
wall() { # wall MODE COMMAND...: one run's wall time in microseconds
    local mode=$1; shift
    local t0 t1
    rm -rf "$WORK/rec"; mkdir -p "$WORK/rec"
    t0=$(date +%s%N)
    case $mode in
    plain) "$@" >/dev/null ;;
    collect) CUDA_INJECTION64_PATH=$INJECT KERNDIFF_APP_RECORDS=$WORK/rec "$@" >/dev/null ;;
    range) CUDA_INJECTION64_PATH=$INJECT NVTX_INJECTION64_PATH=$INJECT KERNDIFF_APP_RANGE=step \
           KERNDIFF_APP_RECORDS=$WORK/rec "$@" >/dev/null ;;
    esac
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
}
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2) / 1000}'; }
measure() { # measure NAME COMMAND...
    local name=$1; shift
    : >"$WORK/plain"; : >"$WORK/collect"; : >"$WORK/range"
    wall plain "$@" >/dev/null   # warm the driver and the page cache
    for _ in $(seq "$RUNS"); do
        for m in plain collect range; do wall $m "$@" >>"$WORK/$m"; done
    done
    local p c r
    p=$(median <"$WORK/plain"); c=$(median <"$WORK/collect"); r=$(median <"$WORK/range")
    awk -v k="$name" -v p="$p" -v c="$c" -v r="$r" -v n="$RUNS" 'BEGIN { printf "%-13s plain %8.1f ms, collected %8.1f ms (x%.3f), with --range %8.1f ms (x%.3f), %d runs each\n", k, p, c, c / p, r, r / p, n }'
    # The collector aggregates: its records file stays a few lines however many launches.
    grep -h '^kernel ' "$WORK/rec"/*.rec | awk '{n += $2} END {print "  launches recorded in the last run (with --range step): " n + 0}'
}
measure "GPU-bound" "$WORK/steps3" 16777216 200 /dev/null
measure "launch-bound" "$WORK/launch_bound" 200000 1000
