#!/usr/bin/env bash
# Wall time of a 5-size timing-only sweep (--no-ncu, --n 1M..16M:x2) of examples/vector_loads
# on the GPU, with the next point's harnesses started ahead (default) and without
# (KERNDIFF_SWEEP_FRESH=1: each point starts its own, as before measure/harness_pool.c),
# alternating, RUNS of each, in one run; the ratio is what starting ahead saves. The build
# cache is warmed first (a --no-run diff), so both modes find their builds cached.
# Needs a GPU, nvcc; no network. Prints ok/FAIL lines and a summary; with OUT set, the
# summary is copied to $OUT/sweep_wall.txt.
#   bench/sweep_wall.sh BUILD_DIR [RUNS] > bench/sweep_wall.txt
set -u
BUILD=$(realpath "${1:-build}")
RUNS=${2:-3}
cd "$(dirname "$0")/.."
export XDG_CACHE_HOME=$(mktemp -d) NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin"
LOGS=$(mktemp -d)
trap 'rm -rf "$XDG_CACHE_HOME" "$LOGS"' EXIT
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
POINTS=1M..16M:x2
failed=0
ok() { echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     | /' "$2" | tail -20; }
{
    echo "# bench/sweep_wall.sh  $(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "# host: $(nproc) CPUs; gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
    echo "# kerndiff --no-ncu --n $POINTS $A $B; warm build cache; $RUNS runs of each mode, alternating"
} >"$LOGS/summary"
cat "$LOGS/summary"
if "$BUILD/kerndiff" --no-run "$A" "$B" >"$LOGS/warm.out" 2>&1; then ok "build cache warmed"; else
    fail "the static diff that warms the build cache failed" "$LOGS/warm.out"; fi
# sweep MODE I: one sweep; prints "MODE SECONDS" on stdout, keeps its output in $LOGS
sweep() {
    local fresh=0 start end
    [ "$1" = fresh ] && fresh=1
    start=$(date +%s.%N)
    KERNDIFF_SWEEP_FRESH=$fresh KERNDIFF_TRACE=1 "$BUILD/kerndiff" --no-ncu --n "$POINTS" "$A" "$B" \
        >"$LOGS/$1.$2.out" 2>"$LOGS/$1.$2.err"
    local rc=$?
    end=$(date +%s.%N)
    if [ "$rc" -ne 0 ]; then fail "$1 sweep $2: exit $rc" "$LOGS/$1.$2.err"; return; fi
    local ahead
    ahead=$(grep -c 'the one started ahead$' "$LOGS/$1.$2.err")
    # 5 points, 3 children each: the 4 points after the first take theirs started ahead.
    if [ "$1" = ahead ] && [ "$ahead" -ne 12 ]; then fail "$1 sweep $2: $ahead children taken started ahead, wanted 12" "$LOGS/$1.$2.err"; fi
    if [ "$1" = fresh ] && [ "$ahead" -ne 0 ]; then fail "$1 sweep $2: $ahead children started ahead, wanted 0"; fi
    local points
    points=$(grep -cE '^  [0-9]+ +[0-9.]+[mun]?s ' "$LOGS/$1.$2.out")
    [ "$points" -eq 5 ] || fail "$1 sweep $2: $points points in the table, wanted 5" "$LOGS/$1.$2.out"
    echo "$1 $(python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$end")" >>"$LOGS/walls"
    ok "$1 sweep $2: $(tail -1 "$LOGS/walls" | cut -d' ' -f2) s, $points points in the table"
}
for ((i = 1; i <= RUNS; i++)); do
    # under a minute in all: a pair that would start after 40 s is left out, and said
    if [ "$i" -gt 1 ] && [ "$SECONDS" -gt 40 ]; then
        echo "# runs $i..$RUNS left out: ${SECONDS} s gone" | tee -a "$LOGS/summary"
        RUNS=$((i - 1))
        break
    fi
    sweep ahead "$i"
    sweep fresh "$i"
done
if [ -s "$LOGS/walls" ]; then
    python3 -c '
import statistics, sys
runs = {"ahead": [], "fresh": []}
for line in open(sys.argv[1]):
    mode, seconds = line.split()
    runs[mode].append(float(seconds))
for mode, xs in runs.items():
    if xs:
        print(f"{mode:6} median {statistics.median(xs):.3f} s  (min {min(xs):.3f}, max {max(xs):.3f}, n={len(xs)})")
if runs["ahead"] and runs["fresh"]:
    ratio = statistics.median(runs["fresh"]) / statistics.median(runs["ahead"])
    print(f"ratio fresh/ahead: {ratio:.2f}x")' "$LOGS/walls" >>"$LOGS/summary"
fi
# Where the time goes: from the trace of each mode's last sweep, the seconds from the line
# before to each stage's line, summed over the points (the stage names with numbers cut).
for mode in ahead fresh; do
    [ -s "$LOGS/$mode.$RUNS.err" ] || continue
    python3 -c '
import re, sys
mode, path = sys.argv[1], sys.argv[2]
stages, order, last = {}, [], 0.0
for line in open(path):
    m = re.match(r"\[kerndiff +([0-9.]+)s\] (.*)", line)
    if not m:
        continue
    t, what = float(m.group(1)), re.sub(r"[0-9]+", "N", m.group(2))[:60]
    if what not in stages:
        stages[what] = 0.0
        order.append(what)
    stages[what] += t - last
    last = t
print(f"{mode}: where the time goes (s up to each stage, summed over the points; total {last:.3f} s)")
for what in order:
    if stages[what] >= 0.005:
        print(f"  {stages[what]:7.3f}  {what}")' "$mode" "$LOGS/$mode.$RUNS.err" >>"$LOGS/summary"
done
echo "failed: $failed" >>"$LOGS/summary"
tail -n +4 "$LOGS/summary"
[ -n "${OUT:-}" ] && cp "$LOGS/summary" "$OUT/sweep_wall.txt"
[ "$failed" -eq 0 ]
