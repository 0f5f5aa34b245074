#!/bin/sh
# GPU must-show of issue 30 (c): a kernel-experiment program (prog.cu: one .cu whose main() sets
# sizes, allocates and launches kernel version K chosen by argv[1], kernel1..kernel4).
#  - `kerndiff --from './prog 3' --fn kernel3 prog.cu prog_v2.cu` runs with no other flag
#    (prog_v2.cu changes kernel3 but computes the same sums in the same order): exit 0, a
#    verdict, both sides still compute what the program computed;
#  - a v2 computing something else (kernel3's `+ beta * C` made `- beta * C`) is reported as
#    differing from the program's result, with the first differing element (C[0]).
#   tests/gpu/replay_experiment/run.sh BUILD_DIR      (needs nvcc; < 90 s)
# Works in $WORK (default a temp folder): the commands run there, as a user would in the
# experiment's folder; the summary goes to $OUT when set.
. "$(dirname "$0")/../replay_common.sh"
here=$root/tests/gpu/replay_experiment
need "$kd" "$build/kerndiff-harness" "$build/libkerndiff-inject.so"
cd "$work" || exit 1
cp "$here/prog.cu" "$here/prog_v2.cu" .
sed 's/C\[threadRow \* N + threadCol\] = alpha \* tmp + beta \* C\[threadRow \* N + threadCol\];/C[threadRow * N + threadCol] = alpha * tmp - beta * C[threadRow * N + threadCol];/' \
    prog.cu >prog_other.cu
check "prog_other.cu: the sed changed kernel3" sh -c "! cmp -s prog.cu prog_other.cu"

nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
"$nvcc" -O2 -arch=${ARCH:-sm_90} -o prog prog.cu 2>nvcc.err
rc=$?
check "nvcc prog.cu (exit $rc$( [ $rc = 0 ] || echo ": $(head -c 300 nvcc.err)"))" test $rc -eq 0
[ $rc = 0 ] || finish
./prog 3 >prog.out 2>prog.err
rc=$?
check "./prog 3 alone: exit 0 ($(cat prog.out prog.err | head -1))" test $rc -eq 0

# The must-show's command, with no other flag.
"$kd" --from './prog 3' --fn kernel3 prog.cu prog_v2.cu >from.txt 2>from.err
rc=$?
check "--from './prog 3' --fn kernel3 prog.cu prog_v2.cu: exit 0 (exit $rc$( [ $rc = 0 ] || echo ": $(grep -v '^\s*$' from.err | tail -1)"))" test $rc -eq 0
grep -E '^(  v1, v2:|  from:|no significant|v2 is|v1 is|outputs|OUTPUTS|v[12] (still|differs)|not compared)' from.txt | sed 's/^/     /' | tee -a "$summary"
check "--from: the launch came from the program (from: line names ./prog 3)" grep -q '^  from:   launch 1 of kernel3(.*program: \./prog 3;' from.txt
check "--from: a timing verdict" grep -Eq '^(no significant difference|v2 is [0-9.]+x (faster|slower))' from.txt
check "--from: v1 still computes what the program computed" grep -q '^v1 still computes what the program computed' from.txt
check "--from: v2 (same sums) still computes what the program computed" grep -q '^v2 still computes what the program computed' from.txt

# A v2 that computes something else (timing kept short: the result is what is checked).
"$kd" --from './prog 3' --fn kernel3 --no-ncu --max-time 2 prog.cu prog_other.cu >other.txt 2>other.err
rc=$?
check "changed v2: exit 0 (exit $rc$( [ $rc = 0 ] || echo ": $(grep -v '^\s*$' other.err | tail -1)"))" test $rc -eq 0
grep -E '^(outputs|OUTPUTS|v[12] (still|differs))' other.txt | sed 's/^/     /' | tee -a "$summary"
check "changed v2: v1 still computes what the program computed" grep -q '^v1 still computes what the program computed' other.txt
check "changed v2: differs from the program's result at C[0], values named" \
    grep -Eq "^v2 differs from the program.s result at C\[0\] \(v2 -?[0-9.e+-]+, program -?[0-9.e+-]+\)$" other.txt
finish
