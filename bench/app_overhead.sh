#!/usr/bin/env bash
# The cost of `kerndiff app`'s collection (libkerndiff-inject.so) on a program's run time,
# on a machine with a GPU: tests/gpu/app/steps.cu run plain and under the collector,
# alternating, RUNS times each, for a GPU-bound case (16M elements, 3 kernels x 200 steps)
# and a launch-bound one (1K elements, 3 kernels x 100000 steps: 300k launches, where the
# per-record cost shows), with and without --range. Prints median wall times and the overhead.
#   bench/app_overhead.sh [BUILD_DIR] [RUNS] > bench/app_overhead.txt
set -eu
BUILD=$(realpath "${1:-build}")
RUNS=${2:-7}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export PATH="$PATH:/usr/local/cuda/bin"
nvcc -O2 -arch=native -o "$WORK/steps3" "$ROOT/tests/gpu/app/steps.cu"
INJECT=$BUILD/libkerndiff-inject.so
echo "# kerndiff app: collection overhead ($(date -u '+%Y-%m-%d'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader))"
wall() { # wall MODE ARGS...: one run's wall time in ms
    local mode=$1; shift
    local t0 t1
    rm -rf "$WORK/rec"; mkdir -p "$WORK/rec"
    t0=$(date +%s%N)
    case $mode in
    plain) "$WORK/steps3" "$@" /dev/null ;;
    collect) CUDA_INJECTION64_PATH=$INJECT KERNDIFF_APP_RECORDS=$WORK/rec "$WORK/steps3" "$@" /dev/null ;;
    range) CUDA_INJECTION64_PATH=$INJECT NVTX_INJECTION64_PATH=$INJECT KERNDIFF_APP_RANGE=step \
           KERNDIFF_APP_RECORDS=$WORK/rec "$WORK/steps3" "$@" /dev/null ;;
    esac
    t1=$(date +%s%N)
    echo $(( (t1 - t0) / 1000 ))
}
median() { sort -n | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2) / 1000}'; }
for case in "16777216 200" "1024 100000"; do
    : >"$WORK/plain" ; : >"$WORK/collect" ; : >"$WORK/range"
    wall plain $case >/dev/null   # warm the driver and the page cache
    for _ in $(seq "$RUNS"); do
        for m in plain collect range; do wall $m $case >>"$WORK/$m"; done
    done
    p=$(median <"$WORK/plain"); c=$(median <"$WORK/collect"); r=$(median <"$WORK/range")
    awk -v k="$case" -v p="$p" -v c="$c" -v r="$r" -v n="$RUNS" 'BEGIN { printf "steps3 %s: plain %.1f ms, collected %.1f ms (%+.1f%%), with --range %.1f ms (%+.1f%%), %d runs each\n", k, p, c, (c / p - 1) * 100, r, (r / p - 1) * 100, n }'
    grep -c '' "$WORK/rec"/*.rec | sed 's/^/  records file lines: /'
done
