#!/usr/bin/env bash
# Renders kerndiff's HTML report (--html, with --csv beside it) for the bundled example
# (examples/vector_loads), a size sweep (examples/crossover), a `kerndiff compare` of two
# saved runs, a `--regions` diff (examples/regions: the per-region bars and timeline) and a
# `kerndiff app` of two stand-in programs (tests/fakes/fake_app: recorded activity), all through the simulated harness (KERNDIFF_SIMULATE: synthetic times, not a
# measurement), with the recorded-ncu stand-in and the fake NVML so that the counters and
# the roofline are there; then screenshots each page with headless Chromium.
# tests/e2e/html.sh checks what it makes; docs/images/ holds its screenshots:
#   scripts/example-pictures.sh build/kerndiff build/tests/libfake_nvml.so OUTDIR
set -euo pipefail
KD=$(realpath "$1") NVML=$(realpath "$2") OUT=$3
CHROMIUM=${CHROMIUM:-chromium}
cd "$(dirname "$0")/.."
mkdir -p "$OUT"
export KERNDIFF_NVML_LIBRARY="$NVML" FAKE_NCU_FIXTURES=tests/fixtures/ncu/single
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
KERNDIFF_SIMULATE="median=65us,cv=1%,drift=2%,outliers=3%,seed=3;median=51us,cv=1%,seed=4" \
    "$KD" --ncu tests/fakes/fake_ncu --html "$OUT/diff.html" --csv "$OUT/diff.csv" --save "$OUT/new.json" "$A" "$B" >"$OUT/diff.txt"
KERNDIFF_SIMULATE="median=60us,cv=1%,seed=5;median=50us,cv=1%,seed=6" \
    "$KD" --ncu tests/fakes/fake_ncu --save "$OUT/old.json" "$A" "$B" >/dev/null
"$KD" compare --html "$OUT/compare.html" --csv "$OUT/compare.csv" "$OUT/old.json" "$OUT/new.json" >"$OUT/compare.txt"
KERNDIFF_SIMULATE="median=50us,seed=1;median=40us,seed=2" \
    "$KD" --n 1K..1M:x4 --html "$OUT/sweep.html" --csv "$OUT/sweep.csv" examples/crossover/v1.cu examples/crossover/v2.cu >"$OUT/sweep.txt"
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000,seed=7;median=700us,cv=0.3%,regions=2000+20000,seed=8" \
    "$KD" --regions --html "$OUT/regions.html" examples/regions/v1.cu examples/regions/v2.cu >"$OUT/regions.txt"
FA=$PWD/tests/fakes/fake_app
"$KD" app --steps 100 --html "$OUT/app.html" "$FA three" "$FA fused" >"$OUT/app.txt"
# The window's height is the screenshot's: each shows its page's charts.
for page in diff:2500 sweep:1250 compare:2000 regions:3000 app:1700; do
    name=${page%%:*}
    "$CHROMIUM" --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$OUT/.chromium" \
        --window-size=1000,${page#*:} --screenshot="$OUT/$name.png" "file://$(realpath "$OUT/$name.html")" 2>/dev/null
done
