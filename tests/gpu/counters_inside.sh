#!/usr/bin/env bash
# Issue 31, next step (for the lead's GPU run): does running the L2 preparation inside the
# profiling session (KERNDIFF_COUNTER_PREP=inside: the launch follows the preparation on the GPU
# with no host gap, as in ncu's and CUPTI's own kernel replay) bring the in-process counters to
# ncu's on the two kernels that disagree most (copy, fma_short)? tests/gpu/results-counters.txt
# says why it might: every preparation made before cuptiRangeProfilerStart gave the same
# disagreement, while CUPTI's kernel replay matched ncu's achieved occupancy. ~30 s on an H100.
#   tests/gpu/counters_inside.sh BUILD_DIR     (copies its summary to $OUT when set)
set -u
BUILD=$(realpath "${1:-build}")
WORK=$(mktemp -d)
LOG="$WORK/experiment.txt"
EXPERIMENT_PREPS=touch,inside EXPERIMENT_REPLAYS= EXPERIMENT_NCU=all EXPERIMENT_KERNELS="copy fma_short" \
    OUT="$WORK" timeout 110 tests/gpu/counters_experiment.sh "$BUILD" >/dev/null 2>&1
cp "$WORK/counters-experiment.txt" "$LOG" 2>/dev/null
pass=0 failed=0
check() { if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "ok   $1: $3"; else failed=$((failed + 1)); echo "FAIL $1: $3"; fi; }
total() { sed -n "s/^disagreeing counters over all kernels: //p" "$LOG" | tr ',' '\n' | awk -v k="$1" '$1 == k { print $2 }'; }
t=$(total touch) i=$(total inside)
check ran "$([ -n "$t" ] && [ -n "$i" ]; echo $?)" "the experiment gave both totals (touch ${t:-?}, inside ${i:-?})"
check inside_not_worse "$([ -n "$i" ] && [ -n "$t" ] && [ "$i" -le "$t" ]; echo $?)" \
    "counters disagreeing with ncu over copy and fma_short: inside ${i:-?}, touch ${t:-?}"
check inside_agrees "$([ "${i:-1}" = 0 ]; echo $?)" "inside disagrees on ${i:-?} counters (0 is the must-show)"
grep -E "^   fails|^== " "$LOG"
echo "counters_inside: $pass ok, $failed FAIL"
[ -n "${OUT:-}" ] && cp "$LOG" "$OUT/counters-inside.txt"
[ $failed -eq 0 ]
