#!/usr/bin/env bash
# kerndiff rank's orchestration cost per candidate at 1,000 candidates (issue 32), beyond build
# and GPU time: through the simulated harness (its samples are drawn, not measured: no GPU
# time) and with a stand-in nvcc (no compile time), so the wall time is kerndiff's own work:
# the build-cache keys, stores and lookups, the prebuild workers, the gate (pipeline, static analysis,
# the correctness run's harness children), the race (children started, protocol round trips,
# intervals and drops every round), the report.
#
#   bench/rank_orchestration.sh [BUILD] [N]      (defaults: build, 1000)
#
# N DISTINCT candidate files (examples/vector_loads/v2.cu with a constant that differs: the
# build cache keys on content, so copies would be one build) with simulated medians from
# 0.75x to 1.35x the baseline's. The stand-in nvcc copies one real build's PTX, cubin and
# ptxas log (made once by the real nvcc) into the build folder, so every candidate is a fresh
# build with real artifacts for the static analysis, in no compile time (a stand-in
# cuobjdump likewise hands out its SASS). Runs, each at N/10 and N:
#   cold  an empty cache: every candidate built (by the stand-ins, in worker processes on the
#         cores: the prebuild), stored in the cache, then gated and raced;
#   warm  the same rank again: every build a cache hit.
# Reported per candidate: the whole wall time and the CPU time (user + sys of kerndiff and of
# every process it started: workers, harness children, stand-ins) — on a shared host the CPU
# time is the cost, the wall time what the load made of it — the gate's and the race's wall
# (the JSON's time_ms), peak RSS. Criterion: the warm run's per-candidate cost <= 20 ms;
# memory flat (RSS at N within 2x of N/10's).
set -euo pipefail
BUILD=${1:-build}
N=${2:-1000}
KD=$(realpath "$BUILD/kerndiff")
DIR=${RANK_BENCH_DIR:-${TMPDIR:-/tmp}/kerndiff-rank-orchestration}
rm -rf "$DIR"
mkdir -p "$DIR/cands" "$DIR/real"
REAL_NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
for i in $(seq 1 "$N"); do
    { cat examples/vector_loads/v2.cu; printf '__device__ const int kd_variant = %d;\n' "$i"; } \
        >"$(printf '%s/cands/c%04d.cu' "$DIR" "$i")"
done
# One real build of a candidate: the artifacts the stand-in hands out.
export KERNDIFF_NO_GPU=1
XDG_CACHE_HOME="$DIR/real" "$KD" -q --no-run examples/vector_loads/v1.cu "$DIR/cands/c0001.cu" >/dev/null
ENTRY=$(grep -l "kd_variant" "$DIR"/real/kerndiff/builds/*/kernel.ptx | head -1 | xargs dirname)
cat >"$DIR/nvcc" <<SH
#!/bin/sh
[ "\$1" = --version ] && exec "$REAL_NVCC" --version
cp "$ENTRY/kernel.ptx" kernel.ptx && cp "$ENTRY/kernel.cubin" kernel.cubin && cat "$ENTRY/ptxas.log" >&2
SH
chmod +x "$DIR/nvcc"
# cuobjdump (with nvdisasm: ~0.7 s a cubin on the 2-core host) is build time too: its stand-in
# hands out the same build's SASS.
printf '#!/bin/sh\ncat "%s/kernel.sass"\n' "$ENTRY" >"$DIR/cuobjdump"
chmod +x "$DIR/cuobjdump"
export KERNDIFF_CUOBJDUMP="$DIR/cuobjdump"
SPECS=$(python3 -c "
import sys; n=int(sys.argv[1])
print(';'.join(['median=100us,cv=1%,seed=1'] + ['median=%.3fus,cv=1%%' % (100 / (0.75 + 0.6 * i / n)) for i in range(1, n + 1)]))" "$N")
run_rank() { # COUNT CACHE JSON -> "wall_s maxrss_kb user_s sys_s"
    local count=$1 cache=$2 json=$3 all t0 t1
    all=("$DIR"/cands/*.cu)
    t0=$(date +%s.%N)
    XDG_CACHE_HOME="$cache" KERNDIFF_SIMULATE="$SPECS" /usr/bin/time -f '%M %U %S' -o "$DIR/rss" \
        "$KD" rank -q --nvcc "$DIR/nvcc" --n 1024 --seed 1 --json "$json" examples/vector_loads/v1.cu \
        "${all[@]:0:$count}" >"$DIR/rank.out" 2>&1 || { cat "$DIR/rank.out"; exit 1; }
    t1=$(date +%s.%N)
    echo "$(python3 -c "print(round($t1 - $t0, 3))") $(cat "$DIR/rss")"
}
report() { # LABEL COUNT CACHE
    local label=$1 count=$2 out
    out=$(run_rank "$count" "$3" "$DIR/$label$count.json")
    python3 - "$DIR/$label$count.json" "$label" "$count" $out <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); label = sys.argv[2]; n = int(sys.argv[3]); wall = float(sys.argv[4]); rss = int(sys.argv[5])
cpu = float(sys.argv[6]) + float(sys.argv[7])  # user + sys of kerndiff and every process it waited for
t = d["time_ms"]; timed = sum(1 for c in d["candidates"] if c["speedup"])
top = [c["name"] for c in d["candidates"][:3]]
print(f"{label:4s} N={n:5d}  wall {wall:7.2f} s  per candidate: all {1000 * wall / n:6.2f} ms (CPU {1000 * cpu / n:6.2f} ms), gate {t['gate'] / n:6.2f} ms, "
      f"race {t['race'] / n:6.2f} ms  | rounds {d['rounds']}, samples {d['samples']}, timed {timed}, "
      f"peak RSS {rss / 1024:.1f} MiB  | top 3 {top}")
PY
}
small=$((N / 10 > 0 ? N / 10 : 1))
echo "kerndiff rank orchestration, $N distinct candidates, simulated harness, stand-in nvcc, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), $(date -u +%Y-%m-%d)"
report cold "$small" "$DIR/cache-small"
report warm "$small" "$DIR/cache-small"
report cold "$N" "$DIR/cache"
report warm "$N" "$DIR/cache"
echo "cache entries after the N run: $(ls "$DIR/cache/kerndiff/builds" | wc -l) (N + the baseline)"
