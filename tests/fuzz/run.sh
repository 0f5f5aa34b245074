#!/usr/bin/env bash
# Runs each fuzz target briefly from a seed corpus of real inputs (a scratch copy, so the
# repository is never written). usage: tests/fuzz/run.sh BUILD_DIR SECONDS
set -euo pipefail
build=$1 seconds=$2
seeds_for() {
    case $1 in
    fuzz_scan) ls examples/*/*.cu tests/fixtures/src/*.cu tests/e2e/fixtures/region*.cu 2>/dev/null ;;
    fuzz_ptx) ls tests/fixtures/ptx/* tests/fixtures/sass/* 2>/dev/null ;;
    fuzz_expr) ls tests/fuzz/seeds/expr/* ;;
    fuzz_ncu_csv) ls tests/fixtures/ncu/*/*.csv ;;
    fuzz_json) ls tests/fuzz/seeds/json/* ;;
    fuzz_sanitizer) ls tests/fixtures/sanitizer/*.log ;;
    fuzz_cache) ls tests/fuzz/seeds/cache/* ;;
    fuzz_capture) ls tests/fuzz/seeds/capture/* ;;
    fuzz_heat) ls tests/fuzz/seeds/heat/* ;;
    fuzz_hotspots) ls tests/fuzz/seeds/hotspots/* ;;
    fuzz_nsys_sqlite) # nsys's tables, made as app's e2e makes them (no binary seed in the tree)
        rm -rf "$build/seeds/nsys" && mkdir -p "$build/seeds/nsys" # made anew: the script adds to a file that is there
        python3 tests/e2e/make_nsys_sqlite.py "$build/seeds/nsys/three-nvtx.sqlite" three --nvtx
        python3 tests/e2e/make_nsys_sqlite.py "$build/seeds/nsys/fused.sqlite" fused
        ls "$build"/seeds/nsys/* ;;
    esac
}
# One target: its corpus seeded, SECONDS of fuzzing; its lines in $build/NAME.summary.
run_one() {
    local target=$1 name corpus
    name=$(basename "$target")
    corpus="$build/corpus/$name"
    mkdir -p "$corpus"
    # Named by their path: the examples' v1.cu and v2.cu would otherwise overwrite each other.
    seeds_for "$name" | while read -r f; do cp "$f" "$corpus/$(printf '%s' "$f" | tr / _)"; done
    echo "== $name (${seconds}s)"
    if ! "$target" -max_total_time="$seconds" -print_final_stats=1 "$corpus" >"$build/$name.log" 2>&1; then
        tail -n 60 "$build/$name.log"
        echo "fuzz target $name failed"
        return 1
    fi
    grep -E '^(stat::number_of_executed_units|Done)' "$build/$name.log" || tail -n 3 "$build/$name.log"
}
# As many targets at once as there are cores (each fuzzer is one process on one core): the
# same seconds each, in a fraction of the time one after another took (issue 41 item 2).
lanes=$(nproc 2>/dev/null || echo 2)
targets=("$build"/fuzz/fuzz_*)
pids=() failed=0
for target in "${targets[@]}"; do
    run_one "$target" >"$build/$(basename "$target").summary" 2>&1 &
    pids+=($!)
    if [ "${#pids[@]}" -ge "$lanes" ]; then
        wait "${pids[0]}" || failed=1
        pids=("${pids[@]:1}")
    fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
for target in "${targets[@]}"; do cat "$build/$(basename "$target").summary"; done
[ "$failed" = 0 ] || { echo "fuzz-run: a target failed (above)"; exit 1; }
