#!/usr/bin/env bash
# Issue 39 on a GPU, in one call: the cheating candidates (tests/gpu/exploits/run.sh), no false
# rejection on the bundled examples (each pair, zero flags: never INCORRECT, the audits all
# matched) nor on tests/realfiles (tests/gpu/realfiles.sh: every file that runs, runs to exit
# 0), the bounds guard (tests/gpu/bounds.sh), and the audits' cost (bench/audit_overhead.sh). Results under $OUT (or a temp folder).
#   tests/gpu/audits.sh BUILD_DIR      (SKIP_BENCH=1: no overhead bench; SKIP_REALFILES=1: no realfiles.sh;
#                                     SKIP_EXPLOITS=1: neither exploits run.sh)
set -u
BUILD=$(realpath "${1:-build}")
KD="$BUILD/kerndiff"
OUT=${OUT:-$(mktemp -d)}
export OUT
WORK=$(mktemp -d)
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 KERNDIFF_WIDTH=0 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
R="$OUT/results-audits.txt"
say() { echo "$*" | tee -a "$R"; }
j() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
say "audits: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), build $(cat "$BUILD/commit.txt" 2>/dev/null || echo '?')"
pass=0 failed=0
check() { if [ "$2" = 0 ]; then pass=$((pass + 1)); say "ok   $1: $3"; else failed=$((failed + 1)); say "FAIL $1: $3"; fi; }

if [ -z "${SKIP_EXPLOITS:-}" ]; then
    T0=$(date +%s)
    timeout 170 tests/gpu/exploits/run.sh "$BUILD" >"$OUT/exploits.log" 2>&1
    say "exploits/run.sh exit $? in $(( $(date +%s) - T0 )) s (results-exploits.txt)"
    T0=$(date +%s)
    timeout 150 tests/gpu/exploits/triton/run.sh "$BUILD" >"$OUT/exploits-triton.log" 2>&1
    say "exploits/triton/run.sh exit $? in $(( $(date +%s) - T0 )) s (results-exploits-triton.txt)"
fi

[ -n "${SKIP_BENCH:-}" ] || { timeout 90 bench/audit_overhead.sh "$BUILD" >"$OUT/audit_overhead.log" 2>&1; say "audit_overhead.sh exit $?"; }
T0=$(date +%s)
pairs=()
for d in examples/*/; do [ -f "$d/v1.cu" ] && pairs+=("$d/v1.cu $d/v2.cu"); done
for f in examples/triton/*/; do
    set -- "$f"*.py
    [ $# -ge 2 ] && pairs+=("$1 $2")
done
for p in "${pairs[@]}"; do
    [ $(( $(date +%s) - T0 )) -lt 80 ] || { say "examples: out of time before $p"; break; }
    set -- $p
    name=$(basename "$(dirname "$1")")
    timeout 40 "$KD" --no-ncu --max-time 1 --json "$WORK/$name.json" "$1" "$2" >"$WORK/$name.out" 2>"$WORK/$name.err"
    rc=$?
    v=$(j "$WORK/$name.json" '(d["runtime"]["correctness"]["verdict"], d["runtime"]["correctness"]["audits"]["done"], d["runtime"]["correctness"]["audits"]["failed"], d["runtime"]["verdict"])' 2>/dev/null || echo "no runtime")
    first=$(grep -m1 -E 'INCORRECT|faster|slower|no significant' "$WORK/$name.out")
    check "example_$name" "$([ "$rc" = 0 ] && ! grep -q INCORRECT "$WORK/$name.out"; echo $?)" "exit $rc, (verdict, audits, failed, speed) $v; $first"
    [ "$rc" = 0 ] || { sed 's/^/     /' "$WORK/$name.err" | head -5 | tee -a "$R"; grep -E 'INCORRECT|OUTPUTS|AUDIT|KERNEL COUNT' "$WORK/$name.out" | head -3 | sed 's/^/     /' | tee -a "$R"; }
done
say "examples: $pass ok, $failed FAIL in $(( $(date +%s) - T0 )) s"

timeout 100 tests/gpu/bounds.sh "$BUILD" >"$OUT/bounds.log" 2>&1
say "bounds.sh exit $? (results-bounds.txt)"

[ -n "${SKIP_REALFILES:-}" ] || { REALFILES_BUDGET_S=75 timeout 85 tests/gpu/realfiles.sh "$BUILD" >"$OUT/realfiles.log" 2>&1; say "realfiles.sh exit $?"; }
