#!/usr/bin/env bash
# The bounds guard on a GPU (issue 39): a launch that writes past a buffer's end is not timed,
# and one that stays within its buffers is timed as before.
#   oob_tail:     scale4 (float4, bounded by the vector's first element) with --n 1001 writes 3
#                 floats past y: exit 5, "writes past the end of buffer y ... 12 bytes beyond it"
#   in_bounds:    the same kernel with its tail handled, --n 1001: exit 0, timed
#   oob_grid:     an unguarded copy with 64 blocks too many: exit 5, buffer y named
#   aligned:      scale4 with --n 1M (a multiple of 4): in bounds, exit 0
#   oob_grid_guard: oob_grid with --no-launch-memcheck: the guard's own refusal
#   read_guess:   window_sum<256> (each block reads 2 tiles) with --buf x=4096 --n 4096 and the
#                 default grid: the last block reads 1 KiB past x, a read the guard cannot see;
#                 the launch check (memcheck before timing) refuses it: exit 5
#   read_unchecked: the same with --no-launch-memcheck: timed (what the guard alone misses)
#   read_told:    the same with --grid 15 (told, in bounds): not re-run, exit 0
# Results to $OUT/results-bounds.txt.     tests/gpu/bounds.sh BUILD_DIR
set -u
BUILD=$(realpath "${1:-build}")
KD="$BUILD/kerndiff"
H=tests/gpu/bounds
WORK=$(mktemp -d)
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 KERNDIFF_WIDTH=0 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
R="${OUT:-$WORK}/results-bounds.txt"
say() { echo "$*" | tee -a "$R"; }
pass=0 failed=0
check() { if [ "$2" = 0 ]; then pass=$((pass + 1)); say "ok   $1: $3"; else failed=$((failed + 1)); say "FAIL $1: $3"; fi; }
say "bounds: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), build $(cat "$BUILD/commit.txt" 2>/dev/null || echo '?')"
one() { # NAME WANT_EXIT PATTERN(in stderr, or '' for none) ARGS...
    local name=$1 want=$2 pat=$3; shift 3
    timeout 60 "$KD" --no-ncu --max-time 0.5 "$@" >"$WORK/$name.out" 2>"$WORK/$name.err"
    local rc=$?
    local line; line=$(grep -m1 -E 'writes past the end|faster|slower|no significant|INCORRECT' "$WORK/$name.err" "$WORK/$name.out" | cut -c1-300)
    if [ -n "$pat" ]; then
        check "$name" "$([ "$rc" = "$want" ] && grep -Eq "$pat" "$WORK/$name.err"; echo $?)" "exit $rc (want $want): $line"
    else
        check "$name" "$([ "$rc" = "$want" ] && ! grep -q 'writes past the end' "$WORK/$name.err"; echo $?)" "exit $rc (want $want): $line"
    fi
    [ "$rc" = "$want" ] || sed 's/^/     /' "$WORK/$name.err" | head -5 | tee -a "$R"
}
one oob_tail 5 'writes past the end of buffer y \(1001 elements, 4004 bytes.*wrote 12 bytes beyond it' --n 1001 --block 256 --grid 1 "$H/scale4_tail.cu" "$H/scale4.cu"
one in_bounds 0 '' --n 1001 --block 256 --grid 1 "$H/scale4_tail.cu" "$H/scale4_tail.cu"
one oob_grid 5 'writes past the end of buffer y|the launch kerndiff assumed for v2 accesses memory outside' --n 1M "$H/scale4_tail.cu" "$H/unguarded.cu"
one oob_grid_guard 5 'writes past the end of buffer y' --no-launch-memcheck --n 1M "$H/scale4_tail.cu" "$H/unguarded.cu"
T0=$(date +%s%N)
one read_guess 5 'under compute-sanitizer memcheck, the launch kerndiff assumed for v1 and v2 accesses memory outside' --buf x=4096 --n 4096 "$H/window_sum.cu" "$H/window_sum.cu"
T1=$(date +%s%N)
grep -E 'checked:|memcheck:' "$WORK/read_guess.out" | head -3 | sed 's/^/     /' | tee -a "$R"
one read_unchecked 0 '' --no-launch-memcheck --buf x=4096 --n 4096 "$H/window_sum.cu" "$H/window_sum.cu"
T2=$(date +%s%N)
one read_told 0 '' --grid 15 --buf x=4096 --n 4096 "$H/window_sum.cu" "$H/window_sum.cu"
say "wall: read_guess (memcheck, refused) $(( (T1 - T0) / 1000000 )) ms; read_unchecked (timed, --max-time 0.5) $(( (T2 - T1) / 1000000 )) ms"
one aligned 0 '' --n 1M --block 256 --grid 1024 "$H/scale4_tail.cu" "$H/scale4.cu"
say "bounds: $pass ok, $failed FAIL"
rm -rf "$WORK"
[ "$failed" = 0 ]
