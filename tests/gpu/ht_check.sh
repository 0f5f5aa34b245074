#!/usr/bin/env bash
# GPU check of this wave's timing-policy and harness-reuse work (issues 26 and 31), under two
# minutes, no network:
#   1. the protocol conformance transcript on the CUDA harness (a copy kernel: `mode sustained`,
#      `reset` then another size on the same process, `geometry` in clusters, `counters`, and
#      everything before them), bit-exact data;
#   2. `--load sustained` on examples/vector_loads: exit 0, the method line, samples in blocks of
#      20, the SM clock read while busy; single and sustained medians side by side;
#   3. a 3-point sweep: one harness process per role (3 started, 6 kept), every point timed;
#   4. the KERNDIFF_TIMER=events fallback of the sustained samples.
# Prints ok/FAIL lines and a summary; with OUT set, the summary is copied to $OUT/ht_check.txt.
#   tests/gpu/ht_check.sh BUILD_DIR
set -u
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/../.."
export PATH="$PATH:/usr/local/cuda/bin" NO_COLOR=1 KERNDIFF_WIDTH=0 XDG_CACHE_HOME=$(mktemp -d)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK" "$XDG_CACHE_HOME"' EXIT
KD="$BUILD/kerndiff"
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
passed=0 failed=0
: >"$WORK/summary"
say() { echo "$1" | tee -a "$WORK/summary"; }
check() { # NAME GOOD(0|1) DETAIL [FILE]
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); say "ok   $1: $3"
    else failed=$((failed + 1)); say "FAIL $1: $3"; [ -n "${4:-}" ] && tail -15 "$4" | sed 's/^/     | /' | tee -a "$WORK/summary"; fi
}
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@" 2>/dev/null; }
say "# tests/gpu/ht_check.sh $(date -u '+%Y-%m-%d %H:%M UTC'); gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"

# 1. conformance on the CUDA harness
if nvcc -arch=sm_90 -cubin -o "$WORK/copy.cubin" tests/gpu/kernels/copy.cu 2>"$WORK/copy.err"; then
    "$BUILD/tests/conformance" "$BUILD/kerndiff-harness" "$WORK/copy.cubin" kd_copy >"$WORK/conformance.txt" 2>&1
    rc=$?
    check conformance_cuda "$rc" "$(tail -1 "$WORK/conformance.txt"); $(grep -c '^ok' "$WORK/conformance.txt") checks passed, $(grep -c '^FAIL' "$WORK/conformance.txt") failed" "$WORK/conformance.txt"
    grep '^FAIL' -A1 "$WORK/conformance.txt" | head -20 | tee -a "$WORK/summary"
    for what in 'mode sustained: time 4' 'reset: the new launch' 'geometry in clusters: check' 'counters NAME'; do
        line=$(grep -F "$what" "$WORK/conformance.txt" | head -1)
        name=${what%%:*}
        check "conformance_${name// /_}" "$([ "${line:0:2}" = ok ]; echo $?)" "${line:-not run}"
    done
else
    check conformance_cuda 1 "nvcc could not build the copy kernel" "$WORK/copy.err"
fi

# 2. --load sustained against --load single, same run
"$KD" --no-ncu --max-time 3 --json="$WORK/single.json" "$A" "$B" >"$WORK/single.txt" 2>&1
rc1=$?
"$KD" --no-ncu --max-time 3 --load sustained --json="$WORK/sustained.json" "$A" "$B" >"$WORK/sustained.txt" 2>&1
rc2=$?
check load_single_runs "$rc1" "exit $rc1: $(grep -m1 '^v2 is\|^no significant' "$WORK/single.txt")" "$WORK/single.txt"
check load_sustained_runs "$rc2" "exit $rc2: $(grep -m1 '^v2 is\|^no significant' "$WORK/sustained.txt")" "$WORK/sustained.txt"
grep -q 'sustained load (back to back, 256 MiB cleared between launches, as triton.testing.do_bench): 100 ms of load before each block of 20 samples' "$WORK/sustained.txt"
check load_sustained_said $? "$(grep -m1 -o 'sustained load[^;]*' "$WORK/sustained.txt")" "$WORK/sustained.txt"
n=$(field "$WORK/sustained.json" 'len(d["runtime"]["sides"][0]["samples_ns"])')
check load_sustained_blocks "$([ -n "$n" ] && [ "$n" -gt 0 ] && [ $((n % 20)) -eq 0 ]; echo $?)" "$n samples per side (blocks of 20)"
for load in single sustained; do
    say "  $load: v1 $(field "$WORK/$load.json" 'round(d["runtime"]["sides"][0]["summary_ns"]["median"]/1e3, 2)') us, v2 $(field "$WORK/$load.json" 'round(d["runtime"]["sides"][1]["summary_ns"]["median"]/1e3, 2)') us; $(grep -m1 -o 'SM clock [0-9]*-[0-9]* MHz' "$WORK/$load.txt"); timer $(field "$WORK/$load.json" 'd["runtime"]["mode"]["timer"]')"
done

# 3. a sweep served by one harness per role
KERNDIFF_TRACE=1 "$KD" --no-ncu --max-time 2 --n 1M,2M,4M "$A" "$B" >"$WORK/sweep.txt" 2>"$WORK/sweep.err"
rc=$?
started=$(grep -c 'harness .*: started$' "$WORK/sweep.err")
kept=$(grep -c 'kept from the previous point$' "$WORK/sweep.err")
rows=$(grep -cE '^  [0-9]+[KM]? +[0-9.]+[mun]?s ' "$WORK/sweep.txt")
check sweep_reset "$([ $rc -eq 0 ] && [ "$started" -eq 3 ] && [ "$kept" -eq 6 ] && [ "$rows" -eq 3 ]; echo $?)" \
    "exit $rc; $started harnesses started, $kept kept from the previous point (want 3 and 6); $rows points in the table" "$WORK/sweep.err"

# 4. the sustained samples without CUPTI
KERNDIFF_TIMER=events "$KD" --no-ncu --max-time 2 --load sustained --json="$WORK/events.json" "$A" "$B" >"$WORK/events.txt" 2>&1
rc=$?
timer=$(field "$WORK/events.json" 'd["runtime"]["mode"]["timer"]')
check load_sustained_events "$([ $rc -eq 0 ] && [ "$timer" = events ]; echo $?)" "exit $rc, timer $timer: $(grep -m1 '^v2 is\|^no significant' "$WORK/events.txt")" "$WORK/events.txt"

say "ht_check: $passed passed, $failed failed"
[ -n "${OUT:-}" ] && cp "$WORK/summary" "$OUT/ht_check.txt"
[ "$failed" -eq 0 ]
