#!/bin/sh
# GPU must-show of issue 30 (a): a PyTorch program calling a kernel built with
# torch.utils.cpp_extension.load_inline (tests/gpu/replay_torch/prog.py; its kernel is k.cu),
# its tensors at offsets inside one caching-allocator segment. The first launch of
# kd_torch_kernel is captured (`kerndiff capture --fn kd_torch_kernel -o F -- python3 prog.py`)
# and replayed A/A (`kerndiff --launch F k.cu k.cu`): the replay's outputs are bit-identical to
# the program's result, the verdict is "no significant difference", and v1's median is within 2%
# of the program's own CUDA events, timed as kerndiff times a launch (prog.py says how). A v2
# computing something else is reported as differing from the program's result, with the first
# differing element.
#   tests/gpu/replay_torch/inline.sh BUILD_DIR      (needs python3 with torch, ninja, nvcc; < 90 s)
# Works in $WORK (default a temp folder); the summary goes to $OUT when set.
. "$(dirname "$0")/../replay_common.sh"
here=$root/tests/gpu/replay_torch
need "$kd" "$build/kerndiff-harness" "$build/libkerndiff-inject.so"
export TORCH_EXTENSIONS_DIR="$work/torch_extensions" MAX_JOBS=${MAX_JOBS:-16}
mkdir -p "$TORCH_EXTENSIONS_DIR"

# 1. The program alone (builds the extension once; the capture run reuses the build).
python3 "$here/prog.py" >"$work/prog.out" 2>"$work/prog.err"
rc=$?
check "program: exit 0 (exit $rc$( [ $rc = 0 ] || echo ": $(tail -2 "$work/prog.err" | tr '\n' ' ')"))" test $rc -eq 0
[ $rc = 0 ] || finish
prog_us=$(awk '$1 == "launches" {for (i = 1; i < NF; i++) if ($i == "median_us") print $(i + 1)}' "$work/prog.out")
say "     program: $(grep '^offsets' "$work/prog.out"); $(grep '^launches' "$work/prog.out")"

# 2. The capture.
cap=$work/torch.kdcap
"$kd" capture --fn kd_torch_kernel -o "$cap" -- python3 "$here/prog.py" >"$work/cap.out" 2>"$work/cap.err"
rc=$?
check "capture: exit 0 (exit $rc: $(tail -1 "$work/cap.err"))" test $rc -eq 0
[ -f "$cap" ] || finish
check "capture: file mode 0600" test "$(stat -c %a "$cap")" = 600
python3 "$root/tests/gpu/replay_kdcap.py" "$cap" | sed 's/^/     /' | tee -a "$summary"
check "capture: every pointer at an offset inside its allocation (the caching allocator's segment)" \
    python3 "$root/tests/gpu/replay_kdcap.py" "$cap" --inside

# 3. The replay, A/A.
"$kd" --launch "$cap" --no-ncu --max-time 5 --json "$work/aa.json" "$here/k.cu" "$here/k.cu" >"$work/aa.txt" 2>"$work/aa.err"
rc=$?
check "replay A/A: exit 0 (exit $rc$( [ $rc = 0 ] || echo ": $(tail -1 "$work/aa.err")"))" test $rc -eq 0
grep -E '^(no significant|v[12] (is|still|differs)|not compared)' "$work/aa.txt" | sed 's/^/     /' | tee -a "$summary"
aa_checks "replay A/A" "$work/aa.json" "$work/aa.txt" "$prog_us"

# 4. A v2 that computes something else: differs from the program's result, first element named.
sed 's/float t = x\[i\] \* scale + bias\[i % 256\];/float t = x[i] * scale - bias[i % 256];/' "$here/k.cu" >"$work/k_v2.cu"
check "v2: the sed changed the kernel" sh -c "! cmp -s '$here/k.cu' '$work/k_v2.cu'"
"$kd" --launch "$cap" --no-ncu --max-time 2 "$here/k.cu" "$work/k_v2.cu" >"$work/v2.txt" 2>"$work/v2.err"
grep -E '^v[12] (still|differs)' "$work/v2.txt" | sed 's/^/     /' | tee -a "$summary"
check "v2: v1 still computes what the program computed" grep -q '^v1 still computes what the program computed' "$work/v2.txt"
check "v2: differs from the program's result at its first differing element" \
    grep -Eq "^v2 differs from the program.s result at .+\[[0-9]+\] \(v2 .*, program .*\)$" "$work/v2.txt"
finish
