#!/usr/bin/env bash
# kerndiff rank's orchestration cost per candidate (issue 32), through the simulated harness
# (whose "GPU time" is none: every sample is drawn, not measured), so the race's wall time is
# orchestration: the harness children started (one per candidate, again when more contend
# than MAX_OPEN), the protocol round trips, the intervals and drops of every round.
#
#   bench/rank_overhead.sh [BUILD] [N]      (defaults: build, 1000)
#
# N candidates (copies of examples/vector_loads/v2.cu: the build cache keys on content, so
# they are one build; bench/rank_orchestration.sh ranks 1,000 distinct files, cold and warm,
# without compile time) with simulated medians spread
# from 0.75x to 1.35x the baseline's, most clearly slower than the best: the race drops them
# after the screening rounds. A first run at N/10 and at N builds what is not cached (that
# time is build time, not counted); the measured runs follow with every build cached.
# Reported per candidate: the race's wall time (the criterion: <= 20 ms), the gate's (cached
# builds, the correctness run's three harness children), the whole; peak memory (RSS) at N/10
# and N (flat: within 2x for 10x the candidates).
set -euo pipefail
BUILD=${1:-build}
N=${2:-1000}
KD="$BUILD/kerndiff"
DIR=${RANK_BENCH_DIR:-${TMPDIR:-/tmp}/kerndiff-rank-bench}
mkdir -p "$DIR/cands"
for i in $(seq 1 "$N"); do
    f=$(printf '%s/cands/c%04d.cu' "$DIR" "$i")
    [ -f "$f" ] || cp examples/vector_loads/v2.cu "$f"
done
# BASE;C1;...;CN: candidate i at 100us / (0.75 + 0.6 i / N)
SPECS=$(python3 -c "
import sys; n=int(sys.argv[1])
print(';'.join(['median=100us,cv=1%,seed=1'] + ['median=%.3fus,cv=1%%' % (100 / (0.75 + 0.6 * i / n)) for i in range(1, n + 1)]))" "$N")
export KERNDIFF_NO_GPU=1
run_rank() { # COUNT JSON -> prints "wall_s maxrss_kb"
    local count=$1 json=$2 all list
    all=("$DIR"/cands/*.cu)
    list="${all[*]:0:$count}"
    local t0 t1
    t0=$(date +%s.%N)
    # shellcheck disable=SC2086
    /usr/bin/time -f '%M' -o "$DIR/rss" env KERNDIFF_SIMULATE="$SPECS" "$KD" rank -q --n 1024 --seed 1 --json "$json" \
        examples/vector_loads/v1.cu $list >"$DIR/rank.out" 2>&1 || { cat "$DIR/rank.out"; exit 1; }
    t1=$(date +%s.%N)
    echo "$(echo "$t1 - $t0" | bc) $(cat "$DIR/rss")"
}
small=$((N / 10 > 0 ? N / 10 : 1))
echo "warming the build cache for $N candidates (build time, not counted) ..." >&2
run_rank "$N" "$DIR/warm.json" >/dev/null
report() { # COUNT
    local count=$1 out
    out=$(run_rank "$count" "$DIR/r$count.json")
    python3 - "$DIR/r$count.json" "$count" $out <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); n = int(sys.argv[2]); wall = float(sys.argv[3]); rss = int(sys.argv[4])
t = d["time_ms"]; timed = sum(1 for c in d["candidates"] if c["speedup"])
top = [c["name"] for c in d["candidates"][:3]]
print(f"N={n:5d}  wall {wall:7.2f} s  per candidate: race {t['race'] / n:6.2f} ms, gate {t['gate'] / n:6.2f} ms, "
      f"all {1000 * wall / n:6.2f} ms  | rounds {d['rounds']}, samples {d['samples']}, timed {timed}, "
      f"peak RSS {rss / 1024:.1f} MiB  | top 3 {top}")
PY
}
echo "kerndiff rank orchestration, simulated harness, $(nproc) cores, $(date -u +%Y-%m-%d)"
report "$small"
report "$N"
