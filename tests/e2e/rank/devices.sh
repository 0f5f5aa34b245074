# Simulated multi-GPU with one slower device (issue 32's must-show): the simulated harness's
# slow_device=1:1.3 makes every time on device 1 (the child kerndiff rank --gpus 0,1 starts
# with CUDA_VISIBLE_DEVICES=1) 1.3x longer, baseline and candidate alike. Every ratio is made
# on one GPU, so each candidate's per-GPU ratios agree and the order is the same on both
# GPUs, while the raw times (the heat's samples) show device 1 slower. Sourced by
# tests/e2e/rank.sh (R_BASE, R_DIR, rexpect from there).
rd_specs="median=100us,cv=1%,seed=4,slow_device=1:1.3;median=80us,cv=1%;median=90us,cv=1%;median=70us,cv=1%;median=120us,cv=1%"
KERNDIFF_SIMULATE="$rd_specs" run rank_slow_gpu 0 -- rank --n 4096 --gpus 0,1 --max-rounds 20 --seed 4 \
    --json "$WORK/rank_slow.json" "$R_BASE" "$R_DIR/cand1.cu" "$R_DIR/cand2.cu" "$R_DIR/cand3.cu" "$R_DIR/cand4.cu"
KERNDIFF_SIMULATE="$rd_specs" run rank_slow_gpu_heat 0 -- rank --n 4096 --gpus 0,1 --max-rounds 20 --seed 4 \
    --shard 0/1 --json "$WORK/rank_slow_heat.json" "$R_BASE" "$R_DIR/cand1.cu" "$R_DIR/cand2.cu" "$R_DIR/cand3.cu" "$R_DIR/cand4.cu"
python3 - "$WORK/rank_slow.json" "$WORK/rank_slow_heat.json" >"$WORK/rank_slow.check" 2>&1 <<'PY'
import json, statistics, sys
r = json.load(open(sys.argv[1])); h = json.load(open(sys.argv[2]))
timed = [c for c in r["candidates"] if c["speedup"]]
assert len(timed) == 4, [c["status"] for c in r["candidates"]]
order = [c["name"] for c in timed]
assert order == ["cand3.cu", "cand1.cu", "cand2.cu", "cand4.cu"], order
for g in (0, 1): # the same order on each GPU alone
    per = sorted(timed, key=lambda c: -[x for x in c["gpus"] if x["gpu"] == g][0]["speedup"]["median"])
    assert [c["name"] for c in per] == order, (g, [c["name"] for c in per])
for c in timed: # the per-GPU ratios agree: within 3% of each other
    m = {x["gpu"]: x["speedup"]["median"] for x in c["gpus"]}
    assert abs(m[0] / m[1] - 1) < 0.03, (c["name"], m)
# the raw samples: device 1 is 1.3x slower, for the baseline and the candidates alike
base = {0: [], 1: []}; cand = {0: [], 1: []}
for c in h["candidates"]:
    for g in c["gpus"]:
        base[g["gpu"]] += g["base"]; cand[g["gpu"]] += g["cand"]
for side in (base, cand):
    slow = statistics.median(side[1]) / statistics.median(side[0])
    assert 1.25 < slow < 1.35, slow
print("ok", order)
PY
if grep -q '^ok' "$WORK/rank_slow.check"; then
    ok "rank_slow_gpu: GPU 1 1.3x slower in raw times; per-GPU ratios agree within 3%; the same order on each GPU"
else fail "rank_slow_gpu: per-GPU ratios and order with one slower device" "$WORK/rank_slow.check"; fi

# Issue 43 item 4: more candidates than one child per candidate and GPU allows (20 x 2 > 32
# open children): each candidate is pinned to one GPU, so each GPU starts at most one harness
# per candidate pinned there (10 of 20) and none is restarted; the order is one GPU's; the
# audits still run (c05 cheats after its 24th launch: the race's audits reject it) and a
# crashing candidate (c07, its 30th sample) fails alone, the others on its GPU still ranked.
mkdir -p "$WORK/rank_pin"
for i in $(seq -w 1 20); do cp examples/vector_loads/v2.cu "$WORK/rank_pin/c$i.cu"; done
rp_specs="median=100us,cv=1%,seed=4"
for i in $(seq 1 20); do
    case $i in 5) x=",skip_after=24" ;; 7) x=",crash_at=12" ;; *) x="" ;; esac
    rp_specs="$rp_specs;median=$((40 + 2 * i))us,cv=1%$x"
done
for g in 0 0,1; do
    KERNDIFF_SIMULATE="$rp_specs" run "rank_pin_gpus$g" 0 -- rank --n 4096 --gpus "$g" --max-rounds 20 --seed 4 \
        --json "$WORK/rank_pin$g.json" "$R_BASE" "$WORK/rank_pin"
done
python3 - "$WORK/rank_pin0.json" "$WORK/rank_pin0,1.json" >"$WORK/rank_pin.check" 2>&1 <<'PY'
import json, sys
one = json.load(open(sys.argv[1])); two = json.load(open(sys.argv[2]))
starts = [d["harness_starts"] for d in two["devices"]]
assert len(starts) == 2 and all(0 < s <= 10 for s in starts), starts
assert one["devices"][0]["harness_starts"] <= 20, one["devices"]
st = {c["name"]: (c["status"], (c["reason"] or "").split(":")[0]) for c in two["candidates"]}
assert st["c05.cu"] == ("incorrect", "race audit"), st["c05.cu"]
assert st["c07.cu"][0] == "run_failed", st["c07.cu"]
order = lambda d: [c["name"] for c in d["candidates"] if c["rank"]]
assert len(order(two)) == 18 and order(two) == order(one), (order(one), order(two))
for c in two["candidates"]: # a candidate's samples on one GPU
    if c["rank"]:
        assert sum(1 for g in c["gpus"] if g["speedup"]) == 1, c["gpus"]
print("ok", starts)
PY
if grep -q '^ok' "$WORK/rank_pin.check"; then
    ok "rank_pin: 20 candidates on 2 GPUs, at most 10 harness starts per GPU, the order of one GPU, audits and a crash kept to their candidate"
else fail "rank_pin: pinned candidates on 2 GPUs" "$WORK/rank_pin.check"; fi
