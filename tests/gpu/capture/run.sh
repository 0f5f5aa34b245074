#!/bin/sh
# GPU check of `kerndiff capture`'s injection library (issue 30 item 1), run by the lead on a GPU:
#   tests/gpu/capture/run.sh [BUILD_DIR]      (default build-gpu; needs BUILD_DIR/libkerndiff-inject.so)
# Builds tests/gpu/capture/prog.cu (one kernel launched 21 times each through <<<>>>,
# cudaLaunchKernelEx, cuLaunchKernel and a CUDA graph made by stream capture, each way with its
# own sizes: a warm-up, then 20 timed launches), runs it once plainly (its result files and CUDA-event medians, and each way's
# first launch number, first_k), then captures the first launch of each way with
# the library (CUDA_INJECTION64_PATH, KERNDIFF_CAPTURE_*) and checks the raw folders against
# /work/briefs/s2/capture-raw.md: status, kernel, grid/block/cluster, parameter layout, the
# pointer words (incl. one inside a by-value struct, at an offset inside its allocation), blob
# sizes, before = what the program uploaded, after = the program's own result file. Also: the
# program stops at the capture (exit 0) unless KERNDIFF_CAPTURE_CONTINUE=1; a kernel never
# launched leaves status not-found with the kernels seen; the byte cap refuses (exit 3).
# The graph way (4): the kernel's node sits between a memcpy node that uploads its input and a
# memset node that overwrites that input, so "before" must be the uploaded input (in-4.bin, not
# the zeros the buffer held before the graph) and "after" of the input the same (not 0xff);
# api cuGraphLaunch; the same graph built with cudaGraphAdd*Node is captured alike; the graph
# as a child graph node, and an exec changed after instantiation, are refused (exit 3, named);
# then `kerndiff capture` + `kerndiff --launch F prog.cu prog.cu` (A/A: no significant
# difference, both sides bit-identical to the program's result), when BUILD_DIR has kerndiff.
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

# capture NAME ENV...: runs the program under the library (with $prog_extra after its folder); sets rc.
prog_extra=
capture() {
    name=$1; shift
    rm -rf "$work/$name"; mkdir -p "$work/$name/raw" "$work/$name/res"
    env CUDA_INJECTION64_PATH="$lib" KERNDIFF_CAPTURE_DIR="$work/$name/raw" "$@" \
        "$work/prog" "$work/$name/res" $prog_extra >"$work/$name/stdout" 2>"$work/$name/stderr"
    rc=$?
    [ -f "$work/$name/raw/manifest" ] && cp "$work/$name/raw/manifest" "$work/$name.manifest"
}

for w in 1 2 3 4; do
    line=$(grep "^launch $w " "$work/base.out")
    n=$(field n "$line")
    grid=$(field grid "$line")
    cluster=$(field cluster "$line")
    k=$(field first_k "$line")
    case $w in
    1) fn=$MANGLED ;;
    2) fn=kd_capture_kernel ;;
    3) fn='kd_capture_kernel(float*, float const*, Extra, int)' ;;
    4) fn=kd_capture_kernel ;;
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
    [ "$w" = 4 ] && check "way 4: api cuGraphLaunch" has "$m" "api cuGraphLaunch"
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
    if [ "$w" = 4 ]; then
        check "way 4: input before the node = what the graph's memcpy node uploaded (in-4.bin), not the zeros before the graph" \
            cmp -n "$bytes" "$raw/alloc-1.before" "$work/base/in-4.bin"
        check "way 4: input after the node = still the upload, not the later memset node's 0xff" \
            cmp -n "$bytes" "$raw/alloc-1.after" "$work/base/in-4.bin"
    fi
    check "way $w: params.bin is 36 bytes" test "$(size_of "$raw/params.bin")" = 36
    check "way $w: the program did not go on past the capture" sh -c "! grep -q '^launch $w ' '$work/way$w/stdout'"
    check "way $w: seen line for the kernel" grep -q "^seen [0-9]* $MANGLED\$" "$m"
done

# Let the program finish (a launch of way 2 captured: the third).
per_way=$(field launches "$(grep '^launch 1 ' "$work/base.out")")
capture continue KERNDIFF_CAPTURE_FN=kd_capture_kernel KERNDIFF_CAPTURE_NTH=$((per_way + 3)) KERNDIFF_CAPTURE_CONTINUE=1
say "-- continue: program exit $rc"
check "continue: exit 0" test "$rc" -eq 0
check "continue: the program ran to the end" test "$(grep -c '^launch ' "$work/continue/stdout")" = 4
check "continue: status captured" has "$work/continue/raw/manifest" "status captured"
check "continue: result file identical to the plain run's" cmp "$work/continue/res/out-2.bin" "$work/base/out-2.bin"

# A kernel never launched.
capture notfound KERNDIFF_CAPTURE_FN=no_such_kernel
say "-- not found: program exit $rc"
check "not found: the program ran to the end, exit 0" test "$rc" -eq 0
check "not found: status not-found" has "$work/notfound/raw/manifest" "status not-found"
check "not found: the kernel seen $((4 * per_way)) times (graph nodes counted)" has "$work/notfound/raw/manifest" "seen $((4 * per_way)) $MANGLED"
check "not found: $per_way graph launches" has "$work/notfound/raw/manifest" "graphs $per_way"
check "not found: no kernel line" sh -c "! grep -q '^kernel ' '$work/notfound/raw/manifest'"

# The byte cap.
capture cap KERNDIFF_CAPTURE_FN=$MANGLED KERNDIFF_CAPTURE_MAX_BYTES=1000
say "-- cap: program exit $rc"
check "cap: exit 3" test "$rc" -eq 3
check "cap: status error" has "$work/cap/raw/manifest" "status error"
check "cap: the error names KERNDIFF_CAPTURE_MAX_BYTES" grep -q '^error .*KERNDIFF_CAPTURE_MAX_BYTES' "$work/cap/raw/manifest"

# The graph way, left to finish: its graph runs twice at the capture (the rewired copy, then the
# program's own), which this graph (upload, compute, overwrite) does not notice.
k4=$(field first_k "$(grep '^launch 4 ' "$work/base.out")")
bytes4=$(($(field n "$(grep '^launch 4 ' "$work/base.out")") * 4))
capture gcontinue KERNDIFF_CAPTURE_FN=kd_capture_kernel KERNDIFF_CAPTURE_NTH=$((k4 + 2)) KERNDIFF_CAPTURE_CONTINUE=1
say "-- graph continue: program exit $rc"
check "graph continue: exit 0" test "$rc" -eq 0
check "graph continue: status captured" has "$work/gcontinue/raw/manifest" "status captured"
check "graph continue: nth $((k4 + 2))" has "$work/gcontinue/raw/manifest" "nth $((k4 + 2))"
check "graph continue: result file identical to the plain run's" cmp "$work/gcontinue/res/out-4.bin" "$work/base/out-4.bin"
check "graph continue: after = the program's result" cmp -n "$bytes4" "$work/gcontinue/raw/alloc-0.after" "$work/base/out-4.bin"

# The same graph built node by node (cudaGraphAddMemcpyNode1D/KernelNode/MemsetNode).
prog_extra=explicit
capture gexplicit KERNDIFF_CAPTURE_FN=kd_capture_kernel KERNDIFF_CAPTURE_NTH=$k4
prog_extra=
m=$work/gexplicit/raw/manifest raw=$work/gexplicit/raw
say "-- graph built by cudaGraphAdd*Node: program exit $rc"
grep '^error' "$m" 2>/dev/null | sed 's/^/   /' | tee -a "$summary"
check "explicit graph: exit 0" test "$rc" -eq 0
check "explicit graph: status captured" has "$m" "status captured"
check "explicit graph: api cuGraphLaunch" has "$m" "api cuGraphLaunch"
check "explicit graph: kernel $MANGLED" has "$m" "kernel $MANGLED"
check "explicit graph: params 4 36" has "$m" "params 4 36"
for p in "pointer 0 0 0" "pointer 8 1 0" "pointer 16 2 64"; do
    check "explicit graph: $p" has "$m" "$p"
done
check "explicit graph: input before the node = the upload" cmp -n "$bytes4" "$raw/alloc-1.before" "$work/base/in-4.bin"
check "explicit graph: input after the node = the upload (not 0xff)" cmp -n "$bytes4" "$raw/alloc-1.after" "$work/base/in-4.bin"
check "explicit graph: after = the program's result" cmp -n "$bytes4" "$raw/alloc-0.after" "$work/base/out-4.bin"

# refused NAME MODE WHAT REGEX: the graph way's first run in prog's MODE is refused: exit 3,
# status error, an error line matching REGEX, no blob written.
refused() {
    prog_extra=$2
    capture "$1" KERNDIFF_CAPTURE_FN=kd_capture_kernel KERNDIFF_CAPTURE_NTH=$k4
    prog_extra=
    say "-- $3: program exit $rc"
    grep '^error' "$work/$1/raw/manifest" 2>/dev/null | sed 's/^/   /' | tee -a "$summary"
    check "$3: exit 3" test "$rc" -eq 3
    check "$3: status error" has "$work/$1/raw/manifest" "status error"
    check "$3: the error says /$4/" grep -q "^error .*$4" "$work/$1/raw/manifest"
    check "$3: no blob written" sh -c "! ls '$work/$1/raw/' | grep -q '^alloc-'"
}
# The graph as a child graph node of an outer graph; an executable graph changed after its
# instantiation (the call named).
refused gchild child "child graph" 'inside a child graph node'
refused gchanged changed "graph changed" 'changed after its instantiation (cuGraphExec'

# kerndiff capture of the graph's node, then the replay A/A with prog.cu on both sides.
kd=$build/kerndiff
if [ -x "$kd" ]; then
    mkdir -p "$work/kres"
    "$kd" capture --fn kd_capture_kernel --nth "$k4" -o "$work/graph.kdcap" -- "$work/prog" "$work/kres" \
        >"$work/kcap.out" 2>"$work/kcap.err"
    rc=$?
    say "-- kerndiff capture (graph): exit $rc: $(tail -1 "$work/kcap.err")"
    check "kerndiff capture (graph): exit 0" test "$rc" -eq 0
    src=$root/tests/gpu/capture/prog.cu
    "$kd" --launch "$work/graph.kdcap" --no-ncu --max-time 5 --json "$work/graph-aa.json" "$src" "$src" \
        >"$work/graph-aa.out" 2>"$work/graph-aa.err"
    rc=$?
    sed -n '/^launch$/,/^$/p' "$work/graph-aa.out" | tee -a "$summary"
    grep -E '^(no significant|v[12] (is|still|differs)|outputs|OUTPUTS)' "$work/graph-aa.out" | tee -a "$summary"
    [ $rc -eq 0 ] || tail -5 "$work/graph-aa.err" | tee -a "$summary"
    jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2])" "$@"; }
    check "replay (graph): A/A exit 0" test "$rc" -eq 0
    check "replay (graph): v1 still computes what the program computed" grep -q '^v1 still computes what the program computed' "$work/graph-aa.out"
    check "replay (graph): v2 still computes what the program computed" grep -q '^v2 still computes what the program computed' "$work/graph-aa.out"
    check "replay (graph): JSON: both sides bit-identical to the program" jget "$work/graph-aa.json" \
        "s=d['replay']['sides']; sys.exit(0 if s['v1'].get('same') and s['v2'].get('same') else 1)"
    check "replay (graph): A/A verdict no significant difference" jget "$work/graph-aa.json" \
        "sys.exit(0 if d['runtime']['verdict'] == 'no significant difference' else 1)"
else
    say "skip kerndiff capture/replay of the graph way: no $kd"
fi

say "capture GPU check: $passes passed, $fails failed (folder $work)"
# two files at most to $OUT: the summary and every manifest in one
for m in "$work"/*.manifest; do [ -f "$m" ] && { echo "== $(basename "$m")"; cat "$m"; }; done >"$work/capture-manifests.txt"
if [ -n "${OUT:-}" ]; then cp "$summary" "$work/capture-manifests.txt" "$OUT"/ 2>/dev/null; fi
[ "$fails" = 0 ]
