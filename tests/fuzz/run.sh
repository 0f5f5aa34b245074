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
        mkdir -p "$build/seeds/nsys"
        python3 tests/e2e/make_nsys_sqlite.py "$build/seeds/nsys/three-nvtx.sqlite" three --nvtx
        python3 tests/e2e/make_nsys_sqlite.py "$build/seeds/nsys/fused.sqlite" fused
        ls "$build"/seeds/nsys/* ;;
    esac
}
for target in "$build"/fuzz/fuzz_*; do
    name=$(basename "$target")
    corpus="$build/corpus/$name"
    mkdir -p "$corpus"
    # Named by their path: the examples' v1.cu and v2.cu would otherwise overwrite each other.
    seeds_for "$name" | while read -r f; do cp "$f" "$corpus/$(printf '%s' "$f" | tr / _)"; done
    echo "== $name (${seconds}s)"
    "$target" -max_total_time="$seconds" -print_final_stats=1 "$corpus" >"$build/$name.log" 2>&1 || {
        tail -n 60 "$build/$name.log"; echo "fuzz target $name failed"; exit 1; }
    grep -E '^(stat::number_of_executed_units|Done)' "$build/$name.log" || tail -n 3 "$build/$name.log"
done
