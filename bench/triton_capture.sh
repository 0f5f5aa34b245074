#!/usr/bin/env bash
# Issue 26: a Triton file whose module level runs a 30 s benchmark after its launch is built in
# its capture time: kerndiff stops the program at the launch. Times `kerndiff --no-ncu F F` on
# the file with the benchmark (slow_main.py) and on the same file without it (quick.py), two
# times each (two), alternating, on one GPU, each with an empty build cache (v1's capture runs the
# program; v2, the same file, takes v1's capture from the cache); then once more each with the
# cache warm (no program run at all).
# usage: bench/triton_capture.sh [BUILD_DIR] > bench/triton_capture.txt   (needs a GPU, torch)
set -u
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
# on the device machine: the table also goes to $OUT (the lead's run returns it)
if [ -n "${OUT:-}" ]; then exec > >(tee "$OUT/triton_capture.txt"); fi
echo "# bench/triton_capture.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
run() { # run LABEL FILE CACHE
    local s e rc
    s=$(date +%s.%N)
    XDG_CACHE_HOME="$3" "$BUILD/kerndiff" --no-ncu "bench/triton_capture/$2.py" "bench/triton_capture/$2.py" >"$T/$2.txt" 2>&1
    rc=$?
    e=$(date +%s.%N)
    printf '%-10s %-18s %.2f s (exit %d)\n' "$2" "$1" "$(python3 -c "print($e - $s)")" "$rc"
}
for i in 1 2; do
    for f in quick slow_main; do run "run $i, cold cache" "$f" "$T/cache-$f-$i"; done
done
for f in quick slow_main; do run "warm cache" "$f" "$T/cache-$f-2"; done
grep -m2 'JIT, the launch at' "$T/slow_main.txt"
