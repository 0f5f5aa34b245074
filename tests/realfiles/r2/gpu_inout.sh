#!/usr/bin/env bash
# On a machine with an NVIDIA GPU and nvcc: in-out buffers end to end on the CUDA harness.
#   tests/realfiles/r2/gpu_inout.sh BUILD_DIR
# 1. the conformance transcript with the copy kernel (an inout buffer keeps its seeded
#    contents where the kernel does not write, in both check runs); 2. y[i] += x[i] against
#    itself matches, and against y[i] = x[i] differs (y is seeded, not poisoned, and compared).
set -u
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/../../.."
KD="$BUILD/kerndiff" WORK=$(mktemp -d)
export PATH="$PATH:/usr/local/cuda/bin" NO_COLOR=1 XDG_CACHE_HOME="$WORK/cache"
pass=0 fail=0
check() { if [ "$2" -eq 0 ]; then pass=$((pass + 1)); echo "PASS $1"; else fail=$((fail + 1)); echo "FAIL $1"; fi; }
nvcc -arch=sm_90 -cubin -o "$WORK/copy.cubin" tests/gpu/kernels/copy.cu
"$BUILD/tests/conformance" "$BUILD/kerndiff-harness" "$WORK/copy.cubin" kd_copy >"$WORK/conf.txt" 2>&1
rc=$?
check "conformance on the CUDA harness (inout transcript included): $(tail -1 "$WORK/conf.txt")" $rc
grep -E '^FAIL|inout' "$WORK/conf.txt"
A=tests/realfiles/r2/inout_acc.cu B=tests/realfiles/r2/inout_copy.cu
"$KD" --n 65536 --max-time 2 --json="$WORK/same.json" "$A" "$A" >"$WORK/same.txt" 2>&1
rc=$?
check "acc against itself: exit $rc" $rc
grep -E '^outputs|^OUTPUTS|  y \(' "$WORK/same.txt"
"$KD" --n 65536 --max-time 2 --json="$WORK/diff.json" "$A" "$B" >"$WORK/diff.txt" 2>&1
echo "acc against copy: exit $?"
grep -E 'in-out|^outputs|^OUTPUTS|  y \(' "$WORK/diff.txt"
grep -q '^OUTPUTS DIFFER' "$WORK/diff.txt"; check "acc (y += x) against copy (y = x): OUTPUTS DIFFER" $?
python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["runtime"]["correctness"]["outputs"][0]; print("json:", o["name"], "mismatches", o["mismatches"], "unwritten", o["unwritten_v1"], o["unwritten_v2"]); sys.exit(0 if o["mismatches"] > 60000 and o["unwritten_v1"] == 0 else 1)' "$WORK/diff.json"
check "y differs almost everywhere, v1 (in-out) has no unwritten element" $?
echo "gpu_inout: $pass passed, $fail failed"
rm -rf "$WORK"
[ "$fail" -eq 0 ]
