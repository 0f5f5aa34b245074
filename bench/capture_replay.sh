#!/usr/bin/env bash
# The capture file's overhead on a 1 GiB working set (issue 30, "bench/"), on a machine
# WITHOUT a GPU: what the capture file itself costs, not the injection library's copies.
#   1. raw:     a raw capture folder as libkerndiff-inject.so leaves one (docs/CAPTURE.md
#               "The raw folder"): 4 allocations x 256 MiB of float data (sine, zeros, sine,
#               zeros) before the launch, and the one the kernel changed after it (1.25 GiB);
#   2. pack:    kd_capture_pack, what `kerndiff capture` does once the program stopped
#               (zlib level 1, an unchanged allocation's after stored once, 0600, renamed);
#   3. extract: kd_capture_extract of every blob, checksums checked (what --launch does first);
#   4. replay:  `kerndiff --launch FILE v1.cu v2.cu` end to end on the simulated harness
#               (KERNDIFF_SIMULATE: extraction, both sides filled with 1 GiB each, outputs
#               compared with the program's result), --max-time 1.
# Seconds (wall) and MB written (10^6 bytes) per step. NOT measured (no GPU here): the
# injection library's device-to-host copies at capture and the harness's host-to-device
# fill at replay (no device time was used for this bench).
#   make BUILD=build && bench/capture_replay.sh [BUILD_DIR] [MIB_PER_ALLOCATION] | tee bench/capture_replay.txt
set -eu
BUILD=$(realpath "${1:-build}")
MIB=${2:-256}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
[ -x "$BUILD/kerndiff" ] && [ -f "$BUILD/libkerndiff.a" ] || { echo "capture_replay.sh: build $BUILD first (make BUILD=$BUILD all)" >&2; exit 1; }
cc -O2 -std=c11 -D_GNU_SOURCE -I"$ROOT/src" -o "$WORK/tool" "$ROOT/bench/capture_replay_tool.c" "$BUILD/libkerndiff.a" \
    -ljansson -lnettle -lsqlite3 -lz -ldl -lm -lstdc++
mb() { du -sb "$@" | awk '{s += $1} END {printf "%.1f", s / 1e6}'; }
secs() { sed -n 's/^seconds //p'; }
echo "# capture file overhead, $((4 * MIB)) MiB working set ($(date -u '+%Y-%m-%d %H:%M UTC'))"
echo "# machine: $(uname -srm), $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), no GPU"
echo "# commit: $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p') (the build's; + where its sources differed from that commit)"
echo "# not measured: the GPU part (the injection library's device-to-host copies at capture, the harness's fills at replay)"
printf '%-10s %10s %12s  %s\n' step seconds "MB written" note
mkdir -p "$WORK/raw" "$WORK/out"
s=$("$WORK/tool" raw "$WORK/raw" "$MIB" | secs)
printf '%-10s %10s %12s  %s\n' raw "$s" "$(mb "$WORK/raw")" "stands in for the injection library's files (its copies not timed)"
s=$("$WORK/tool" pack "$WORK/raw" "$WORK/bench.kdcap" | secs)
printf '%-10s %10s %12s  %s\n' pack "$s" "$(mb "$WORK/bench.kdcap")" "the capture file (zlib 1; raw $(mb "$WORK/raw") MB)"
sync; s=$("$WORK/tool" extract "$WORK/bench.kdcap" "$WORK/out" | secs)
extracted=$(mb "$WORK/out")
printf '%-10s %10s %12s  %s\n' extract "$s" "$extracted" "every blob, checksums checked"
rm -rf "$WORK/raw" "$WORK/out"
cat >"$WORK/v1.cu" <<'CU'
__global__ void scale(const float *a, const float *b, const float *c, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a[i];
}
CU
cp "$WORK/v1.cu" "$WORK/v2.cu"
mkdir -p "$WORK/tmp"
t0=$(date +%s%N)
TMPDIR="$WORK/tmp" KERNDIFF_NO_GPU=1 KERNDIFF_SIMULATE="copy=all" \
    "$BUILD/kerndiff" --launch "$WORK/bench.kdcap" --max-time 1 "$WORK/v1.cu" "$WORK/v2.cu" >"$WORK/replay.out" 2>&1 ||
    { cat "$WORK/replay.out" >&2; exit 1; }
t1=$(date +%s%N)
matched=$(grep -c 'still computes what the program computed' "$WORK/replay.out" || true)
cp "$WORK/replay.out" "${KD_BENCH_KEEP:-/dev/null}" 2>/dev/null || true
printf '%-10s %10s %12s  %s\n' replay "$(awk "BEGIN {printf \"%.3f\", ($t1 - $t0) / 1e9}")" "$extracted" \
    "kerndiff --launch, simulated harness, both sides ($matched of 2 match the program's result); MB: its extraction, as above"
