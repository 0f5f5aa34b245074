#!/usr/bin/env bash
# Issue 31's hot-spot speed must-show: the hot-spot diff of a tiled matmul pair
# (examples/matmul: v1 naive, v2 tiled through shared memory, n=1024) within 4 s wall, warm
# build cache, on an H100/H200. Three runs of each, alternating:
#   hot    kerndiff --no-ncu --hotspots   (timing + hot spots: the hot-spot diff itself)
#   full   kerndiff --hotspots            (timing + counters + hot spots)
#   plain  kerndiff --no-ncu              (timing only: what the hot spots add, in the same run)
# Each line gives the wall time, the exit status, the first line of "Where the time moved" and
# KERNDIFF_TRACE's stage times; then each kind's median.
#   bench/hotspot_diff.sh BUILD_DIR > bench/hotspot_diff.txt   (copies it to $OUT when set)
set -u
BUILD=$(realpath "${1:-build}")
cd "$(dirname "$0")/.."
export NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache"
A=examples/matmul/v1.cu B=examples/matmul/v2.cu
LOG="${OUT:+$OUT/hotspot_diff.txt}"
LOG="${LOG:-$WORK/hotspot_diff.txt}"
say() { echo "$*" | tee -a "$LOG"; }
say "# bench/hotspot_diff.sh  $(date -u '+%Y-%m-%d %H:%M UTC'), kerndiff $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p')"
say "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)"
say "# commands: kerndiff [--no-ncu] [--hotspots] $A $B   (warm build cache)"
"$BUILD/kerndiff" --no-run "$A" "$B" >/dev/null 2>&1   # the warm cache's builds
for run in 1 2 3; do
    for kind in hot full plain; do
        case $kind in
        hot) args="--no-ncu --hotspots" ;;
        full) args="--hotspots" ;;
        plain) args="--no-ncu" ;;
        esac
        start=$(date +%s%N)
        # shellcheck disable=SC2086 # args are this script's own words
        KERNDIFF_TRACE=1 "$BUILD/kerndiff" $args "$A" "$B" >"$WORK/out" 2>"$WORK/trace"
        rc=$?
        end=$(date +%s%N)
        wall=$(( (end - start) / 1000000 ))
        first=$(grep -A1 '^Where the time moved' "$WORK/out" | sed -n 2p | sed 's/^ *//' | cut -c1-150)
        stages=$(grep -E '\] (timing pass|counters pass|hot spots|hotspots|measured)' "$WORK/trace" |
                 sed -E 's/^\[kerndiff +([0-9.]+)s\] (.*)/\1 \2/' | cut -c1-60 | paste -sd';' -)
        say "$(printf '%-6s %d  wall %d.%03d s  exit %d  | %s' $kind $run $((wall / 1000)) $((wall % 1000)) $rc "${first:-no hot-spot section}")"
        say "         stages: $stages"
        [ "$kind $run" = "hot 3" ] && { cp "$WORK/trace" "$WORK/trace.hot"; cp "$WORK/out" "$WORK/out.hot"; }
    done
done
say "# the last hot run's report:"
sed 's/^/#   /' "$WORK/out.hot" | tee -a "$LOG"
say "# its stages (KERNDIFF_TRACE):"
sed 's/^/#   /' "$WORK/trace.hot" | tee -a "$LOG"
python3 - "$LOG" <<'PY' | tee -a "$LOG"
import re, statistics, sys
walls = {}
for line in open(sys.argv[1]):
    m = re.match(r"(hot|full|plain) +\d+\s+wall\s+([0-9.]+) s", line)
    if m:
        walls.setdefault(m.group(1), []).append(float(m.group(2)))
med = {k: statistics.median(v) for k, v in walls.items()}
print("# medians: " + ", ".join(f"{k} {med[k]:.2f} s" for k in ("hot", "full", "plain") if k in med))
if "hot" in med:
    print(f"issue 31 target (hot-spot diff of a tiled matmul pair <= 4 s): hot median {med['hot']:.2f} s: "
          + ("met" if med["hot"] <= 4 else "NOT met"))
PY
