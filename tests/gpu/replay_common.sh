# replay_common.sh — sourced by the GPU must-show scripts of issue 30 under tests/gpu/replay_*/
# (a program's launch captured with `kerndiff capture`, replayed with `kerndiff --launch`).
# Sets: build (the build folder, $1, made absolute), root, kd, work (WORK or a temp folder),
# summary; and ok/bad/check/say, jget (a value of a JSON file), close_enough, finish. Each
# script prints only ok/FAIL lines (with what they compared) and a summary line; the lead runs
# them once on a GPU (docs: /work/briefs/s3/wave.md DEVICE rules).
set -u
script=$0
build=${1:-}
if [ -z "$build" ]; then echo "usage: $script BUILD_DIR (with kerndiff, its harness and libkerndiff-inject.so)" >&2; exit 2; fi
root=$(cd "$(dirname "$script")/../../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
work=${WORK:-$(mktemp -d)}
mkdir -p "$work" && work=$(cd "$work" && pwd) # absolute: a script may cd into it
summary=$work/$(basename "$(dirname "$script")")-$(basename "$script" .sh)-summary.txt
: >"$summary"
fails=0 passes=0
export PATH="$PATH:/usr/local/cuda/bin"
say() { echo "$*" | tee -a "$summary"; }
ok() { passes=$((passes + 1)); say "ok   $*"; }
bad() { fails=$((fails + 1)); say "FAIL $*"; }
# check MSG COMMAND...: ok when the command succeeds
check() { msg=$1; shift; if "$@" >/dev/null 2>&1; then ok "$msg"; else bad "$msg"; fi; }
# jget FILE CODE: runs CODE with d = the JSON document (python3); prints what CODE prints
jget() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); exec(sys.argv[2])" "$@" 2>/dev/null; }
# close_enough A B: A within 2% of B (numbers; false when either is empty)
close_enough() { python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(a - b) <= 0.02 * b else 1)" "$@" 2>/dev/null; }
# need FILE...: stops with one FAIL when a prerequisite is missing
need() {
    for f in "$@"; do
        [ -e "$f" ] || { bad "missing $f (make BUILD=$build all libkerndiff-inject.so)"; finish; }
    done
}
# the three checks of a replayed A/A (JSON J, report text T, the program's median P in us):
# both sides bit-identical to the program's result, verdict no significant difference, v1's
# median within 2% of the program's. NAME labels the lines.
aa_checks() {
    name=$1 j=$2 t=$3 prog_us=$4
    check "$name: v1 still computes what the program computed (bit for bit)" grep -q '^v1 still computes what the program computed' "$t"
    check "$name: v2 still computes what the program computed (bit for bit)" grep -q '^v2 still computes what the program computed' "$t"
    check "$name: JSON replay.sides: both the program's result" jget "$j" "s=d['replay']['sides']; sys.exit(0 if s['v1'].get('same') and s['v2'].get('same') else 1)"
    verdict=$(jget "$j" "print(d['runtime']['verdict'])")
    check "$name: A/A verdict no significant difference (got '${verdict:-none}')" test "$verdict" = "no significant difference"
    kd_us=$(jget "$j" "print('%.3f' % (d['runtime']['sides'][0]['summary_ns']['median'] / 1000))")
    check "$name: replay median within 2% of the program's CUDA events (replay ${kd_us:-none} us, program ${prog_us:-none} us)" close_enough "$kd_us" "$prog_us"
}
finish() {
    say "$(basename "$(dirname "$script")")/$(basename "$script"): $passes passed, $fails failed (folder $work)"
    if [ -n "${OUT:-}" ]; then cp "$summary" "$OUT"/ 2>/dev/null; fi
    [ "$fails" = 0 ] && exit 0
    exit 1
}
