#!/bin/sh
# GPU check of --sanitize under a replayed launch (issue 29 leftovers, H29: sanitizer/report.c
# takes the capture's parameter count from sanitize_pass.c instead of guessing it), run by the
# lead on a GPU:   tests/gpu/h29_san_replay.sh [BUILD_DIR]   (default build-gpu)
# tests/gpu/capture/prog.cu's first launch (kd_capture_kernel(out, in, Extra e, n), n = 1<<20,
# <<<>>>) is captured with `kerndiff capture`, then replayed with --sanitize against a v2 that
# writes out[i + 1]: v2's finding must name the allocation by its parameter's name and the
# element one past its end ("out[1048576], one past its end (1048576 elements)"), v1 none,
# exit 9. The harness holds the capture's 4 parameters first and the allocations after them,
# so a wrong count names another buffer, or no buffer ("in no buffer of the launch").
# Works in $WORK (default: a temp folder); the summary goes to $OUT when set.
set -u
build=${1:-build-gpu}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
summary=$work/h29-san-replay-summary.txt
: >"$summary"
fails=0 passes=0
say() { echo "$*" | tee -a "$summary"; }
ok() { passes=$((passes + 1)); say "ok   $*"; }
bad() { fails=$((fails + 1)); say "FAIL $*"; }
check() { msg=$1; shift; if "$@" >/dev/null 2>&1; then ok "$msg"; else bad "$msg"; fi; }
finish() {
    say "h29_san_replay: $passes ok, $fails FAIL"
    [ -n "${OUT:-}" ] && cp "$summary" "$OUT/" 2>/dev/null
    [ "$fails" -eq 0 ]
    exit $?
}

[ -x "$kd" ] || { bad "no $kd (make BUILD=$build all)"; finish; }
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
src=$root/tests/gpu/capture/prog.cu
# few iterations: the sanitizer makes the kernel 10-100x slower
if ! "$nvcc" -O2 -DITERS=16 -arch=${ARCH:-sm_90} -o "$work/prog" "$src" -lcuda 2>"$work/nvcc.err"; then
    bad "nvcc prog.cu: $(head -3 "$work/nvcc.err")"; finish
fi
mkdir -p "$work/base" "$work/res"
"$work/prog" "$work/base" >"$work/base.out" 2>"$work/base.err" || { bad "the program: $(head -3 "$work/base.err")"; finish; }
k=$(grep '^launch 1 ' "$work/base.out" | awk '{for (i = 1; i < NF; i++) if ($i == "first_k") print $(i + 1)}')
[ -n "$k" ] || { bad "the program printed no 'launch 1 ... first_k K' line"; finish; }
cap=$work/way1.kdcap
"$kd" capture --fn kd_capture_kernel --nth "$k" -o "$cap" -- "$work/prog" "$work/res" >"$work/cap.out" 2>"$work/cap.err"
rc=$?
check "capture exit 0 (got $rc: $(tail -1 "$work/cap.err"))" test $rc -eq 0
[ -f "$cap" ] || finish

# v2 writes one element further: thread n-1 writes out[n], one past the allocation's end
sed 's/out\[i\] = y;/out[i + 1] = y;/' "$src" >"$work/prog_v2.cu"
check "prog_v2.cu differs from prog.cu (the sed found the line)" sh -c "! cmp -s '$src' '$work/prog_v2.cu'"
"$kd" --launch "$cap" --sanitize --no-ncu -D ITERS=16 --json "$work/san.json" "$src" "$work/prog_v2.cu" \
    >"$work/san.out" 2>"$work/san.err"
rc=$?
say "-- replay under --sanitize: exit $rc"
grep -hiE 'one past|no buffer|sanitiz|finding' "$work/san.out" "$work/san.err" | head -8 | sed 's/^/   /' | tee -a "$summary"
check "exit 9 (a finding stops the run; got $rc)" test $rc -eq 9
check "v2's finding names out[1048576], one past its end" \
    grep -qE 'out\[1048576\], one past its end \(1048576 elements\)' "$work/san.out" "$work/san.err"
check "no finding says 'in no buffer of the launch'" sh -c "! grep -q 'in no buffer of the launch' '$work/san.out' '$work/san.err'"
check "JSON: v1 has no findings, v2 at least one" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['sanitizer']
sides = d.get('sides', d)
def count(s):
    f = s.get('findings', []) if isinstance(s, dict) else s
    return len(f)
v1, v2 = (sides['v1'], sides['v2']) if isinstance(sides, dict) else (sides[0], sides[1])
sys.exit(0 if count(v1) == 0 and count(v2) > 0 else 1)" "$work/san.json"
finish
