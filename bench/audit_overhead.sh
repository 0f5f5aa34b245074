#!/usr/bin/env bash
# The audits' cost (issue 39: <= 5% at the default rate), on a GPU. For each kernel, the same
# diff (an A/A pair, a fixed 300 samples a side so both runs take as many) with the audits on
# (the default) and off (--no-check: no check, no audit); the timing loop's own seconds
# (JSON runtime.stop.seconds, which holds the audits and nothing before the loop) per sample,
# as a ratio in one run. Kernels of several kinds: memory-bound at 16M and 1M elements, a
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
say "$(printf '%-28s %10s %12s %12s %8s %9s' kernel median s/sample_on s/sample_off audits overhead)"
FIXED=(--min-runs 300 --max-runs 300 --target 0.01 --max-time 60 --no-ncu)
one() { # NAME FILE [ARGS...]     (AUDIT_ROWS="NAME ...": those rows only)
    local name=$1 file=$2; shift 2
    [ -z "${AUDIT_ROWS:-}" ] || [[ " $AUDIT_ROWS " == *" $name "* ]] || return 0
    local on="$WORK/$name.on.json" off="$WORK/$name.off.json"
    timeout 30 "$KD" "${FIXED[@]}" "$@" --json "$on" "$file" "$file" >"$WORK/$name.on.out" 2>&1
    timeout 30 "$KD" "${FIXED[@]}" "$@" --no-check --json "$off" "$file" "$file" >"$WORK/$name.off.out" 2>&1
    local row
    [ -s "$on" ] && [ -s "$off" ] || { say "$(printf '%-28s %s' "$name" "no JSON: a run failed or outlasted 30 s")"; return; }
    row=$(python3 - "$on" "$off" <<'PY' 2>&1
import json, sys
on, off = (json.load(open(p)) for p in sys.argv[1:3])
def per(d):
    r = d["runtime"]; n = len(r["sides"][0]["samples_ns"]) + len(r["sides"][1]["samples_ns"])
    return r["stop"]["seconds"] / n
a, b = per(on), per(off)
med = on["runtime"]["sides"][0]["summary_ns"]["median"]
au = on["runtime"]["correctness"]["audits"]
print("%10.2fus %12.3e %12.3e %5d/%-2d %8.1f%%" % (med / 1e3, a, b, au["done"], au["failed"], 100 * (a / b - 1)))
PY
)
    say "$(printf '%-28s %s' "$name" "$row")"
}
one vector_loads_16M examples/vector_loads/v1.cu
one fma_chain_4M tests/gpu/exploits/base.cu
one vector_loads_64K examples/vector_loads/v1.cu --n 64K
one sgemm_naive tests/gpu/kernels/sgemm_naive.cu --min-runs 60 --max-runs 60 # 300 a side outlast 30 s
one triton_softmax_rows tests/gpu/triton_jit/softmax_rows.py
one fma_loop tests/gpu/kernels/fma_loop.cu
one vector_loads_1M examples/vector_loads/v1.cu --n 1M
say "overhead: the timing loop's seconds per sample with audits against without (--no-check), same build, same GPU"
