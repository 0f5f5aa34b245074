#!/usr/bin/env bash
# The record designs of include/kerndiff/regions.h, measured apart from kerndiff (on a GPU):
#   bench/region_record_variants.sh > bench/region_record_variants.txt
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-rvar.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
echo "# bench/region_record_variants.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1)"
nvcc -arch=native -O3 -o "$WORK/variants" "$ROOT/bench/region_record_variants.cu"
"$WORK/variants"
