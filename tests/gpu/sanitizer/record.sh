#!/usr/bin/env bash
# Records compute-sanitizer's output on the planted kernels, through kerndiff's own harness
# and protocol, as fixtures for the parser (tests/fixtures/sanitizer/*.log, each with the
# harness's replies in *.replies and the command in commands.txt). Needs a GPU.
#   tests/gpu/sanitizer/record.sh BUILD_DIR OUT_DIR
set -u
BUILD=$(realpath "${1:-build}")
OUT=${2:-tests/fixtures/sanitizer}
mkdir -p "$OUT"
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
nvcc -arch=sm_90 -lineinfo -cubin -o "$WORK/planted.cubin" "$ROOT/tests/gpu/sanitizer/planted.cu" || exit 1
: >"$OUT/commands.txt"
record() { # NAME TOOL ENTRY BLOCK
    local cmds="hello 2
load cubin $WORK/planted.cubin $3
arg 0 buffer f32 1 1024 in
arg 1 buffer f32 1 1024 out
arg 2 scalar i32 1024
geometry 4 1 1 $4 1 1 0
seed 1
setup guard
buffers
once
quit"
    echo "compute-sanitizer --tool $2 --log-file $1.log --print-limit 20 --report-api-errors no $BUILD/kerndiff-harness  # $3, block $4, setup guard" >>"$OUT/commands.txt"
    printf '%s\n' "$cmds" | timeout 120 compute-sanitizer --tool "$2" --log-file "$OUT/$1.log" --print-limit 20 --report-api-errors no \
        "$BUILD/kerndiff-harness" >"$OUT/$1.replies" 2>"$WORK/$1.err"
    echo "$1: exit $?, $(wc -l <"$OUT/$1.log") log lines, replies: $(tr '\n' '|' <"$OUT/$1.replies" | cut -c1-200)"
}
record memcheck_oob_write memcheck oob_write 256
record memcheck_oob_read memcheck oob_read 256
record racecheck_smem racecheck smem_race 256
record synccheck_divergent synccheck divergent_sync 256
record synccheck_warp synccheck warp_sync_half 256
record synccheck_mask synccheck warp_sync_bad_mask 256
record initcheck_uninit initcheck uninit_read 256
record memcheck_smem_overflow memcheck smem_overflow 256
record memcheck_clean memcheck clean_copy 256
sed -i "s#$WORK#WORK#g; s#$BUILD#BUILD#g" "$OUT"/*.log "$OUT"/*.replies 2>/dev/null
