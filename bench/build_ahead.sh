#!/usr/bin/env bash
# The cold build of a diff (issue 31: "cold <= 5 s", of which nvcc took 0.9 + 0.8 s one after
# the other on the H100 host). Since the CUDA front end builds v2 beside v1 (backend/cuda.c's
# prefetch: a forked child fills the build cache), a cold diff compiles both at once. Baseline:
# --no-cache, which compiles the same two files one after the other (the build ahead is off
# there, its work would be lost). Alternating, 5 of each, static diff only (KERNDIFF_NO_GPU=1:
# no GPU needed); the ratio of the medians is the claim.
#   bench/build_ahead.sh BUILD_DIR > bench/build_ahead.txt
set -u
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
export NO_COLOR=1 KERNDIFF_NO_GPU=1 PATH="$PATH:/usr/local/cuda/bin"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
echo "# bench/build_ahead.sh  $(date -u '+%Y-%m-%d %H:%M UTC'), kerndiff $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p'), $(nproc) cores, $(nvcc --version | tail -1)"
echo "# command: kerndiff $A $B with an empty build cache (cold), against kerndiff --no-cache (the two builds one after the other)"
ms() { echo $(( ($2 - $1) / 1000000 )); }
cold=() seq=()
for run in 1 2 3 4 5; do
    s=$(date +%s%N); XDG_CACHE_HOME="$WORK/c$run" KERNDIFF_TRACE=1 "$BUILD/kerndiff" "$A" "$B" >/dev/null 2>"$WORK/trace"; rc1=$?; e=$(date +%s%N)
    grep -q "build started beside" "$WORK/trace" || echo "# run $run: the build ahead did not start"
    cold+=("$(ms "$s" "$e")")
    s=$(date +%s%N); XDG_CACHE_HOME="$WORK/n$run" "$BUILD/kerndiff" --no-cache "$A" "$B" >/dev/null 2>&1; rc2=$?; e=$(date +%s%N)
    seq+=("$(ms "$s" "$e")")
    echo "run $run  cold (v2 built beside v1) ${cold[-1]} ms (exit $rc1)   --no-cache (one after the other) ${seq[-1]} ms (exit $rc2)"
done
median() { printf '%s\n' "$@" | sort -n | sed -n 3p; }
mc=$(median "${cold[@]}") msq=$(median "${seq[@]}")
echo "median cold ${mc} ms, one after the other ${msq} ms: ratio $(python3 -c "print(f'{$mc/$msq:.2f}')")"
