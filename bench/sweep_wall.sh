#!/usr/bin/env bash
# Wall time of a 5-size timing-only sweep (--no-ncu, --n 1M..16M:x2) of examples/vector_loads
# on the GPU in three variants, alternating, RUNS of each, in one run: keep (the default: one
# harness process per role serves every point, `reset` between points, each build loaded
# once), ahead (KERNDIFF_SWEEP_FRESH=ahead: each point its own children, the next point's
# started ahead) and fresh (KERNDIFF_SWEEP_FRESH=1: each point starts its own, as before
# measure/harness_pool.c). Issue 31's target: the sweep <= 4 s. The build cache is warmed
# first (a --no-run diff), so every variant finds its builds cached.
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
    echo "# kerndiff --no-ncu --n $POINTS $A $B; warm build cache; $RUNS runs of each variant (keep, ahead, fresh), alternating"
} >"$LOGS/summary"
cat "$LOGS/summary"
if "$BUILD/kerndiff" --no-run "$A" "$B" >"$LOGS/warm.out" 2>&1; then ok "build cache warmed"; else
    fail "the static diff that warms the build cache failed" "$LOGS/warm.out"; fi
# sweep MODE I: one sweep; prints "MODE SECONDS" on stdout, keeps its output in $LOGS
sweep() {
    local fresh=0 start end
    [ "$1" = fresh ] && fresh=1
    [ "$1" = ahead ] && fresh=ahead
    start=$(date +%s.%N)
    KERNDIFF_SWEEP_FRESH=$fresh KERNDIFF_TRACE=1 "$BUILD/kerndiff" --no-ncu --n "$POINTS" "$A" "$B" \
        >"$LOGS/$1.$2.out" 2>"$LOGS/$1.$2.err"
    local rc=$?
    end=$(date +%s.%N)
    if [ "$rc" -ne 0 ]; then fail "$1 sweep $2: exit $rc" "$LOGS/$1.$2.err"; return; fi
    local ahead kept started
    ahead=$(grep -c 'the one started ahead$' "$LOGS/$1.$2.err")
    kept=$(grep -c 'kept from the previous point$' "$LOGS/$1.$2.err")
    started=$(grep -c 'harness .*: started$' "$LOGS/$1.$2.err")
    # 5 points, 3 children each: the 4 points after the first take theirs kept (keep) or
    # started ahead (ahead); fresh starts all 15 itself.
    local want_ahead=0 want_kept=0
    [ "$1" = ahead ] && want_ahead=12
    [ "$1" = keep ] && want_kept=12
    if [ "$ahead" -ne "$want_ahead" ] || [ "$kept" -ne "$want_kept" ]; then
        fail "$1 sweep $2: $kept children kept, $ahead started ahead; wanted $want_kept and $want_ahead" "$LOGS/$1.$2.err"
    fi
    local points
    points=$(grep -cE '^  [0-9]+ +[0-9.]+[mun]?s ' "$LOGS/$1.$2.out")
    [ "$points" -eq 5 ] || fail "$1 sweep $2: $points points in the table, wanted 5" "$LOGS/$1.$2.out"
    echo "$1 $(python3 -c "import sys; print('%.3f' % (float(sys.argv[2]) - float(sys.argv[1])))" "$start" "$end")" >>"$LOGS/walls"
    ok "$1 sweep $2: $(tail -1 "$LOGS/walls" | cut -d' ' -f2) s, $points points in the table, $started harness processes started"
}
for ((i = 1; i <= RUNS; i++)); do
    # about a minute and a half in all: a round of the three that would start after 60 s is left out, and said
    if [ "$i" -gt 1 ] && [ "$SECONDS" -gt 60 ]; then
        echo "# runs $i..$RUNS left out: ${SECONDS} s gone" | tee -a "$LOGS/summary"
        RUNS=$((i - 1))
        break
    fi
    sweep keep "$i"
    sweep ahead "$i"
    sweep fresh "$i"
done
if [ -s "$LOGS/walls" ]; then
    python3 -c '
import statistics, sys
runs = {"keep": [], "ahead": [], "fresh": []}
for line in open(sys.argv[1]):
    mode, seconds = line.split()
    runs[mode].append(float(seconds))
for mode, xs in runs.items():
    if xs:
        print(f"{mode:6} median {statistics.median(xs):.3f} s  (min {min(xs):.3f}, max {max(xs):.3f}, n={len(xs)})")
for mode in ("keep", "ahead"):
    if runs[mode] and runs["fresh"]:
        ratio = statistics.median(runs["fresh"]) / statistics.median(runs[mode])
        print(f"ratio fresh/{mode}: {ratio:.2f}x")
if runs["keep"]:
    m = statistics.median(runs["keep"])
    verdict = "met" if m <= 4 else "NOT met"
    print(f"issue 31 target (5-size sweep <= 4 s): keep median {m:.3f} s: {verdict}")' "$LOGS/walls" >>"$LOGS/summary"
fi
# Where the time goes: from the trace of each mode's last sweep, the seconds from the line
# before to each stage's line, summed over the points (the stage names with numbers cut).
for mode in keep ahead fresh; do
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
