#!/usr/bin/env bash
# The A/A campaign (issue 16): identical kernels on both sides must read as identical.
#   bench/aa_campaign.sh [BUILD_DIR] [OLD_BUILD_DIR] > bench/aa_campaign.txt
# Environment: AA_REPEATS (default 5: 40 pairs; 38 gives 304, the >= 300 of issue 42),
# POWER_TRIES (default 20 a change), BETWEEN_PROCESSES (default 5 a kernel), CALIB_OUT (the
# record written at the end, default share/kerndiff-calibration.txt; "-" writes none).
# Four kernels (a ~2 us memory-bound add, a 16M-element add, a compute-bound FMA chain, a
# shared-memory stencil), each 5 times with the same file on both sides and 5 times with a
# copy of the file, timing only (--no-ncu): 40 diffs, each line its ratio, CI and verdict.
# Then a 1% and a 3% longer FMA chain, 3 times each, must read "slower". Then the wall
# time of one timing-only diff with this build and with OLD_BUILD_DIR (the build before
# the shared-buffer timing pass), alternated, as a ratio. Needs a GPU.
set -u
AA_REPEATS=${AA_REPEATS:-5} POWER_TRIES=${POWER_TRIES:-20} BETWEEN_PROCESSES=${BETWEEN_PROCESSES:-5}
BUILD=$(realpath "${1:-build}")
OLD=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-aa.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
CALIB_OUT=${CALIB_OUT:-$ROOT/share/kerndiff-calibration.txt}
# Everything printed is also kept, for bench/aa_summary.py at the end.
exec > >(tee "$WORK/campaign.txt")
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1
K=tests/gpu/kernels
echo "# A/A campaign, $(date -u '+%Y-%m-%d %H:%M UTC')"
echo "# gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
echo "# kerndiff: $("$BUILD/kerndiff" --version | head -1)"

row() { # LABEL JSON
    python3 - "$@" <<'PY'
import json, sys
label, path = sys.argv[1], sys.argv[2]
try:
    r = json.load(open(path))["runtime"]
except Exception as e:
    print(f"{label:28s} ERROR {e}"); sys.exit()
s = r["speedup"]
side = r["sides"]
print(f'{label:28s} {side[0]["summary_ns"]["median"]/1e3:9.2f}us {side[1]["summary_ns"]["median"]/1e3:9.2f}us '
      f'ratio {s["ratio"]:.4f} CI {s["ci_low"]:.4f}-{s["ci_high"]:.4f} n={side[0]["summary_ns"]["n"]} '
      f'{r["verdict"]}')
PY
}

declare -A ARGS=([add64k]="--n 64K" [add16m]="--n 16M" [fma]="" [smem]="")
declare -A FILE=([add64k]=add.cu [add16m]=add.cu [fma]=fma_loop.cu [smem]=smem_stencil.cu)
echo
echo "## A/A: 4 kernels x ($AA_REPEATS same-file + $AA_REPEATS copied-file), --no-ncu"
for k in add64k add16m fma smem; do
    cp "$K/${FILE[$k]}" "$WORK/copy_${FILE[$k]}"
    for i in $(seq "$AA_REPEATS"); do
        # shellcheck disable=SC2086
        "$BUILD/kerndiff" --no-ncu ${ARGS[$k]} --seed $i --json="$WORK/r.json" "$K/${FILE[$k]}" "$K/${FILE[$k]}" >"$WORK/out.txt" 2>&1
        row "aa $k same #$i" "$WORK/r.json"
        # shellcheck disable=SC2086
        "$BUILD/kerndiff" --no-ncu ${ARGS[$k]} --seed $i --json="$WORK/r.json" "$K/${FILE[$k]}" "$WORK/copy_${FILE[$k]}" >"$WORK/out.txt" 2>&1
        row "aa $k copy #$i" "$WORK/r.json"
    done
done | tee "$WORK/aa.txt"
python3 - "$WORK/aa.txt" <<'PY'
import sys, re, statistics
rows = [l for l in open(sys.argv[1]) if l.startswith("aa ")]
ratios = [float(re.search(r"ratio (\S+)", l).group(1)) for l in rows if "ratio" in l]
false = [l for l in rows if l.rstrip().endswith(("faster", "slower"))]
ci_excl = [l for l in rows if "CI" in l and (float(re.search(r"CI (\S+)-", l).group(1)) > 1 or float(re.search(r"-(\S+) n=", l).group(1)) < 1)]
print(f"\nA/A summary: {len(rows)} diffs, {len(false)} false verdicts ({100*len(false)/max(len(rows),1):.1f}%), "
      f"mean ratio {statistics.mean(ratios):.5f} ({100*(statistics.mean(ratios)-1):+.3f}%), "
      f"{len(ci_excl)} intervals exclude 1 (what the verdict would be without the --min-effect floor)")
PY

echo
echo "## Real changes: the FMA chain with 1% and 3% more iterations (5000 -> 5050, 5150)"
for iters in 5050 5150; do
    for i in 1 2 3; do
        "$BUILD/kerndiff" --no-ncu --seed $i --call "v2:iters=$iters" --json="$WORK/r.json" "$K/fma_loop.cu" "$K/fma_loop.cu" >"$WORK/out.txt" 2>&1
        row "fma +$(( (iters - 5000) / 50 ))% #$i" "$WORK/r.json"
    done
done

# Between processes (issue 42 item 3): each kernel in separate processes, its v1 median of
# each, for the spread `kerndiff compare` of two saved runs must carry.
echo
echo "## Between processes: each kernel in $BETWEEN_PROCESSES separate processes (v1's median)"
for k in add64k add16m fma smem; do
    for i in $(seq "$BETWEEN_PROCESSES"); do
        # shellcheck disable=SC2086
        "$BUILD/kerndiff" --no-ncu ${ARGS[$k]} --seed $((100 + i)) --json="$WORK/b.json" "$K/${FILE[$k]}" "$K/${FILE[$k]}" >"$WORK/out.txt" 2>&1
        python3 -c 'import json, sys
k, i, path = sys.argv[1:4]
try:
    m = json.load(open(path))["runtime"]["sides"][0]["summary_ns"]["median"]
    print("between %s #%s median_ns %r" % (k, i, m))
except Exception as e:
    print("between-error %s #%s %s" % (k, i, e))' "$k" "$i" "$WORK/b.json"
    done
done

# Power (issue 42 item 2): injected known changes of 0.25%, 0.5% and 1% (the FMA chain's
# iterations 5000 -> 5013, 5025, 5050), POWER_TRIES each at the default budget.
echo
echo "## Power: injected changes of 0.25%, 0.5%, 1%, $POWER_TRIES tries each"
for change in "0.25:5013" "0.5:5025" "1:5050"; do
    for i in $(seq "$POWER_TRIES"); do
        "$BUILD/kerndiff" --no-ncu --seed $((200 + i)) --call "v2:iters=${change#*:}" --json="$WORK/r.json" "$K/fma_loop.cu" "$K/fma_loop.cu" >"$WORK/out.txt" 2>&1
        row "power ${change%%:*}% fma #$i" "$WORK/r.json"
    done
done

if [ -n "$OLD" ]; then
    echo
    echo "## Wall time of a timing-only diff (add 16M, A/A), alternated, 5 each"
    for i in 1 2 3 4 5; do
        for b in "$OLD" "$BUILD"; do
            s=$(date +%s.%N)
            "$b/kerndiff" --no-ncu --n 16M "$K/add.cu" "$K/add.cu" >/dev/null 2>&1
            e=$(date +%s.%N)
            echo "$b $(python3 -c "print(f'{$e-$s:.3f}')")"
        done
    done | tee "$WORK/wall.txt"
    python3 - "$WORK/wall.txt" "$OLD" <<'PY'
import sys, statistics
old = sys.argv[2]
t = {"old": [], "new": []}
for l in open(sys.argv[1]):
    b, s = l.split()
    t["old" if b == old else "new"].append(float(s))
mo, mn = statistics.median(t["old"]), statistics.median(t["new"])
print(f"wall median: before {mo:.3f} s, after {mn:.3f} s, after/before {mn/mo:.3f}")
PY
fi

# The record kerndiff reads at run time, from everything above.
if [ "$CALIB_OUT" != "-" ]; then
    sleep 1 # tee, behind a pipe, may still be writing the last rows
    python3 "$ROOT/bench/aa_summary.py" "$WORK/campaign.txt" >"$WORK/record.txt" && cp "$WORK/record.txt" "$CALIB_OUT" \
        && echo "# calibration record written to $CALIB_OUT" >&2
fi
