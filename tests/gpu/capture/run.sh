#!/bin/sh
# GPU check of `kerndiff capture`'s injection library (issue 30 item 1), run by the lead on a GPU:
#   tests/gpu/capture/run.sh [BUILD_DIR]      (default build-gpu; needs BUILD_DIR/libkerndiff-inject.so)
# Builds tests/gpu/capture/prog.cu (one kernel launched 21 times each through <<<>>>,
# cudaLaunchKernelEx and cuLaunchKernel, each way with its own sizes: a warm-up, then 20 timed
# launches), runs it once plainly (its result files and CUDA-event medians, and each way's
# first launch number, first_k), then captures the first launch of each way with
# the library (CUDA_INJECTION64_PATH, KERNDIFF_CAPTURE_*) and checks the raw folders against
# /work/briefs/s2/capture-raw.md: status, kernel, grid/block/cluster, parameter layout, the
# pointer words (incl. one inside a by-value struct, at an offset inside its allocation), blob
# sizes, before = what the program uploaded, after = the program's own result file. Also: the
# program stops at the capture (exit 0) unless KERNDIFF_CAPTURE_CONTINUE=1; a kernel never
# launched leaves status not-found with the kernels seen; the byte cap refuses (exit 3).
# Works in $WORK (default: a temp folder, printed); the summary and the manifests (one file) are
# also copied to $OUT when it is set. Exit 1 on any failure.
set -u
build=${1:-build-gpu}
root=$(cd "$(dirname "$0")/../../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
lib=$build/libkerndiff-inject.so
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
summary=$work/capture-summary.txt
: >"$summary"
fails=0 passes=0
say() { echo "$*" | tee -a "$summary"; }
ok() { passes=$((passes + 1)); say "ok   $*"; }
bad() { fails=$((fails + 1)); say "FAIL $*"; }
check() { # check MSG COMMAND...: ok when the command succeeds
    msg=$1; shift
    if "$@" >/dev/null 2>&1; then ok "$msg"; else bad "$msg"; fi
}
has() { grep -qx -- "$2" "$1"; } # has FILE LINE: the exact line is there
size_of() { wc -c <"$1" | tr -d ' '; }

[ -f "$lib" ] || { say "FAIL no $lib (make BUILD=$build all)"; exit 1; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if ! "$nvcc" -O2 -arch=${ARCH:-sm_90} -o "$work/prog" "$root/tests/gpu/capture/prog.cu" -lcuda 2>"$work/nvcc.err"; then
    say "FAIL nvcc prog.cu: $(cat "$work/nvcc.err")"; exit 1
fi
MANGLED=_Z17kd_capture_kernelPfPKf5Extrai
# field NAME LINE: the value after the word NAME in one of the program's `launch` lines
field() { echo "$2" | awk -v k="$1" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}'; }

# The plain run: the program's own results and medians.
mkdir -p "$work/base"
if ! "$work/prog" "$work/base" >"$work/base.out" 2>"$work/base.err"; then
    say "FAIL the program without kerndiff: $(cat "$work/base.err")"; exit 1
fi
say "program's own run:"; cat "$work/base.out" | tee -a "$summary"

# capture NAME WAY_DIR ENV...: runs the program under the library; sets rc.
capture() {
    name=$1; shift
    rm -rf "$work/$name"; mkdir -p "$work/$name/raw" "$work/$name/res"
    env CUDA_INJECTION64_PATH="$lib" KERNDIFF_CAPTURE_DIR="$work/$name/raw" "$@" \
        "$work/prog" "$work/$name/res" >"$work/$name/stdout" 2>"$work/$name/stderr"
    rc=$?
    [ -f "$work/$name/raw/manifest" ] && cp "$work/$name/raw/manifest" "$work/$name.manifest"
}

for w in 1 2 3; do
    line=$(grep "^launch $w " "$work/base.out")
    n=$(field n "$line")
    grid=$(field grid "$line")
    cluster=$(field cluster "$line")
    k=$(field first_k "$line")
    case $w in
    1) fn=$MANGLED ;;
    2) fn=kd_capture_kernel ;;
    3) fn='kd_capture_kernel(float*, float const*, Extra, int)' ;;
    esac
    capture way$w KERNDIFF_CAPTURE_FN="$fn" KERNDIFF_CAPTURE_NTH=$k
    m=$work/way$w/raw/manifest raw=$work/way$w/raw
    say "-- way $w (fn '$fn', K=$k): program exit $rc"
    [ -f "$raw/unavailable" ] && say "   unavailable: $(cat "$raw/unavailable")"
    check "way $w: the program stopped at the capture with exit 0" test "$rc" -eq 0
    check "way $w: manifest written" test -f "$m"
    [ -f "$m" ] || continue
    grep '^error' "$m" | sed 's/^/   /' | tee -a "$summary"
    check "way $w: status captured" has "$m" "status captured"
    check "way $w: kernel $MANGLED" has "$m" "kernel $MANGLED"
    check "way $w: nth $k" has "$m" "nth $k"
    check "way $w: grid $grid 1 1" has "$m" "grid $grid 1 1"
    check "way $w: block 256 1 1" has "$m" "block 256 1 1"
    check "way $w: shared 0" has "$m" "shared 0"
    if [ "$w" = 2 ] && [ "$cluster" = 2 ]; then
        check "way $w: cluster 2 1 1" has "$m" "cluster 2 1 1"
    else
        check "way $w: cluster 0 0 0" has "$m" "cluster 0 0 0"
    fi
    say "   $(grep '^api ' "$m")"
    [ "$w" = 3 ] && check "way 3: api cuLaunchKernel" has "$m" "api cuLaunchKernel"
    check "way $w: params 4 36" has "$m" "params 4 36"
    for p in "param 0 0 8" "param 1 8 8" "param 2 16 16" "param 3 32 4" \
             "pointer 0 0 0" "pointer 8 1 0" "pointer 16 2 64"; do
        check "way $w: $p" has "$m" "$p"
    done
    check "way $w: no pointer in the float/int words" sh -c "! grep -q '^pointer \\(24\\|32\\) ' '$m'"
    bytes=$((n * 4))
    for a in 0 1 2; do
        asize=$(awk -v a=$a '$1 == "alloc" && $2 == a {print $6 - $5}' "$m")
        want=$bytes; [ $a = 2 ] && want=2048
        check "way $w: alloc $a spans at least $want bytes (got ${asize:-none})" test "${asize:-0}" -ge "$want"
        for when in before after; do
            check "way $w: alloc-$a.$when is $asize bytes" test "$(size_of "$raw/alloc-$a.$when" 2>/dev/null || echo x)" = "$asize"
        done
    done
    check "way $w: after = the program's result file (out-$w.bin)" cmp -n "$bytes" "$raw/alloc-0.after" "$work/base/out-$w.bin"
    check "way $w: output before the launch = the program's zeros" cmp -n "$bytes" "$raw/alloc-0.before" /dev/zero
    check "way $w: the input unchanged by the launch" cmp "$raw/alloc-1.before" "$raw/alloc-1.after"
    check "way $w: params.bin is 36 bytes" test "$(size_of "$raw/params.bin")" = 36
    check "way $w: the program did not go on past the capture" sh -c "! grep -q '^launch $w ' '$work/way$w/stdout'"
    check "way $w: seen line for the kernel" grep -q "^seen [0-9]* $MANGLED\$" "$m"
done

# Let the program finish (a launch of way 2 captured: the third).
per_way=$(field launches "$(grep '^launch 1 ' "$work/base.out")")
capture continue KERNDIFF_CAPTURE_FN=kd_capture_kernel KERNDIFF_CAPTURE_NTH=$((per_way + 3)) KERNDIFF_CAPTURE_CONTINUE=1
say "-- continue: program exit $rc"
check "continue: exit 0" test "$rc" -eq 0
check "continue: the program ran to the end" test "$(grep -c '^launch ' "$work/continue/stdout")" = 3
check "continue: status captured" has "$work/continue/raw/manifest" "status captured"
check "continue: result file identical to the plain run's" cmp "$work/continue/res/out-2.bin" "$work/base/out-2.bin"

# A kernel never launched.
capture notfound KERNDIFF_CAPTURE_FN=no_such_kernel
say "-- not found: program exit $rc"
check "not found: the program ran to the end, exit 0" test "$rc" -eq 0
check "not found: status not-found" has "$work/notfound/raw/manifest" "status not-found"
check "not found: the kernel seen $((3 * per_way)) times" has "$work/notfound/raw/manifest" "seen $((3 * per_way)) $MANGLED"
check "not found: no kernel line" sh -c "! grep -q '^kernel ' '$work/notfound/raw/manifest'"

# The byte cap.
capture cap KERNDIFF_CAPTURE_FN=$MANGLED KERNDIFF_CAPTURE_MAX_BYTES=1000
say "-- cap: program exit $rc"
check "cap: exit 3" test "$rc" -eq 3
check "cap: status error" has "$work/cap/raw/manifest" "status error"
check "cap: the error names KERNDIFF_CAPTURE_MAX_BYTES" grep -q '^error .*KERNDIFF_CAPTURE_MAX_BYTES' "$work/cap/raw/manifest"

say "capture GPU check: $passes passed, $fails failed (folder $work)"
# two files at most to $OUT: the summary and every manifest in one
for m in "$work"/*.manifest; do [ -f "$m" ] && { echo "== $(basename "$m")"; cat "$m"; }; done >"$work/capture-manifests.txt"
if [ -n "${OUT:-}" ]; then cp "$summary" "$work/capture-manifests.txt" "$OUT"/ 2>/dev/null; fi
[ "$fails" = 0 ]
