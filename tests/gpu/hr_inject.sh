#!/usr/bin/env bash
# GPU check of libkerndiff-inject.so after it took the harness's libcupti search
# (harness/cupti_library.c: once per process, opened RTLD_LOCAL; it was RTLD_GLOBAL):
# kerndiff app with --range (the NVTX injection hands NVTX to CUPTI), with push/pop and
# start/end ranges, with KERNDIFF_CUPTI_LIBRARY naming nothing (the search goes on), under
# PyTorch (which may load its own libcupti), and `kerndiff capture` (the same library).
#   tests/gpu/hr_inject.sh BUILD_DIR       (static GPU build: /work/briefs/s3/recipe.md)
# Prints ok/FAIL lines and a summary; copies the summary to $OUT when set. About 60 s.
set -u
BUILD=${1:?usage: tests/gpu/hr_inject.sh BUILD_DIR}
case $BUILD in /*) ;; *) BUILD=$PWD/$BUILD ;; esac
export PATH=$PATH:/usr/local/cuda/bin
KD=$BUILD/kerndiff
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kd-hr-inject.XXXXXX")
SUMMARY=$WORK/hr-inject-summary.txt
passed=0 failed=0
check() { # check NAME STATUS DETAIL (the counts outside the pipe: a piped `if` runs in a subshell)
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "ok   $1 -- $3" | tee -a "$SUMMARY"; else
        failed=$((failed + 1)); echo "FAIL $1 -- $3" | tee -a "$SUMMARY"; fi
}
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
A=tests/gpu/app
nvcc -O2 -arch=native -o "$WORK/steps3" "$A/steps.cu" && nvcc -O2 -arch=native -DFUSED -o "$WORK/steps1" "$A/steps.cu" &&
    nvcc -O2 -arch=native -DSTART_END -o "$WORK/steps3se" "$A/steps.cu"
check build $? "nvcc of tests/gpu/app/steps.cu (3 ways)"

# 1. --range through the NVTX injection: 3 launches per step against 1
"$KD" app --runs 1 --range step --json="$WORK/app.json" "$WORK/steps3 1048576 20 /dev/null" \
    "$WORK/steps1 1048576 20 /dev/null" >"$WORK/app.txt" 2>&1
check app_ran $? "$(tail -n 3 "$WORK/app.txt" | tr '\n' ' ')"
lps=$(field "$WORK/app.json" 'd["totals"]["launches"]["per_step"]' 2>&1)
check app_range_per_step "$([ "$lps" = "[3.0, 1.0]" ]; echo $?)" "launches per step v1, v2: $lps (want [3.0, 1.0])"

# 2. start/end ranges as push/pop ones
"$KD" app --runs 1 --range step --json="$WORK/se.json" "$WORK/steps3 1048576 20 /dev/null" \
    "$WORK/steps3se 1048576 20 /dev/null" >"$WORK/se.txt" 2>&1
se=$(field "$WORK/se.json" '[d["steps"], d["totals"]["launches"]["v1"], d["totals"]["launches"]["v2"]]' 2>&1)
check app_range_start_end "$([ "$se" = "[20.0, 60.0, 60.0]" ]; echo $?)" "steps, launches push/pop, start/end: $se (want [20.0, 60.0, 60.0])"

# 3. KERNDIFF_CUPTI_LIBRARY naming no file: the loader's and the toolkit's libcupti still found
KERNDIFF_CUPTI_LIBRARY=/nonexistent/libcupti.so "$KD" app --runs 1 --json="$WORK/env.json" \
    "$WORK/steps1 1048576 10 /dev/null" "$WORK/steps1 1048576 10 /dev/null" >"$WORK/env.txt" 2>&1
l=$(field "$WORK/env.json" '[d["totals"]["launches"]["v1"], d["totals"]["launches"]["v2"]]' 2>&1)
check app_cupti_env_fallback "$([ "$l" = "[21.0, 21.0]" ] || [ "$l" = "[21, 21]" ]; echo $?)" "launches with a bad KERNDIFF_CUPTI_LIBRARY: $l (want 21 each)"

# 4. PyTorch eager under the collector (torch may hold its own libcupti)
if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
    "$KD" app --runs 1 --range step --json="$WORK/torch.json" "python3 $A/torch_step.py eager 10 /dev/null" \
        "python3 $A/torch_step.py eager 10 /dev/null" >"$WORK/torch.txt" 2>&1
    lps=$(field "$WORK/torch.json" 'd["totals"]["launches"]["per_step"]' 2>&1)
    check app_torch "$(python3 -c "import sys; v=$lps; sys.exit(0 if v[0] >= 3 and v[0] == v[1] else 1)" 2>/dev/null; echo $?)" "launches per step, eager both sides: $lps"
else
    echo "skip app_torch: no torch with CUDA" | tee -a "$SUMMARY"
fi

# 5. kerndiff capture through the same library: the first add launch recorded, then replayed
"$KD" capture --fn add -o "$WORK/add.kdcap" -- "$WORK/steps3" 1048576 2 /dev/null >"$WORK/cap.txt" 2>&1
rc=$?
check capture_add "$([ $rc -eq 0 ] && [ -s "$WORK/add.kdcap" ]; echo $?)" "exit $rc, $(wc -c <"$WORK/add.kdcap" 2>/dev/null || echo no) bytes; $(tail -n 2 "$WORK/cap.txt" | tr '\n' ' ')"

echo "hr_inject: $passed passed, $failed failed (work: $WORK)" | tee -a "$SUMMARY"
[ -n "${OUT:-}" ] && cp "$SUMMARY" "$OUT/"
[ "$failed" -eq 0 ]
