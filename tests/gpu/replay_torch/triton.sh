#!/bin/sh
# GPU must-show of issue 30 (b): a Triton kernel (tk.py) launched from a PyTorch script
# (triton_prog.py). Its first launch of kd_triton_kernel is captured
# (`kerndiff capture --fn kd_triton_kernel -o F -- python3 triton_prog.py`) and replayed A/A:
#  - with the Triton .py on both sides (`kerndiff --launch F tk.py tk.py`), as the must-show asks:
#    the capture file's Triton section (format 2: the JIT's specialization data, constexprs,
#    num_warps/num_stages, Triton's scratch pointers, recorded by the jit_post_compile_hook that
#    `kerndiff capture` installs in a Python program) makes each side the JIT's own kernel; the
#    same three checks, and a v2 .py computing something else (0.5 made 0.25) named as differing;
#  - with the PTX Triton compiled for that launch on both sides (`kerndiff --launch F --arch
#    sm_90a k.ptx k.ptx`, the arch from the PTX's .target): the same three checks as the CUDA
#    ways (outputs bit-identical to the program's result, A/A "no significant difference",
#    median within 2% of the program's CUDA events, timed as kerndiff times a launch), and a v2
#    PTX computing something else (its loop constant 0.5 made 0.25) named as differing.
#   tests/gpu/replay_torch/triton.sh BUILD_DIR      (needs python3 with torch and triton; < 90 s)
# Works in $WORK (default a temp folder); the summary goes to $OUT when set.
. "$(dirname "$0")/../replay_common.sh"
here=$root/tests/gpu/replay_torch
need "$kd" "$build/kerndiff-harness" "$build/libkerndiff-inject.so"
export TRITON_CACHE_DIR="$work/triton_cache"

# 1. The program alone (compiles the kernel; writes the PTX Triton made).
mkdir -p "$work/res"
python3 "$here/triton_prog.py" "$work/res" >"$work/prog.out" 2>"$work/prog.err"
rc=$?
check "program: exit 0 (exit $rc$( [ $rc = 0 ] || echo ": $(tail -2 "$work/prog.err" | tr '\n' ' ')"))" test $rc -eq 0
[ $rc = 0 ] || finish
prog_us=$(awk '$1 == "launches" {for (i = 1; i < NF; i++) if ($i == "median_us") print $(i + 1)}' "$work/prog.out")
say "     program: $(grep '^launches' "$work/prog.out")"
ptx=$work/res/kd_triton_kernel.ptx
arch=$(awk '$1 == ".target" {sub(/,.*/, "", $2); print $2; exit}' "$ptx" 2>/dev/null)
check "program: wrote the PTX Triton compiled (.target ${arch:-none})" test -n "$arch"

# 2. The capture.
cap=$work/triton.kdcap
"$kd" capture --fn kd_triton_kernel -o "$cap" -- python3 "$here/triton_prog.py" >"$work/cap.out" 2>"$work/cap.err"
rc=$?
check "capture: exit 0 (exit $rc: $(tail -1 "$work/cap.err"))" test $rc -eq 0
[ -f "$cap" ] || finish
check "capture: file mode 0600" test "$(stat -c %a "$cap")" = 600
python3 "$root/tests/gpu/replay_kdcap.py" "$cap" | sed 's/^/     /' | tee -a "$summary"
python3 "$root/tests/gpu/replay_kdcap.py" "$cap" --triton >"$work/section.txt" 2>&1
rc=$?
sed 's/^/     /' "$work/section.txt" | tee -a "$summary"
check "capture: the file has the Triton section of kd_triton_kernel (format 2)" test $rc -eq 0

# 3a. Replay with the Triton .py on both sides.
"$kd" --launch "$cap" --no-ncu --max-time 5 --json "$work/aa_py.json" "$here/tk.py" "$here/tk.py" >"$work/aa_py.txt" 2>"$work/aa_py.err"
rc=$?
if [ $rc = 0 ]; then
    ok "replay A/A, .py sides: exit 0"
    grep -E '^(no significant|v[12] (is|still|differs)|not compared)' "$work/aa_py.txt" | sed 's/^/     /' | tee -a "$summary"
    aa_checks "replay A/A, .py sides" "$work/aa_py.json" "$work/aa_py.txt" "$prog_us"
else
    bad "replay A/A, .py sides: exit $rc: $(grep -v '^\s*$' "$work/aa_py.err" | tail -2 | tr '\n' ' ')"
fi

# 3c. A v2 .py computing something else (the loop's y * 0.5 + t made y * 0.25 + t): named as differing.
sed 's/y = y \* 0.5 + t/y = y * 0.25 + t/' "$here/tk.py" >"$work/tk_v2.py"
check ".py v2: the sed changed the kernel" sh -c "! cmp -s '$here/tk.py' '$work/tk_v2.py'"
"$kd" --launch "$cap" --no-ncu --max-time 2 "$here/tk.py" "$work/tk_v2.py" >"$work/v2_py.txt" 2>"$work/v2_py.err"
rc=$?
grep -E '^v[12] (still|differs)' "$work/v2_py.txt" | sed 's/^/     /' | tee -a "$summary"
check ".py v2: exit 0 (exit $rc$( [ $rc = 0 ] || echo ": $(grep -v '^\s*$' "$work/v2_py.err" | tail -1)"))" test $rc -eq 0
check ".py v2: v1 still computes what the program computed" grep -q '^v1 still computes what the program computed' "$work/v2_py.txt"
check ".py v2: differs from the program's result at its first differing element" \
    grep -Eq "^v2 differs from the program.s result at .+\[[0-9]+\] \(v2 .*, program .*\)$" "$work/v2_py.txt"
# the build line: the JIT's own compile of the captured launch
check ".py sides: built as the JIT compiled the captured launch" grep -q 'as its JIT compiled the captured launch' "$work/aa_py.txt"

# 3b. Replay with the PTX Triton compiled, on both sides.
if [ -n "$arch" ]; then
    cp "$ptx" "$work/k.ptx"
    "$kd" --launch "$cap" --arch "$arch" --no-ncu --max-time 5 --json "$work/aa_ptx.json" "$work/k.ptx" "$work/k.ptx" \
        >"$work/aa_ptx.txt" 2>"$work/aa_ptx.err"
    rc=$?
    check "replay A/A, PTX sides: exit 0 (exit $rc$( [ $rc = 0 ] || echo ": $(tail -1 "$work/aa_ptx.err")"))" test $rc -eq 0
    grep -E '^(no significant|v[12] (is|still|differs)|not compared)' "$work/aa_ptx.txt" | sed 's/^/     /' | tee -a "$summary"
    aa_checks "replay A/A, PTX sides" "$work/aa_ptx.json" "$work/aa_ptx.txt" "$prog_us"
    # a v2 computing something else: the loop's y * 0.5 + t made y * 0.25 + t
    sed 's/0f3F000000/0f3E800000/g' "$work/k.ptx" >"$work/k_v2.ptx"
    check "PTX v2: the sed changed the loop constant" sh -c "! cmp -s '$work/k.ptx' '$work/k_v2.ptx'"
    "$kd" --launch "$cap" --arch "$arch" --no-ncu --max-time 2 "$work/k.ptx" "$work/k_v2.ptx" >"$work/v2.txt" 2>"$work/v2.err"
    grep -E '^v[12] (still|differs)' "$work/v2.txt" | sed 's/^/     /' | tee -a "$summary"
    check "PTX v2: differs from the program's result at its first differing element" \
        grep -Eq "^v2 differs from the program.s result at .+\[[0-9]+\] \(v2 .*, program .*\)$" "$work/v2.txt"
fi
finish
