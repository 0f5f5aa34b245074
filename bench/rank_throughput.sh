#!/usr/bin/env bash
# Candidates per hour (issue 43 item 5): ranks N ~50-100 us candidates (copies of
# examples/vector_loads/v2.cu against v1.cu, audits on: the default) on 1 GPU and on all
# GPUs given, once warm (the build cache filled by a first rank), and records per run the
# wall time, candidates per hour, per hour per GPU, the scaling from 1 to all GPUs, and the
# harness starts per GPU (JSON devices[].harness_starts).
#   bench/rank_throughput.sh BUILD_DIR [GPUS]   (GPUS: e.g. 0,1; default all)
#   RANK_N=60 candidates; RANK_SIMULATE=1: the simulated harness (KERNDIFF_SIMULATE), whose
#   timings are NOT GPU measurements: only its harness counts and the concurrency mean anything.
# Prints a table; $OUT/rank_throughput.txt when OUT is set.
set -u
BUILD=$(realpath "${1:-build}")
GPUS=${2:-all}
KD="$BUILD/kerndiff"
N=${RANK_N:-60}
WORK=$(mktemp -d)
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
REPORT="${OUT:+$OUT/rank_throughput.txt}"
REPORT="${REPORT:-$WORK/rank_throughput.txt}"
say() { echo "$*" | tee -a "$REPORT"; }
mkdir -p "$WORK/c"
for i in $(seq -w 1 "$N"); do cp examples/vector_loads/v2.cu "$WORK/c/c$i.cu"; done
if [ "${RANK_SIMULATE:-0}" = 1 ]; then
    specs="median=100us,cv=1%,seed=4"
    for i in $(seq 1 "$N"); do specs="$specs;median=$((50 + i % 50))us,cv=1%"; done
    export KERNDIFF_SIMULATE="$specs"
    say "rank throughput: $(date -u +%FT%TZ), SIMULATED harness (timings are not GPU measurements; harness counts are), build $(cat "$BUILD/commit.txt" 2>/dev/null || echo '?')"
else
    say "rank throughput: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), build $(cat "$BUILD/commit.txt" 2>/dev/null || echo '?')"
fi
say "$(printf '%-8s %5s %9s %10s %14s %8s  %s' gpus cands wall_s cand/h cand/h/gpu scaling harness_starts)"
"$KD" rank --n 1048576 --gpus 0 --max-rounds 2 --json "$WORK/warm.json" examples/vector_loads/v1.cu "$WORK/c" >/dev/null 2>&1
one_wall=""
for g in 0 "$GPUS"; do
    t0=$(date +%s.%N)
    "$KD" rank --n 1048576 --gpus "$g" --seed 4 --json "$WORK/r.json" examples/vector_loads/v1.cu "$WORK/c" >/dev/null 2>"$WORK/err"
    rc=$?
    t1=$(date +%s.%N)
    [ $rc -le 1 ] || { say "$g: rank failed (exit $rc): $(tail -1 "$WORK/err")"; continue; }
    python3 - "$WORK/r.json" "$t0" "$t1" "$g" "$N" "${one_wall:-0}" >>"$WORK/row" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); wall = float(sys.argv[3]) - float(sys.argv[2])
n = int(sys.argv[5]); ng = len(d["devices"]); one = float(sys.argv[6]) or wall
print("%-8s %5d %9.1f %10.0f %14.0f %7.2fx  %s" % (sys.argv[4], n, wall, n * 3600 / wall, n * 3600 / wall / ng,
      one / wall, [x.get("harness_starts") for x in d["devices"]]))
PY
    say "$(tail -1 "$WORK/row")"
    [ -n "$one_wall" ] || one_wall=$(python3 -c "print($t1 - $t0)")
done
