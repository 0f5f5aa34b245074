#!/usr/bin/env bash
# Issue 26: a Triton file whose module level runs a 30 s benchmark after its launch is built in
# its capture time: kerndiff stops the program at the launch. Times `kerndiff --no-ncu F F` on
# the file with the benchmark (slow_main.py) and on the same file without it (quick.py), three
# times each, alternating, on one GPU; the difference is what the benchmark costs kerndiff.
# usage: bench/triton_capture.sh [BUILD_DIR] > bench/triton_capture.txt   (needs a GPU, torch)
set -u
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
echo "# bench/triton_capture.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
for i in 1 2 3; do
    for f in quick slow_main; do
        s=$(date +%s.%N)
        "$BUILD/kerndiff" --no-ncu "bench/triton_capture/$f.py" "bench/triton_capture/$f.py" >/tmp/kd_bench_$f.txt 2>&1
        rc=$?
        e=$(date +%s.%N)
        printf '%-10s run %d: %.2f s (exit %d)\n' "$f" "$i" "$(python3 -c "print($e - $s)")" "$rc"
    done
done
grep -m1 'JIT, the launch at' /tmp/kd_bench_slow_main.txt
