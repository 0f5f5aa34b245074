#!/usr/bin/env bash
# Issue 31: why in-process counters and ncu disagree. For each kernel that disagreed on the H100
# (tests/gpu/results-counters.txt: copy, fma_loop, bank_conflicts, fma_short), the same launch
# profiled by ncu (--cache-control all, none) and by the harness's CUPTI range profiler under
# every L2 preparation KERNDIFF_COUNTER_PREP offers (touch, memset, read, discard, clean, none)
# and under CUPTI's kernel replay (tests/gpu/counters_experiment.py). Prints the tables; copies
# them to $OUT/counters-experiment.txt when OUT is set.
#   tests/gpu/counters_experiment.sh BUILD_DIR
set -u
BUILD=$(realpath "${1:-build}")
KD="$BUILD/kerndiff"
K=tests/gpu/kernels
WORK=$(mktemp -d)
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 KERNDIFF_WIDTH=0 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
SUMMARY="${OUT:+$OUT/counters-experiment.txt}"
SUMMARY="${SUMMARY:-$WORK/summary.txt}"
echo "counters_experiment: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), kerndiff $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p'); libcupti ${KERNDIFF_CUPTI_LIBRARY:-system default}, CUPTI cache control ${KERNDIFF_CUPTI_CACHE_CONTROL:-default (all where the CUPTI has it)}" | tee -a "$SUMMARY"
one() { # NAME ARGS... (a kerndiff A/A diff: compiles the kernel and gives its launch)
    local name=$1; shift
    if ! timeout 60 "$KD" --no-ncu --max-time 0.2 --json="$WORK/$name.json" "$@" >"$WORK/$name.txt" 2>&1; then
        echo "FAIL $name: kerndiff did not run: $(tail -3 "$WORK/$name.txt")" | tee -a "$SUMMARY"; return
    fi
    timeout 200 python3 tests/gpu/counters_experiment.py "$WORK/$name.json" "$BUILD/kerndiff-harness" "$name" \
        "${OUT:-$WORK}/experiment-$name.json" 2>&1 | tee -a "$SUMMARY"
}
KERNELS="${EXPERIMENT_KERNELS:-copy fma_short bank_conflicts fma_loop}"
for k in ${KERNELS//,/ }; do   # spaces or commas
    case $k in
    copy) one copy --n 33554432 "$K/copy.cu" "$K/copy.cu" ;;
    fma_short) one fma_short --arg iters=400 "$K/fma_loop.cu" "$K/fma_loop.cu" ;;
    fma_5us) one fma_5us --arg iters=200 "$K/fma_loop.cu" "$K/fma_loop.cu" ;;   # counters_inproc.sh's 5 us kernel
    bank_conflicts) one bank_conflicts examples/bank_conflicts/v1.cu examples/bank_conflicts/v1.cu ;;
    fma_loop) one fma_loop "$K/fma_loop.cu" "$K/fma_loop.cu" ;;
    esac
done
# The preparation whose counters disagree with ncu least, over every kernel (ties: the first).
python3 - "$SUMMARY" <<'PY' | tee -a "$SUMMARY"
import collections, sys
total = collections.Counter()
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) >= 3 and w[0] == "fails" and w[1].startswith("cupti_"):
        total[w[1][6:]] += int(w[2])
if total:
    print("disagreeing counters over all kernels: " + ", ".join(f"{k} {v}" for k, v in total.items()))
    preps = [k for k in total if k not in ("kreplay", "urange")]  # replay modes: not a preparation
    if preps:
        best = min(preps, key=lambda k: (total[k], preps.index(k)))
        print("best prep: " + best)
        # What a verification run should use: the user range if it beats every preparation.
        urange = "urange" in total and total["urange"] < total[best]
        print(f"choice: KERNDIFF_COUNTER_PREP={'touch' if urange else best}"
              f" KERNDIFF_CUPTI_REPLAY={'user-range' if urange else 'user'}")
PY
