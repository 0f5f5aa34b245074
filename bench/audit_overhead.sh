#!/usr/bin/env bash
# The audits' cost (issue 39: <= 5% at the default rate), on a GPU. For each kernel, the same
# diff (an A/A pair, a fixed 300 samples a side so both runs take as many) with the audits on
# (the default) and off (--no-check: no check, no audit); the timing loop's own seconds
# (JSON runtime.stop.seconds, which holds the audits and nothing before the loop) per sample,
# as a ratio in one run; and directly, the audits' own wall time (JSON audits.seconds) against
# the rest of the same loop, which a second run's noise does not touch. Kernels of several kinds: memory-bound at 16M and 1M elements, a
# ~5 us one, compute-bound FMA chains, a naive SGEMM, Triton's tutorial softmax.
#   bench/audit_overhead.sh BUILD_DIR     (prints a table; $OUT/audit_overhead.txt when OUT is set)
set -u
BUILD=$(realpath "${1:-build}")
KD="$BUILD/kerndiff"
WORK=$(mktemp -d)
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
REPORT="${OUT:+$OUT/audit_overhead.txt}"
REPORT="${REPORT:-$WORK/audit_overhead.txt}"
say() { echo "$*" | tee -a "$REPORT"; }
j() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
say "audit overhead: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1), build $(cat "$BUILD/commit.txt" 2>/dev/null || echo '?')"
say "$(printf '%-22s %10s %8s %9s %9s %10s' kernel median audits audit_ms direct on/off)"
FIXED=(--min-runs 300 --max-runs 300 --target 0.01 --max-time 60 --no-ncu)
PAIRS=${AUDIT_PAIRS:-3}
one() { # NAME FILE [ARGS...]     (AUDIT_ROWS="NAME ...": those rows only)
    local name=$1 file=$2; shift 2
    [ -z "${AUDIT_ROWS:-}" ] || [[ " $AUDIT_ROWS " == *" $name "* ]] || return 0
    local k files=()
    for ((k = 0; k < PAIRS; k++)); do # on and off alternately: a drift of the GPU hits both
        timeout 30 "$KD" "${FIXED[@]}" "$@" --json "$WORK/$name.on$k.json" "$file" "$file" >"$WORK/$name.on$k.out" 2>&1
        timeout 30 "$KD" "${FIXED[@]}" "$@" --no-check --json "$WORK/$name.off$k.json" "$file" "$file" >"$WORK/$name.off$k.out" 2>&1
        [ -s "$WORK/$name.on$k.json" ] && [ -s "$WORK/$name.off$k.json" ] ||
            { say "$(printf '%-22s %s' "$name" "no JSON: a run failed or outlasted 30 s")"; return; }
        files+=("$WORK/$name.on$k.json" "$WORK/$name.off$k.json")
    done
    local row
    row=$(python3 - "${files[@]}" <<'PY' 2>&1
import json, statistics, sys
runs = [json.load(open(p)) for p in sys.argv[1:]]
def per(d):
    r = d["runtime"]; n = len(r["sides"][0]["samples_ns"]) + len(r["sides"][1]["samples_ns"])
    return r["stop"]["seconds"] / n
ons, offs = runs[0::2], runs[1::2]
ratio = statistics.median(per(a) / per(b) for a, b in zip(ons, offs))
# direct: the audits' own wall time against the rest of the same loop (no second run's noise)
direct = statistics.median(d["runtime"]["correctness"]["audits"]["seconds"] /
                           (d["runtime"]["stop"]["seconds"] - d["runtime"]["correctness"]["audits"]["seconds"])
                           for d in ons)
au = [d["runtime"]["correctness"]["audits"] for d in ons]
med = ons[0]["runtime"]["sides"][0]["summary_ns"]["median"]
done = statistics.median(a["done"] for a in au)
ms = statistics.median(1e3 * a["seconds"] / max(a["done"], 1) for a in au)
failed = sum(a["failed"] for a in au)
print("%8.2fus %5g/%-2d %9.2f %8.1f%% %9.1f%%" % (med / 1e3, done, failed, ms, 100 * direct, 100 * (ratio - 1)))
PY
)
    say "$(printf '%-22s %s' "$name" "$row")"
}
one vector_loads_16M examples/vector_loads/v1.cu
one fma_chain_4M tests/gpu/exploits/base.cu
one vector_loads_64K examples/vector_loads/v1.cu --n 64K
one sgemm_naive tests/gpu/kernels/sgemm_naive.cu --min-runs 60 --max-runs 60 # 300 a side outlast 30 s
one triton_softmax_rows tests/gpu/triton_jit/softmax_rows.py
one fma_loop tests/gpu/kernels/fma_loop.cu
one vector_loads_1M examples/vector_loads/v1.cu --n 1M
say "audits: median audits of each on run / failed in all; audit_ms: one audit of both sides, median"
say "direct: the audits' own wall time (JSON audits.seconds) against the rest of the same timing loop, median of $PAIRS runs"
say "on/off: the loop's seconds per sample with audits against without (--no-check), median of $PAIRS alternating pairs"
