#!/usr/bin/env bash
# The real-GPU suite: one command, run on a machine with an NVIDIA GPU, nvcc and ncu.
#   tests/gpu/run.sh [BUILD_DIR] [REPORT]
# BUILD_DIR holds kerndiff and its harnesses (default build); REPORT is where the results
# go (default tests/gpu/results.txt): date, GPU, driver, then each check and its evidence.
# ncu always runs with --clock-control none (the lent GPUs' clocks must not be changed).
set -u
BUILD=$(realpath "${1:-build}")
REPORT=${2:-tests/gpu/results.txt}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
KD="$BUILD/kerndiff"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-gpu.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 KERNDIFF_WIDTH=0 PATH="$PATH:/usr/local/cuda/bin"
K=tests/gpu/kernels
passed=0 failed=0

exec > >(tee "$REPORT") 2>&1
echo "# kerndiff real-GPU suite"
echo "date:    $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "gpu:     $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader 2>&1)"
echo "cuda:    $(nvcc --version | tail -1)"
echo "ncu:     $(ncu --version 2>&1 | tail -1)"
echo "kerndiff: $("$KD" --version)"
echo

check() { # check NAME CONDITION-EXIT-STATUS DETAIL
    if [ "$2" -eq 0 ]; then passed=$((passed + 1)); echo "PASS $1 -- $3"; else
        failed=$((failed + 1)); echo "FAIL $1 -- $3"; fi
}
field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

# Three parts, for machines that limit one command's time to 10 minutes: GPU_PART=1 (checks
# 1-9b), GPU_PART=2 (10-17), GPU_PART=3 (18 and the checks appended at the end); unset, all.
# GPU_PART=regions: the region checks alone (12, 19, 20; about 2 minutes); GPU_PART=sanitizer:
# the sanitizer's (13, under a minute). GPU_PART=triton_jit:
# Triton's tutorial-style kernels timed from their own launches (issue 26; needs torch).
part() {
    [ -z "${GPU_PART:-}" ] && return 0
    for p; do [ "$GPU_PART" = "$p" ] && return 0; done
    return 1
}
if part 1; then
# 1. A/A: the same kernel on both sides -> no significant difference.
"$KD" --json="$WORK/aa.json" "$K/fma_loop.cu" "$K/fma_loop.cu" >"$WORK/aa.txt" 2>&1
verdict=$(field "$WORK/aa.json" 'd["runtime"]["verdict"]')
check aa_no_difference "$([ "$verdict" = "no significant difference" ]; echo $?)" "$(field "$WORK/aa.json" 'd["runtime"]["headline"]')"
grep -E '^  (GPU|one launch|batched)' "$WORK/aa.txt"

# 2. 3% more iterations of a compute-bound loop -> slower, CI excluding 1.
"$KD" --json="$WORK/slow.json" --call v2:iters=5150 "$K/fma_loop.cu" "$K/fma_loop.cu" >"$WORK/slow.txt" 2>&1
verdict=$(field "$WORK/slow.json" 'd["runtime"]["verdict"]')
hi=$(field "$WORK/slow.json" 'd["runtime"]["speedup"]["ci_high"]')
check loop_3pct_slower "$([ "$verdict" = "slower" ] && python3 -c "import sys; sys.exit(not float('$hi') < 1)"; echo $?)" \
    "$(field "$WORK/slow.json" 'd["runtime"]["headline"]')"

# 2b. Two --call flags for one side merge (issue 10: the second one replaced the first and
# launched the wrong grid): v2 gets both the longer loop and the smaller block.
"$KD" --no-ncu --json="$WORK/calls.json" --call v2:iters=5150 --call v2:block=128 "$K/fma_loop.cu" "$K/fma_loop.cu" \
    >"$WORK/calls.txt" 2>&1
launched=$(field "$WORK/calls.json" '[d["sides"][1]["launch"]["block"][0], next(a["value"] for a in d["sides"][1]["launch"]["args"] if a["name"] == "iters"), d["sides"][1]["launch"]["grid"][0]]')
# The file's annotation fixes grid=ceil(n/256), so v2 keeps 1056 blocks of 128 threads (half the work).
check two_calls_merge "$([ "$launched" = "[128, 5150.0, 1056]" ]; echo $?)" "v2 block, iters, grid: $launched (want 128, 5150, 1056)"

# 3. Medians against ncu's gpu__time_duration (--clock-control none, --cache-control all).
compare_ncu() { # NAME JSON TOLERANCE-KIND TOLERANCE
    local ours ncu
    ours=$(field "$2" 'd["runtime"]["sides"][0]["summary_ns"]["median"]')
    ncu=$(python3 tests/gpu/ncu_duration.py "$2" 0 "$BUILD/kerndiff-harness" 7 2>"$WORK/ncu.err" | cut -d' ' -f1)
    if [ -z "$ncu" ]; then check "$1" 1 "ncu failed: $(tail -5 "$WORK/ncu.err")"; return; fi
    local verdict
    verdict=$(python3 -c "
ours, ncu = float('$ours'), float('$ncu')
diff = ours - ncu
ok = abs(diff) / ncu <= $4 if '$3' == 'rel' else abs(diff) <= $4
print(int(not ok), f'kerndiff median {ours:.1f} ns, ncu median {ncu:.1f} ns, difference {diff:+.1f} ns ({100*diff/ncu:+.2f}%)')")
    check "$1" "${verdict%% *}" "${verdict#* }"
}
compare_ncu ncu_long_within_3pct "$WORK/aa.json" rel 0.03
"$KD" --json="$WORK/short.json" --arg iters=400 "$K/fma_loop.cu" "$K/fma_loop.cu" >"$WORK/short.txt" 2>&1
echo "short kernel: $(field "$WORK/short.json" 'd["runtime"]["headline"]')"
compare_ncu ncu_short_within_500ns "$WORK/short.json" abs 500

# 4. A planted wrong result and an unwritten element are caught.
"$KD" --json="$WORK/wrong.json" "$K/scale.cu" "$K/scale_wrong.cu" >"$WORK/wrong.txt" 2>&1
match=$(field "$WORK/wrong.json" 'd["runtime"]["correctness"]["match"]')
detail=$(grep -E '^  out ' "$WORK/wrong.txt")
check wrong_result_caught "$([ "$match" = "False" ] && echo "$detail" | grep -q 'never written: v1 0, v2 1' && echo "$detail" | grep -q '\[4097\]'; echo $?)" "$detail"
"$KD" --require-match "$K/scale.cu" "$K/scale_wrong.cu" >/dev/null 2>&1
rc=$?
check require_match_exit_6 "$([ $rc -eq 6 ]; echo $?)" "exit $rc"

# 5. A faulting kernel: which side, the CUDA error, exit 5, kerndiff alive.
"$KD" "$K/scale.cu" "$K/scale_fault.cu" >"$WORK/fault.txt" 2>"$WORK/fault.err"
rc=$?
msg=$(grep '^kerndiff: v2' "$WORK/fault.err")
check fault_reported "$([ $rc -eq 5 ] && echo "$msg" | grep -q 'CUDA_ERROR_'; echo $?)" "exit $rc: $msg"

# 6. A hanging kernel: the watchdog ends that child, kerndiff exits 5 promptly.
start=$(date +%s)
"$KD" --timeout 3 "$K/scale.cu" "$K/scale_hang.cu" >"$WORK/hang.txt" 2>"$WORK/hang.err"
rc=$?
took=$(( $(date +%s) - start ))
msg=$(grep '^kerndiff: v2' "$WORK/hang.err")
check hang_reported "$([ $rc -eq 5 ] && [ $took -lt 60 ] && echo "$msg" | grep -q 'did not answer in time'; echo $?)" "exit $rc after ${took}s: $msg"
sleep 1
nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader

# 7. The bundled examples, timed and checked.
for ex in vector_loads coalescing bank_conflicts matmul reduction unroll fusion cublas; do
    tolerance=()
    [ $ex = cublas ] && tolerance=(--rtol 1e-4 --atol 1e-4) # cuBLAS sums in another order
    html=() # the real-GPU HTML example committed beside the results (issue 15)
    [ $ex = vector_loads ] && html=(--html "${REPORT%/*}/example.html")
    "$KD" "${tolerance[@]}" "${html[@]}" --json="$WORK/$ex.json" "examples/$ex/v1.cu" "examples/$ex/v2.cu" >"$WORK/$ex.txt" 2>&1
    rc=$?
    check "example_$ex" "$([ $rc -eq 0 ] && [ "$(field "$WORK/$ex.json" 'd["runtime"]["correctness"]["match"]')" = True ]; echo $?)" \
        "$(field "$WORK/$ex.json" 'd["runtime"]["headline"]' 2>&1)"
done
check example_html "$(grep -q 'svg id="chart-roofline"' "${REPORT%/*}/example.html"; echo $?)" "${REPORT%/*}/example.html"
echo
# 8. Counters (issue 4): the diffs the examples exist to show.
counter() { field "$1" "next(x for x in d['counters']['deltas'] if x['id'] == '$2')['$3']"; }
conf1=$(counter "$WORK/bank_conflicts.json" bank_conflicts_ld v1); conf2=$(counter "$WORK/bank_conflicts.json" bank_conflicts_ld v2)
check bank_conflicts_fall "$(python3 -c "import sys; sys.exit(not (float('$conf1') >= 100 * max(float('$conf2'), 1)))"; echo $?)" \
    "shared ld bank conflicts $conf1 -> $conf2; $(field "$WORK/bank_conflicts.json" 'd["runtime"]["headline"]')"
spr1=$(counter "$WORK/coalescing.json" sectors_per_request_ld v1); spr2=$(counter "$WORK/coalescing.json" sectors_per_request_ld v2)
check coalescing_sectors "$(python3 -c "import sys; a, b = float('$spr1'), float('$spr2'); sys.exit(not (abs(a - 32) < 1 and abs(b - 4) < 0.5))"; echo $?)" \
    "global load sectors per request $spr1 -> $spr2"
k1=$(field "$WORK/fusion.json" 'len(d["counters"]["sides"][0]["kernels"])'); k2=$(field "$WORK/fusion.json" 'len(d["counters"]["sides"][1]["kernels"])')
b1=$(field "$WORK/fusion.json" 'd["counters"]["sides"][0]["metrics"]["dram_bytes"]'); b2=$(field "$WORK/fusion.json" 'd["counters"]["sides"][1]["metrics"]["dram_bytes"]')
bsum=$(field "$WORK/fusion.json" 'sum(k["metrics"]["dram_bytes"] for k in d["counters"]["sides"][0]["kernels"])')
check fusion_kernels_and_bytes "$(python3 -c "import sys; sys.exit(not ($k1 == 3 and $k2 == 1 and abs(float('$b1') - float('$bsum')) < 1 and float('$b1') > 2 * float('$b2')))"; echo $?)" \
    "kernels $k1 -> $k2, DRAM bytes $b1 (sum of v1's kernels $bsum) -> $b2; $(field "$WORK/fusion.json" 'd["runtime"]["headline"]')"
worst=$(for f in "$WORK"/*.json; do field "$f" 'max([s["roofline"]["bw_fraction"] for s in d["counters"]["sides"] if s["roofline"]] or [0]) if d.get("counters") else 0' 2>/dev/null; done | sort -g | tail -1)
pct=$(python3 -c "print(round(100 * float('$worst'), 1))")
check dram_bandwidth_below_peak "$(python3 -c "import sys; sys.exit(not (0 < float('$worst') <= 1.05))"; echo $?)" \
    "highest achieved DRAM bandwidth over all runs: $pct% of the computed peak"

# 8b. The roofline names the unit it is bound by, and that unit is busy (issue 10: "memory-bound,
# 0% of peak DRAM bandwidth" for a naive SGEMM that was L1-bound).
lines=$(grep -h '^  roofline: ' "$WORK"/*.txt)
bad=$(printf '%s\n' "$lines" | python3 -c '
import re, sys
for line in sys.stdin:
    for bound, unit, pct in re.findall(r"(memory|compute)-bound \(([^)]*?) (\d+)% of peak\)", line):
        if int(pct) < 60: print(line.strip())')
check roofline_names_a_busy_unit "$([ -n "$lines" ] && [ -z "$bad" ]; echo $?)" "$(printf '%s\n' "$lines" | head -3 | tr '\n' ' ')${bad:+ BAD: $bad}"

# 9. A size sweep where the faster version changes with size (issue 5).
"$KD" --n 1K..16M:x16 --json="$WORK/sweep.json" examples/crossover/v1.cu examples/crossover/v2.cu >"$WORK/sweep.txt" 2>&1
first=$(field "$WORK/sweep.json" 'd["sweep"]["points"][0]["result"]["runtime"]["verdict"]')
last=$(field "$WORK/sweep.json" 'd["sweep"]["points"][-1]["result"]["runtime"]["verdict"]')
check sweep_crossover "$([ "$first" = slower ] && [ "$last" = faster ]; echo $?)" "v2 at the smallest size: $first; at the largest: $last"
sed -n '/^sweep over/,$p' "$WORK/sweep.txt"


# 9b. SGEMM_CUDA's naive kernel at 4096^3 (issue 10: about 275 ms a launch; its counters were
# once lost to a broken protocol reply), timed and profiled.
"$KD" --json="$WORK/sgemm.json" --min-runs 5 --max-time 5 "$K/sgemm_naive.cu" "$K/sgemm_naive.cu" \
    >"$WORK/sgemm.txt" 2>&1
rc=$?
sgemm_ms=$(field "$WORK/sgemm.json" 'round(d["runtime"]["sides"][0]["summary_ns"]["median"] / 1e6, 1)' 2>/dev/null)
sgemm_note=$(field "$WORK/sgemm.json" '(d.get("notes") or {}).get("counters") and d["notes"]["counters"]["text"] or ""' 2>/dev/null)
check sgemm_naive_4096_counters "$([ $rc -eq 0 ] && [ "$(field "$WORK/sgemm.json" 'bool(d.get("counters"))')" = True ] &&
    [ -z "$sgemm_note" ]; echo $?)" "exit $rc; median ${sgemm_ms:-?} ms per launch; ${sgemm_note:-counters present}"
fi
if part 2; then
# 10. The protocol (docs/PROTOCOL.md): the conformance transcript on the CUDA harness, with
# a copy kernel whose outputs must be the seeded inputs bit for bit.
nvcc -arch=sm_90 -cubin -o "$WORK/copy.cubin" "$K/copy.cu" 2>"$WORK/copy.err"
"$BUILD/tests/conformance" "$BUILD/kerndiff-harness" "$WORK/copy.cubin" kd_copy >"$WORK/conformance.txt" 2>&1
check protocol_conformance $? "$(tail -1 "$WORK/conformance.txt"); $(grep -c '^ok' "$WORK/conformance.txt") checks passed"
grep '^FAIL' -A1 "$WORK/conformance.txt"

# 11. Placement (issue 16): the 64K-element add (2 us), where buffer placement alone moved the
# time by up to 4.6% when each side had buffers of its own, read as identical on both sides.
"$KD" --no-ncu --n 64K --json="$WORK/place.json" "$K/add.cu" "$K/add.cu" >"$WORK/place.txt" 2>&1
verdict=$(field "$WORK/place.json" 'd["runtime"]["verdict"]')
check aa_short_add_same_buffers "$([ "$verdict" = "no significant difference" ]; echo $?)" \
    "$(field "$WORK/place.json" 'd["runtime"]["headline"]'); $(grep -o 'placement sensitivity.*' "$WORK/place.txt")"
fi
if part 2 regions; then

# 12. Regions (issue 12): known spin lengths read back; the matmul example's load wait shrinks.
"$KD" --no-ncu --regions --json="$WORK/spin.json" "$K/regions_spin.cu" "$K/regions_spin.cu" >"$WORK/spin.txt" 2>&1
sed -n '/^regions:/,/^  instrumented/p' "$WORK/spin.txt"
spin_ok=$(python3 - "$WORK/spin.txt" <<'PY'
import re, sys
rows = {m.group(1): float(m.group(2)) for m in re.finditer(r"^  (\w+) +([0-9.]+) \[", open(sys.argv[1]).read(), re.M)}
want = {"spin1k": 1000, "spin10k": 10000, "spin100k": 100000}
ok = all(k in rows for k in want) and "empty" in rows and "spin0" in rows
base = rows.get("spin0", 0)
print(f"spin0 (the spin's own start and end): {base:.0f}", end="; ")
for k, v in want.items():
    got = rows.get(k, -1) - base
    ok &= abs(got - v) <= max(0.02 * v, 50)
    print(f"{k} - spin0: {got:.0f} cycles (want {v})", end="; ")
print(f"empty: {rows.get('empty', -1):.0f}", end="; ")
ok &= abs(rows.get("empty", 1e9)) <= 50
print(int(not ok))
PY
)
check regions_spin_accuracy "${spin_ok##*; }" "${spin_ok%; *}"
"$KD" --no-ncu --regions --trace "$WORK/regions_trace.json" "examples/regions/v1.cu" "examples/regions/v2.cu" >"$WORK/regions.txt" 2>&1
sed -n '/^v2 is\|^no signif/p;/^regions:/,/^  instrumented/p' "$WORK/regions.txt"
load=$(grep -E '^  load ' "$WORK/regions.txt")
check regions_matmul_load_shrinks "$(echo "$load" | grep -q -- '-[0-9.]*% (beyond launch-to-launch noise)'; echo $?)" "$load"
python3 tests/e2e/check_trace.py "$WORK/regions_trace.json" >"$WORK/trace_check.txt" 2>&1
check regions_trace_valid $? "$(head -1 "$WORK/trace_check.txt")"
cp "$WORK/regions_trace.json" "${REPORT%/*}/regions_trace.json" 2>/dev/null
fi
if part 2 sanitizer; then

# 13. The sanitizer (issue 13): planted defects found and explained with buffer, element, line.
# The buffer a defect overruns is sized with --buf: kerndiff's launch reads the kernel's own
# indexing (out[i + 1] makes out n + 1 elements), which would size the defect away.
P=tests/gpu/sanitizer/planted.cu
sanitize() { # NAME TOOL FN PATTERN [FLAGS...]
    local name=$1 tool=$2 fn=$3 pattern=$4; shift 4
    "$KD" --no-ncu --n 1024 --fn "$fn" --sanitize="$tool" "$@" "$P" "$P" >"$WORK/$name.txt" 2>&1
    local rc=$? line
    line=$(grep -E "^  v1 $tool: " "$WORK/$name.txt" | head -1)
    check "$name" "$([ $rc -eq 9 ] && echo "$line" | grep -Eq -- "$pattern"; echo $?)" "exit $rc: $line"
}
sanitize sanitize_oob_write memcheck oob_write 'wrote 4 bytes at out\[1024\], one past its end .* at planted\.cu:12' --buf out=1024
sanitize sanitize_oob_read memcheck oob_read 'read 4 bytes at x\[1024\], one past its end .* at planted\.cu:20' --buf x=1024
sanitize sanitize_race racecheck smem_race 'a data race: Write access at planted\.cu:28 .* Read access .*planted\.cu:29'
sanitize sanitize_barrier synccheck warp_sync_bad_mask 'barrier error .* at planted\.cu:91'
sanitize sanitize_uninit initcheck uninit_read 'read 4 bytes .* at planted\.cu:51'
# A fault explained: a too-small --n, and a too-large --block for a 128-float shared array.
# x is read as x[k % 1024] (1024 elements, which kerndiff cannot tell), out as long as n says.
"$KD" --no-ncu --n 64K --buf x=1024 --buf out=65536 "$K/fixed_rows.cu" "$K/fixed_rows.cu" >"$WORK/fault_n.txt" 2>&1
rc=$?
line=$(grep 'under compute-sanitizer memcheck' "$WORK/fault_n.txt")
check fault_explained_small_n "$([ $rc -eq 5 ] && echo "$line" | grep -Eq 'at out\[[0-9]+\], (one )?past its end \(65536 elements\).*--n'; echo $?)" "exit $rc: $line"
"$KD" --no-ncu --n 1024 --fn smem_overflow --block 256 "$P" "$P" >"$WORK/fault_block.txt" 2>&1
rc=$?
line=$(grep -E 'under compute-sanitizer memcheck|^  v1 memcheck' "$WORK/fault_block.txt")
check fault_explained_big_block "$(echo "$line" | grep -q 'shared memory at offset .*--block'; echo $?)" "exit $rc: $line"
fi
if part 2; then

# 14. Triton (issue 11): the cubins Triton compiles ahead of time, timed by the same harness.
# Triton vs Triton: timed, outputs match, counters present for both sides.
"$KD" --json="$WORK/tt.json" examples/triton/block_size/v1.py examples/triton/block_size/v2.py >"$WORK/tt.txt" 2>&1
check triton_pair_timed "$([ "$(field "$WORK/tt.json" 'd["runtime"]["correctness"]["match"]')" = True ] &&
    [ "$(field "$WORK/tt.json" 'len(d["counters"]["sides"]) if d.get("counters") else 0')" = 2 ]; echo $?)" \
    "$(field "$WORK/tt.json" 'd["runtime"]["headline"]'); counters for both sides"
for ex in softmax matmul; do
    "$KD" --json="$WORK/t_$ex.json" "examples/triton/$ex/v1.py" "examples/triton/$ex/v2.py" >"$WORK/t_$ex.txt" 2>&1
    check "triton_example_$ex" "$([ "$(field "$WORK/t_$ex.json" 'd["runtime"]["correctness"]["match"]')" = True ]; echo $?)" \
        "$(field "$WORK/t_$ex.json" 'd["runtime"]["headline"]' 2>/dev/null || grep -m2 '^kerndiff:' "$WORK/t_$ex.txt")"
done
# CUDA vs Triton, the seed's story: Blelloch (exclusive) against tl.cumsum (inclusive) must be
# flagged "outputs differ", and --require-match must exit 6.
"$KD" --require-match --json="$WORK/scan.json" examples/triton/scan/blelloch.cu examples/triton/scan/scan.py >"$WORK/scan.txt" 2>&1
rc=$?
check cross_language_scan_mismatch "$([ $rc -eq 6 ] && [ "$(field "$WORK/scan.json" 'd["runtime"]["correctness"]["match"]')" = False ]; echo $?)" \
    "exit $rc; $(grep -m1 -i 'outputs differ' "$WORK/scan.txt")"
grep -A2 -i 'outputs differ' "$WORK/scan.txt"
# The Triton timing against triton.testing.do_bench (median, L2 flushed by its 256 MiB
# memset) on a kernel of well over 20 us: within 2%.
"$KD" --no-ncu --n 64M --json="$WORK/tb.json" examples/triton/block_size/v2.py examples/triton/block_size/v2.py >/dev/null 2>&1
ours=$(field "$WORK/tb.json" 'd["runtime"]["sides"][0]["summary_ns"]["median"]')
theirs=$(python3 tests/gpu/triton_do_bench.py 67108864 2>"$WORK/do_bench.err")
if [ -z "$theirs" ]; then check triton_vs_do_bench 1 "do_bench failed (needs torch): $(tail -2 "$WORK/do_bench.err")"; else
    verdict=$(python3 -c "
ours, theirs = float('$ours'), float('$theirs')
print(int(abs(ours - theirs) / theirs > 0.02), f'kerndiff median {ours/1e3:.1f} us, do_bench median {theirs/1e3:.1f} us ({100*(ours-theirs)/theirs:+.2f}%)')")
    check triton_vs_do_bench "${verdict%% *}" "${verdict#* }"; fi
# An autotuned kernel: without --arg each side times both configs briefly and keeps the
# fastest (JSON: how "fastest", chosen = the smallest median); --call v2:BLOCK=1024 selects
# config 2 on v2 only, which says so.
"$KD" --no-ncu --json="$WORK/tune1.json" "$K/tuned.py" "$K/tuned.py" >"$WORK/tune1.txt" 2>&1
"$KD" --no-ncu --call v2:BLOCK=1024 --json="$WORK/tune2.json" "$K/tuned.py" "$K/tuned.py" >"$WORK/tune2.txt" 2>&1
fastest=$(field "$WORK/tune1.json" 'all(s["autotune"]["how"] == "fastest" and s["autotune"]["chosen"] == min(range(2), key=lambda i: s["autotune"]["configs"][i]["median_ns"]) for s in d["sides"])')
check triton_autotuned "$([ "$fastest" = True ] && [ "$(grep -c '^      autotune: config [12] of 2 (.*) was fastest, ' "$WORK/tune1.txt")" = 2 ] &&
    grep -q '^      autotune: config 2 of 2 (BLOCK=1024, num_warps=8) used, the one the values given' "$WORK/tune2.txt" &&
    [ "$(field "$WORK/tune2.json" 'd["runtime"]["correctness"]["match"]')" = True ]; echo $?)" \
    "$(grep -h '^      autotune' "$WORK/tune1.txt" "$WORK/tune2.txt" | tr '\n' ' ')"

# 15. A long kernel (about 0.4 s per launch) keeps its counters: ncu replays it once per
# counter pass (issue 10: a 275 ms SGEMM lost them to ncu's lines on the shared stdout).
"$KD" --json="$WORK/long.json" --arg iters=50000000 --min-runs 5 --max-time 5 "$K/fma_loop.cu" "$K/fma_loop.cu" \
    >"$WORK/long.txt" 2>&1
ms=$(field "$WORK/long.json" 'round(d["runtime"]["sides"][0]["summary_ns"]["median"] / 1e6, 1)')
note=$(grep '^counters not' "$WORK/long.txt")
check long_kernel_counters "$([ "$(field "$WORK/long.json" 'bool(d.get("counters"))')" = True ] && [ -z "$note" ]; echo $?)" \
    "median $ms ms per launch (want 300-1000); ${note:-counters present}"

# 16. A short pair (about 5 us, v2 with 10% more iterations): several profiled launches, and
# ncu's duration agrees with the verdict or is marked noisy (issue 10: +3.2% against -10.7%).
"$KD" --json="$WORK/shortpair.json" --arg iters=400 --call v2:iters=440 "$K/fma_loop.cu" "$K/fma_loop.cu" \
    >"$WORK/shortpair.txt" 2>&1
agree=$(field "$WORK/shortpair.json" '(lambda v, x: x["noisy"] or v == "no significant difference" or (x["delta"] > 0) == (v == "slower"))(d["runtime"]["verdict"], next(x for x in d["counters"]["deltas"] if x["id"] == "duration"))')
check short_pair_counters_agree "$([ "$agree" = True ] && [ "$(field "$WORK/shortpair.json" 'd["counters"]["repeats"]')" -ge 5 ]; echo $?)" \
    "$(field "$WORK/shortpair.json" 'd["runtime"]["headline"]'); ncu duration $(field "$WORK/shortpair.json" 'next(x for x in d["counters"]["deltas"] if x["id"] == "duration")') "
grep "^  note: ncu's duration" "$WORK/shortpair.txt"

# 17. kerndiff app (whole programs, libkerndiff-inject.so): 3 kernels per step against a fused one,
# eager PyTorch against torch.compile; kernel time against CUDA events around the steps.
A=tests/gpu/app
nvcc -O2 -arch=native -o "$WORK/steps3" "$A/steps.cu" && nvcc -O2 -arch=native -DFUSED -o "$WORK/steps1" "$A/steps.cu"
rm -f "$WORK/ev3" "$WORK/ev1"
"$KD" app --range step --json="$WORK/app.json" "$WORK/steps3 67108864 50 $WORK/ev3" "$WORK/steps1 67108864 50 $WORK/ev1" >"$WORK/app.txt" 2>&1
rc=$?
check app_cuda_ran "$rc" "exit $rc; $(head -3 "$WORK/app.txt" | tail -1)"
lps=$(field "$WORK/app.json" 'd["totals"]["launches"]["per_step"]' 2>&1)
check app_launches_per_step "$([ "$lps" = "[3.0, 1.0]" ]; echo $?)" "launches per step v1, v2: $lps (want 3 -> 1)"
d2h=$(field "$WORK/app.json" 'd["totals"]["dtoh_copies"]["per_step"]' 2>&1)
check app_d2h_per_step "$([ "$d2h" = "[1.0, 1.0]" ]; echo $?)" "D2H copies per step: $d2h"
only=$(field "$WORK/app.json" 'sorted(k["name"].split("(")[0] for k in d["kernels"] if k["v1"] is None)' 2>&1)
check app_fused_only_in_v2 "$([ "$only" = "['fused']" ]; echo $?)" "kernels only in v2: $only (the warm-up fused launch is outside the ranges)"
# Kernel time (CUPTI) against the events around the steps, per side: within 2%.
for s in 1 2; do
    ev=$([ $s = 1 ] && echo "$WORK/ev3" || echo "$WORK/ev1")
    agree=$(python3 - "$WORK/app.json" "$ev" $s <<'PY'
import json, statistics, sys
d = json.load(open(sys.argv[1])); side = int(sys.argv[3])
k = d["totals"]["kernel_ns"]["v%d" % side] / 1e6
e = statistics.median(float(l) for l in open(sys.argv[2]))
print("%.4f ms kernels, %.4f ms events, %+.2f%%" % (k, e, (k / e - 1) * 100))
sys.exit(0 if abs(k / e - 1) < 0.02 else 1)
PY
)
    check app_events_agree_v$s $? "$agree"
done
cat "$WORK/app.txt"
# PyTorch: eager (mul, add, relu) against torch.compile (one Triton kernel).
rm -f "$WORK/evt_e" "$WORK/evt_c"
"$KD" app --range step --json="$WORK/app_torch.json" "python3 $A/torch_step.py eager 20 $WORK/evt_e" \
    "python3 $A/torch_step.py compiled 20 $WORK/evt_c" >"$WORK/app_torch.txt" 2>&1
rc=$?
check app_torch_ran "$rc" "exit $rc; $(head -3 "$WORK/app_torch.txt" | tail -1)"
lps=$(field "$WORK/app_torch.json" 'd["totals"]["launches"]["per_step"]' 2>&1)
check app_torch_fewer_launches "$(python3 -c "import sys; v=$lps; sys.exit(0 if v[0] >= 3 and v[1] < v[0] else 1)" 2>/dev/null; echo $?)" "launches per step eager, compiled: $lps"
for s in 1 2; do
    ev=$([ $s = 1 ] && echo "$WORK/evt_e" || echo "$WORK/evt_c")
    agree=$(python3 -c '
import json, statistics, sys
d = json.load(open(sys.argv[1])); k = d["totals"]["kernel_ns"]["v" + sys.argv[3]] / 1e6
e = statistics.median(float(l) for l in open(sys.argv[2]))
print("%.4f ms kernels, %.4f ms events, %+.2f%%" % (k, e, (k / e - 1) * 100)); sys.exit(0 if abs(k / e - 1) < 0.02 else 1)' "$WORK/app_torch.json" "$ev" $s)
    check app_torch_events_agree_v$s $? "$agree"
done
cat "$WORK/app_torch.txt"
# A child process is collected too: the fused program started by a shell that forks it.
"$KD" app --runs 2 --json="$WORK/app_child.json" "$WORK/steps1 1048576 10 /dev/null" \
    "sh -c '$WORK/steps1 1048576 10 /dev/null; true'" >"$WORK/app_child.txt" 2>&1
l=$(field "$WORK/app_child.json" '[d["totals"]["launches"]["v1"], d["totals"]["launches"]["v2"]]' 2>&1)
check app_child_process "$(python3 -c "import sys; v=$l; sys.exit(0 if v[0] == v[1] == 21 else 1)" 2>/dev/null; echo $?)" "launches direct vs through a child: $l (want 21 each: warm-up, 10 spins, 10 steps)"
# --range follows nvtxRangeStartA/nvtxRangeEnd ranges as it does push/pop ones: the same
# program with each kind of range, the same steps and launches inside them.
nvcc -O2 -arch=native -DSTART_END -o "$WORK/steps3se" "$A/steps.cu"
"$KD" app --runs 1 --range step --json="$WORK/app_se.json" "$WORK/steps3 1048576 20 /dev/null" \
    "$WORK/steps3se 1048576 20 /dev/null" >"$WORK/app_se.txt" 2>&1
se=$(field "$WORK/app_se.json" '[d["steps"], d["totals"]["launches"]["v1"], d["totals"]["launches"]["v2"]]' 2>&1)
check app_range_start_end "$([ "$se" = "[20.0, 60.0, 60.0]" ]; echo $?)" "steps, launches push/pop, launches start/end: $se (want 20, 60, 60)"

fi
if part 3; then
# 18. HTML pages from real records (issue 15): the region timeline of one block per side, and
# the app page's chart of the top kernels. The regions page is kept beside the results.
A=tests/gpu/app
[ -x "$WORK/steps3" ] || { nvcc -O2 -arch=native -o "$WORK/steps3" "$A/steps.cu" && nvcc -O2 -arch=native -DFUSED -o "$WORK/steps1" "$A/steps.cu"; }
"$KD" --no-ncu --regions --html "$WORK/regions.html" examples/regions/v1.cu examples/regions/v2.cu >"$WORK/regions_html.txt" 2>&1
check html_region_timeline "$(grep -q 'svg id="chart-region-timeline"' "$WORK/regions.html" && grep -q 'class="slice r' "$WORK/regions.html"; echo $?)" \
    "$(grep -o 'One block of each side[^<]*' "$WORK/regions.html" | cut -c1-300)"
cp "$WORK/regions.html" "${REPORT%/*}/example-regions.html" 2>/dev/null
# 18b. Triton regions from Proton's own records (issue 12, item 7): the instrumented cubin
# writes Proton's per-warp buffers into its profile scratch, the harness converts them
# (src/regions/proton.c); both sides' scopes get rows with instances, and the trace slices.
"$KD" --no-ncu --regions --trace "$WORK/triton_regions_trace.json" --json="$WORK/triton_regions.json" \
    examples/regions/triton/v1.py examples/regions/triton/v2.py >"$WORK/triton_regions.txt" 2>&1
rc=$?
sed -n '/^regions/,/^  instrumented/p' "$WORK/triton_regions.txt"
rows=$(field "$WORK/triton_regions.json" '[[(r["name"], r["instances"]) for r in s["profile"]["regions"]] + [("dropped", s["profile"]["dropped"])] for s in d["regions"]["sides"]]' 2>&1)
check triton_regions_recorded "$([ $rc -eq 0 ] && python3 - "$WORK/triton_regions.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for side in d["regions"]["sides"]:
    got = {r["name"]: r["instances"] for r in side["profile"]["regions"]}
    assert sorted(got) == ["add", "load", "reduce"] and min(got.values()) > 0, got
PY
echo $?)" "exit $rc; $rows; $(grep -m1 '^regions not recorded' "$WORK/triton_regions.txt")"
slices=$(python3 -c 'import json,sys,collections; e=json.load(open(sys.argv[1]))["traceEvents"]; print(dict(collections.Counter(x["name"] for x in e if x["ph"]=="X")))' \
    "$WORK/triton_regions_trace.json" 2>&1)
check triton_regions_trace "$(python3 tests/e2e/check_trace.py "$WORK/triton_regions_trace.json" >/dev/null 2>&1 &&
    echo "$slices" | grep -q "'load': [1-9]" && echo "$slices" | grep -q "'add': [1-9]" &&
    echo "$slices" | grep -q "'reduce': [1-9]"; echo $?)" "slices $slices"
"$KD" app --runs 2 --html "$WORK/app.html" "$WORK/steps3 1048576 10 /dev/null" "$WORK/steps1 1048576 10 /dev/null" >"$WORK/app_html.txt" 2>&1
check app_html "$(grep -q 'svg id="chart-app-kernels"' "$WORK/app.html" && grep -q 'class="bar v2"' "$WORK/app.html"; echo $?)" \
    "$(grep -o '<p class="verdict[^<]*' "$WORK/app.html")"

fi

# Issue 10: a templated kernel times with its instance's types (copy<float>: float buffers),
# and kernels declared through a macro are found in the compiled code (parameters p0, p1, ...).
if part 3; then
cat >"$WORK/tcopy_a.cu" <<'CU'
template <typename T>
__global__ void copy(const T* __restrict__ in, T* out, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) out[i] = in[i]; }
template __global__ void copy<float>(const float*, float*, int);
CU
cat >"$WORK/tcopy_b.cu" <<'CU'
template <typename T>
__global__ void copy(const T* __restrict__ in, T* out, int n)
{ for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) out[i] = in[i]; }
template __global__ void copy<float>(const float*, float*, int);
CU
"$KD" --no-ncu --max-time 3 --fn copy --n 16M --json="$WORK/tcopy.json" "$WORK/tcopy_a.cu" "$WORK/tcopy_b.cu" >"$WORK/tcopy.txt" 2>&1
rc=$?
args=$(field "$WORK/tcopy.json" '[(a["name"], a["dtype"], a.get("count")) for s in d["sides"] for a in s["launch"]["args"][:2]]' 2>&1)
check template_copy_float "$([ $rc -eq 0 ] && [ "$(field "$WORK/tcopy.json" 'd["runtime"]["correctness"]["match"]')" = True ] &&
    [ "$args" = "[('in', 'f32', 16777216), ('out', 'f32', 16777216), ('in', 'f32', 16777216), ('out', 'f32', 16777216)]" ]; echo $?)" \
    "exit $rc; buffers $args; $(field "$WORK/tcopy.json" 'd["runtime"]["headline"]' 2>&1)"
cat >"$WORK/macro_gpu.cu" <<'CU'
#define DEFINE_DOUBLE(NAME, EXPR) \
  __global__ void NAME(const float* in, float* out, int n) { int i = blockIdx.x*blockDim.x+threadIdx.x; if (i<n) out[i] = EXPR; }
DEFINE_DOUBLE(twice_mul, in[i] * 2.0f)
DEFINE_DOUBLE(twice_add, in[i] + in[i])
CU
"$KD" --no-ncu --max-time 3 --fn twice_mul:twice_add --n 16M --arg p2=n --json="$WORK/macro_gpu.json" \
    "$WORK/macro_gpu.cu" "$WORK/macro_gpu.cu" >"$WORK/macro_gpu.txt" 2>&1
rc=$?
args=$(field "$WORK/macro_gpu.json" '[(a["name"], a["dtype"], a.get("count", a.get("value"))) for a in d["sides"][1]["launch"]["args"]]' 2>&1)
check macro_kernels_timed "$([ $rc -eq 0 ] && [ "$(field "$WORK/macro_gpu.json" 'd["runtime"]["correctness"]["match"]')" = True ] &&
    [ "$args" = "[('p0', 'f32', 16777216), ('p1', 'f32', 16777216), ('p2', 'i32', 16777216.0)]" ]; echo $?)" \
    "exit $rc; v2 args $args; $(field "$WORK/macro_gpu.json" 'd["runtime"]["headline"]' 2>&1)"
fi

# 19. KD_REGION_KEEP (issue 12): a region around 16 dependent FMAs reads their latency only when
# the chain is pinned inside it; v2 is the same kernel without KD_REGION_KEEP.
if part 3 regions; then
    printf '// kerndiff: block=128 grid=132 iters=4096\n' >"$WORK/keep_v1.cu"
    sed 's/{ KD_REGION_KERNEL_CONTEXT/{/' tests/e2e/fixtures/region_keep.cu >>"$WORK/keep_v1.cu"
    sed '/KD_REGION_KEEP(v);/d' "$WORK/keep_v1.cu" >"$WORK/keep_v2.cu"
    "$KD" --no-ncu --regions "$WORK/keep_v1.cu" "$WORK/keep_v2.cu" >"$WORK/keep.txt" 2>&1
    sed -n '/^regions:/,/^  instrumented/p' "$WORK/keep.txt"
    step=$(grep -E '^  step ' "$WORK/keep.txt")
    kept=$(echo "$step" | awk '{print $2}')
    check regions_keep_pins_work "$([ -n "$kept" ] && [ "$kept" -ge 48 ]; echo $?)" \
        "step with KD_REGION_KEEP (v1) and without (v2): ${step:-no step row}"
fi

# 20. Warp groups (issue 12, KD_REGION_GROUP): a block of three warpgroups, a producer (2k-cycle
# regions) and two consumers (6k): one warp of each records, each region names its group,
# the spins read within 2% (give or take what a spin costs to start and end), the trace's
# tracks are named by group, and the SM clock measured while recording is an H100/H200's.
if part 3 regions; then
    G=tests/gpu/kernels/regions_groups.cu
    "$KD" --no-ncu --regions --trace "$WORK/groups_trace.json" --json="$WORK/groups.json" "$G" "$G" >"$WORK/groups.txt" 2>&1
    rc=$?
    sed -n '/^regions:/,/^  instrumented/p' "$WORK/groups.txt"
    groups_ok=$(python3 - "$WORK/groups.json" "$WORK/groups_trace.json" <<'PY' 2>&1
import json, sys
p = json.load(open(sys.argv[1]))["regions"]["sides"][0]["profile"]
rows = {r["name"]: r for r in p["regions"]}
groups = {g["name"]: g for g in p["groups"]}
blocks = p["blocks_recorded"]
ok = rows["produce"]["group"] == "producer" and rows["consume"]["group"] == "consumer"
ok &= groups["producer"]["recording_warps"] == blocks and groups["consumer"]["recording_warps"] == 2 * blocks
ok &= p["recording_warps"] == 3 * blocks and p["warps"] == 12 * blocks
ok &= abs(rows["produce"]["median_cycles"] - 2000) <= 0.02 * 2000 + 60
ok &= abs(rows["consume"]["median_cycles"] - 6000) <= 0.02 * 6000 + 60
names = {e["args"]["name"] for e in json.load(open(sys.argv[2]))["traceEvents"] if e.get("name") == "thread_name"}
ok &= bool(names) and all(" / producer (warps 0-3)" in n or " / consumer (warps " in n for n in names)
# The SM clock measured from the warps' %globaltimer and %clock at their start and end: above
# 1 GHz and not above the GPU's maximum SM clock +1%. The seventh session read 2007 MHz of
# 1980 while a cold constant load sat between the start's clock and %globaltimer reads
# (fixed). The eighth, on an H100 (max 1980), read 1972-1979 for both sides of 16 runs of
# this kernel and examples/regions (half of them with a header that read the clock on both
# sides of the timer and retried on a gap: no different, not kept), but 1994 and 1986 in two
# runs of this check: over these warps' 4-12 us lives the timer's rate against %clock can be
# off by 0.7% (cause not pinned down).
import subprocess
top = float(subprocess.run(["nvidia-smi", "--query-gpu=clocks.max.sm", "--format=csv,noheader,nounits"],
                           capture_output=True, text=True).stdout.split()[0]) * 1e6
ok &= 1.0e9 < p.get("sm_clock_hz", 0) <= 1.01 * top
print(f"SM clock while recording {p.get('sm_clock_hz', 0) / 1e6:.0f} MHz (maximum {top / 1e6:.0f}); produce {rows['produce']['median_cycles']:.0f} [{rows['produce']['group']}], consume "
      f"{rows['consume']['median_cycles']:.0f} [{rows['consume']['group']}], {p['recording_warps']} of {p['warps']} "
      f"warps recorded from {blocks} blocks, {len(names)} named tracks; {int(not ok)}")
PY
)
    check regions_warp_groups "$([ $rc -eq 0 ] && [ "${groups_ok##*; }" = 0 ]; echo $?)" "exit $rc; ${groups_ok%; *}"
fi

# Triton sides as Triton runs them (issue 26): the launch taken from each file's own call, the
# JIT's cubin; registers/spills/shared equal to the JIT's CompiledKernel for that launch, and the
# median within 2% of triton.testing.do_bench on it; a softmax diff's ratio within 2% of do_bench's; each also
# under --load sustained (back to back, as do_bench runs them: the must-show for a power-bound kernel).
if part triton_jit; then
python3 tests/gpu/triton_jit_check.py "$KD" "$WORK" >"$WORK/triton_jit.txt" 2>&1
while read -r status name detail; do
    case "$status" in
    ok) check "${name%:}" 0 "$detail" ;;
    FAIL) check "${name%:}" 1 "$detail" ;;
    esac
done <"$WORK/triton_jit.txt"
grep -Ev '^(ok|FAIL) ' "$WORK/triton_jit.txt" | tail -20
for f in "$WORK"/softmax_diff.txt "$WORK"/softmax_diff_sustained.txt "$WORK"/softmax_persistent.txt "$WORK"/matmul_autotune_sustained.txt; do echo "## $f"; cat "$f" 2>/dev/null; done
fi

part 1 && for ex in bank_conflicts fusion cublas; do
    echo "## full report of the $ex example"
    cat "$WORK/$ex.txt"
done
echo
echo "gpu suite: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
