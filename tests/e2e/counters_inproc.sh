# Sourced by counters.sh: the in-process counter pass (--counters cupti|ncu|auto, issue 31
# item 1) on the simulated harness, whose `counters` answers made-up values derived from its
# kernel (the duration is the side's median=, DRAM bytes its buffers'); KERNDIFF_SIM_COUNTERS
# makes it refuse like a driver without the CUPTI profiler. No ncu runs unless asked (--ncu
# names the recorded stand-in).
SIM_IP="median=65us,cv=0.5%,seed=1;median=51us,cv=0.5%,seed=2"

# The value of counters.sides[S].kernels[0].metrics[M] in a JSON report.
ip_metric() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["counters"]["sides"][int(sys.argv[2])]["kernels"][0]["metrics"][sys.argv[3]])' "$@" 2>/dev/null; }

# --counters cupti: both sides' harnesses answer `counters`; no ncu is given or run.
KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SIM_IP" run ip_cupti 0 -- --n 64K --counters cupti --json="$WORK/ip_cupti.json" "$A" "$B"
has ip_cupti out '^counters +v1 +v2 +delta$'
# the header names the collector that ran (it said "Nsight Compute" for CUPTI's counters too)
has ip_cupti out '^  CUPTI range profiler in the harness \(--counters ncu for Nsight Compute\), 1 profiled launch per side'
lacks ip_cupti out 'Nsight Compute, fast metric set'
# the timing pass's child, both sides set up and warm, serves the counters: no second child
has ip_cupti err 'counter pass v1, v2 \(CUPTI, in the timing pass.s harness\)'
lacks ip_cupti err 'in one harness'
has ip_cupti err 'counters v1: 1 kernel\(s\), 1 passes \(simulated replay\)'
has ip_cupti err 'counters v2: 1 kernel\(s\), 1 passes \(simulated replay\)'
lacks ip_cupti err 'ncu collects them'
# The timing pass's shared child built the counter configuration while the sides checked
# their outputs (prepare-counters), before the timing: it is off the diff's wall time.
has ip_cupti err 'counter configuration built while the sides checked \([0-9]+ ms in the harness\)'
if python3 - "$(grep -n 'counter configuration built' "$WORK/ip_cupti.err" | cut -d: -f1)" \
        "$(grep -n 'outputs checked' "$WORK/ip_cupti.err" | cut -d: -f1)" "$(grep -n 'warmed up' "$WORK/ip_cupti.err" | cut -d: -f1)" <<'PY'
import sys
built, checked, warm = (int(x) for x in sys.argv[1:4])
sys.exit(0 if checked < built < warm else 1)
PY
then ok "ip_cupti: the configuration was read back after the check, before the warm-up"
else fail "ip_cupti: prepare-counters out of place" "$WORK/ip_cupti.err"; fi
# What was prepared is what the counter pass asks for (the recorded protocol): the same names,
# --metrics extras included, in the child that then answers `counters`.
. "$ROOT/tests/e2e/protocol_recorder.sh"
record_protocol "$WORK/ip_rec" "$WORK/ip_rec.log" --per-child
KERNDIFF_HARNESS_DIR="$WORK/ip_rec" KERNDIFF_SIMULATE="$SIM_IP" run ip_prepared 0 -- --n 64K --counters cupti \
    --metrics sm__cycles_active.avg "$A" "$B"
if python3 - "$WORK/ip_rec.log" <<'PY'
import sys
prep, asked = {}, {}
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 3 and w[1] == "prepare-counters":
        prep.setdefault(w[0], []).append(w[2])
    elif len(w) == 3 and w[1] == "counters":
        asked.setdefault(w[0], []).append(w[2])
pids = list(prep)
ok = (len(pids) == 1 and len(prep[pids[0]]) == 1 and asked.get(pids[0])
      and all(a == prep[pids[0]][0] for a in asked[pids[0]]) and "sm__cycles_active.avg" in prep[pids[0]][0])
sys.exit(0 if ok else 1)
PY
then ok "ip_prepared: the names prepared are the ones the counter pass asks the same child for"
else fail "ip_prepared: prepare-counters and counters differ" "$WORK/ip_rec.log"; fi
# The shared child dies while the sides check: the timing fails naming it and what it was doing
# (exit 5, the runtime's), with no counters and no verdict made up.
KERNDIFF_SIM_COUNTERS=crash-prepare KERNDIFF_SIMULATE="$SIM_IP" run ip_prepare_crash 5 -- --n 64K --counters cupti "$A" "$B"
has ip_prepare_crash err "v1 and v2 \(timed together\): building the counters' configuration: the harness was killed by signal 11"
lacks ip_prepare_crash out 'faster|slower|no significant difference'
lacks ip_prepare_crash out '^counters +v1 +v2 +delta$'
# Nothing to overlap without the check; nothing to prepare for ncu.
KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SIM_IP" run ip_nocheck 0 -- --n 64K --counters cupti --no-check "$A" "$B"
lacks ip_nocheck err 'counter configuration'
has ip_nocheck out '^counters +v1 +v2 +delta$'
if [ "$(ip_metric "$WORK/ip_cupti.json" 0 duration)" = 65000.0 ] && [ "$(ip_metric "$WORK/ip_cupti.json" 1 duration)" = 51000.0 ]; then
    ok "ip_cupti: the durations are the simulated harness's own (65 us, 51 us)"
else fail "ip_cupti: durations not the simulated harness's" "$WORK/ip_cupti.json"; fi
# Launch facts come from the static analysis: ptxas's registers, 16 at least as the hardware
# allocates them (vector_loads v1 has 12: 16; v2 22: 22).
ip_regs() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(float(max(16, d["sides"][int(sys.argv[2])]["resources"]["registers"])))' "$@" 2>/dev/null; }
if [ "$(ip_metric "$WORK/ip_cupti.json" 0 registers)" = "$(ip_regs "$WORK/ip_cupti.json" 0)" ] &&
   [ "$(ip_metric "$WORK/ip_cupti.json" 1 registers)" = "$(ip_regs "$WORK/ip_cupti.json" 1)" ]; then
    ok "ip_cupti: registers/thread is the static analysis's (16 at least)"
else fail "ip_cupti: registers/thread differs from the resources" "$WORK/ip_cupti.json"; fi
# The shared-memory occupancy limit is the driver's carveout's (ncu only): absent, not made up.
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["counters"]["sides"][0]["kernels"][0]["metrics"]; sys.exit("occupancy_limit_shared" in m or "occupancy_limit_warps" not in m)' "$WORK/ip_cupti.json" 2>/dev/null; then
    ok "ip_cupti: no shared-memory occupancy limit, the other limits there"
else fail "ip_cupti: occupancy limits" "$WORK/ip_cupti.json"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/ip_cupti.json" >"$WORK/ip_cupti_valid.err" 2>&1; then
    ok "ip_cupti: JSON valid against the schema"; else fail "ip_cupti: schema" "$WORK/ip_cupti_valid.err"; fi

# The same values on every run: the simulated counters are deterministic.
KERNDIFF_SIMULATE="$SIM_IP" run ip_cupti_again 0 -- --n 64K --counters cupti --json="$WORK/ip_cupti_again.json" "$A" "$B"
if [ -n "$(ip_metric "$WORK/ip_cupti.json" 0 instructions)" ] &&
   [ "$(ip_metric "$WORK/ip_cupti.json" 0 instructions)" = "$(ip_metric "$WORK/ip_cupti_again.json" 0 instructions)" ]; then
    ok "ip_cupti_again: the same counters twice"; else fail "ip_cupti_again: counters changed between runs" "$WORK/ip_cupti_again.json"; fi

# KERNDIFF_COUNTERS_FRESH=1 (the bench's baseline): a child of its own, set up again; the
# same values as from the timing pass's child.
KERNDIFF_COUNTERS_FRESH=1 KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$SIM_IP" run ip_fresh 0 -- --n 64K --counters cupti --json="$WORK/ip_fresh.json" "$A" "$B"
has ip_fresh err 'counter pass v1, v2 \(CUPTI, in one harness\)'
lacks ip_fresh err 'timing pass.s harness'
if [ -n "$(ip_metric "$WORK/ip_fresh.json" 1 instructions)" ] &&
   [ "$(ip_metric "$WORK/ip_cupti.json" 1 instructions)" = "$(ip_metric "$WORK/ip_fresh.json" 1 instructions)" ] &&
   [ "$(ip_metric "$WORK/ip_cupti.json" 0 duration)" = "$(ip_metric "$WORK/ip_fresh.json" 0 duration)" ]; then
    ok "ip_fresh: the same counters from a fresh child as from the timing pass's"
else fail "ip_fresh: counters differ between the two children" "$WORK/ip_fresh.json"; fi
# --load sustained leaves the timing's child in that mode: its counters are the same.
KERNDIFF_SIMULATE="$SIM_IP" run ip_sustained 0 -- --n 64K --counters cupti --load sustained:5 --json="$WORK/ip_sustained.json" "$A" "$B"
if [ "$(ip_metric "$WORK/ip_cupti.json" 1 instructions)" = "$(ip_metric "$WORK/ip_sustained.json" 1 instructions)" ]; then
    ok "ip_sustained: the same counters after a sustained timing"
else fail "ip_sustained: counters differ after --load sustained" "$WORK/ip_sustained.json"; fi

# --counters auto, CUPTI refused: one line says why, then ncu (the stand-in) collects them.
KERNDIFF_SIM_COUNTERS=unavailable FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM_IP" \
    run ip_fallback 0 -- --n 64K --counters auto --ncu $NCU --json="$WORK/ip_fallback.json" "$A" "$B"
# the timing pass's child refused first: a fresh one asked before falling back (its answer stands)
KERNDIFF_TRACE=1 KERNDIFF_SIM_COUNTERS=unavailable FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM_IP" \
    run ip_fallback_traced 0 -- --n 64K --counters auto --ncu $NCU "$A" "$B"
has ip_fallback_traced err "counters in the timing pass's harness: the simulated GPU has no CUPTI profiler .*; a fresh harness tries"
has ip_fallback_traced err 'counter pass v1, v2 \(CUPTI, in one harness\)'
has ip_fallback_traced err 'counter configuration not built ahead: the harness refused'
has ip_fallback err '^counters: the CUPTI profiler is not available \(the simulated GPU has no CUPTI profiler \(KERNDIFF_SIM_COUNTERS\)\): ncu collects them$'
if [ "$(grep -c 'CUPTI profiler is not available' "$WORK/ip_fallback.err")" = 1 ]; then
    ok "ip_fallback: said once"; else fail "ip_fallback: the fallback line is not said exactly once" "$WORK/ip_fallback.err"; fi
has ip_fallback out '^counters +v1 +v2 +delta$'
if [ -n "$(ip_metric "$WORK/ip_fallback.json" 0 duration)" ] && [ "$(ip_metric "$WORK/ip_fallback.json" 0 duration)" != 65000.0 ]; then
    ok "ip_fallback: the values are ncu's (the recorded fixture), not the simulated harness's"
else fail "ip_fallback: values not from ncu" "$WORK/ip_fallback.json"; fi

# A metric CUPTI does not know: the same fallback, saying which.
KERNDIFF_SIM_COUNTERS=unknown FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM_IP" \
    run ip_unknown 0 -- --n 64K --counters auto --ncu $NCU "$A" "$B"
has ip_unknown err '^counters: the CUPTI profiler is not available \(CUPTI does not know [a-z_.]+\): ncu collects them$'
has ip_unknown out '^counters +v1 +v2 +delta$'

# --counters ncu: ncu alone, CUPTI never asked (no fallback line even where it would refuse).
KERNDIFF_TRACE=1 KERNDIFF_SIM_COUNTERS=unavailable FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM_IP" \
    run ip_ncu 0 -- --n 64K --counters ncu --ncu $NCU "$A" "$B"
has ip_ncu out 'Nsight Compute, fast metric set'
lacks ip_ncu err 'CUPTI'
has ip_ncu err 'counter pass v1$'
lacks ip_ncu err 'counter configuration'

# --counters cupti where CUPTI is refused: a note, no ncu although one is given.
KERNDIFF_TRACE=1 KERNDIFF_SIM_COUNTERS=unavailable FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM_IP" \
    run ip_cupti_refused 0 -- --n 64K --counters cupti --ncu $NCU "$A" "$B"
has ip_cupti_refused out 'counters not collected \(v1\): in-process CUPTI profiler: the simulated GPU has no CUPTI profiler'
lacks ip_cupti_refused out '^counters +v1 +v2 +delta$'
lacks ip_cupti_refused err 'counter pass v1$'

# Unchanged: the simulated harness without --counters or --ncu collects none.
KERNDIFF_SIMULATE="$SIM_IP" run ip_default 0 -- --n 64K "$A" "$B"
has ip_default out 'counters not collected: the simulated harness has none'

# auto with --ncu-report (what only ncu does): ncu, CUPTI not asked.
KERNDIFF_TRACE=1 FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM_IP" \
    run ip_auto_report 0 -- --n 64K --counters auto --ncu $NCU --ncu-report "$WORK/ip_reports" "$A" "$B"
lacks ip_auto_report err 'CUPTI'
has ip_auto_report err 'counter pass v1$'

run ip_bad 2 -- --counters nvperf "$A" "$B"
has ip_bad err "--counters wants cupti, ncu or auto, got 'nvperf'"

# Which CUPTI profiled, and how far that is from ncu, is said (issue 31): a CUPTI 13.5 resets
# L2 itself and replays the kernel, a 13.0 is replayed by the harness, whose flush leaves
# the write-back inside the range (docs/COUNTERS.md). The simulated harness answers as each.
KERNDIFF_SIM_COUNTERS=cupti-13.5 KERNDIFF_SIMULATE="$SIM_IP" run ip_c135 0 -- --n 64K --counters cupti --json="$WORK/ip_c135.json" "$A" "$B"
has ip_c135 out '^  CUPTI 13\.5 range profiler in the harness .*; kernel replay, L2 reset by CUPTI before each pass, as ncu.s --cache-control all does'
lacks ip_c135 out 'above ncu'
# A kernel under 10 us: the header says its occupancy and IPC read high (the H100's 5 us kernel),
# naming the side; both sides short, both named; 13.0's header keeps its own caveat only.
KERNDIFF_SIM_COUNTERS=cupti-13.5 KERNDIFF_SIMULATE="median=6us,cv=0.5%,seed=1;median=51us,cv=0.5%,seed=2" \
    run ip_c135_short 0 -- --n 64K --counters cupti "$A" "$B"
has ip_c135_short out "as ncu.s --cache-control all does; v1's kernel ran under 10 us, where achieved occupancy and IPC read up to 3% above ncu's \(docs/COUNTERS.md\)"
KERNDIFF_SIM_COUNTERS=cupti-13.5 KERNDIFF_SIMULATE="median=6us,cv=0.5%,seed=1;median=5us,cv=0.5%,seed=2" \
    run ip_c135_both 0 -- --n 64K --counters cupti --markdown "$A" "$B"
has ip_c135_both out "both sides' kernels ran under 10 us"
KERNDIFF_SIM_COUNTERS=cupti-13.0 KERNDIFF_SIMULATE="median=6us,cv=0.5%,seed=1;median=51us,cv=0.5%,seed=2" \
    run ip_c130_short 0 -- --n 64K --counters cupti "$A" "$B"
lacks ip_c130_short out 'under 10 us'
KERNDIFF_SIM_COUNTERS=cupti-13.0 KERNDIFF_SIMULATE="$SIM_IP" run ip_c130 0 -- --n 64K --counters cupti --json="$WORK/ip_c130.json" "$A" "$B"
has ip_c130 out '^  CUPTI 13\.0 range profiler in the harness .*; user replay, L2 flushed by the harness: DRAM writes, duration and achieved occupancy may read up to 15% above ncu.s \(docs/COUNTERS.md; CUPTI 13\.4\+ agrees: pip install nvidia-cuda-cupti\)'
ip_profiler() { python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["counters"]; p=c.get("cupti") or {}; print(c.get("collector"), p.get("version"), p.get("replay"), p.get("l2"))' "$1" 2>/dev/null; }
if [ "$(ip_profiler "$WORK/ip_c135.json")" = "cupti 13.5 kernel cupti" ] && [ "$(ip_profiler "$WORK/ip_c130.json")" = "cupti 13.0 user harness" ]; then
    ok "ip_c135/ip_c130: counters.collector and counters.cupti say the profiler"
else fail "ip_c135/ip_c130: counters.cupti: $(ip_profiler "$WORK/ip_c135.json") / $(ip_profiler "$WORK/ip_c130.json")" "$WORK/ip_c135.json"; fi
for j in ip_c135 ip_c130; do
    if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/$j.json" >"$WORK/$j.valid" 2>&1; then
        ok "$j: JSON valid against the schema"; else fail "$j: schema" "$WORK/$j.valid"; fi
done
# A saved result whose profiler words are not the protocol's is refused, not printed.
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["counters"]["cupti"]["l2"]="\u001b[31mred"; json.dump(d, open(sys.argv[2], "w"))' "$WORK/ip_c135.json" "$WORK/ip_c135_bad.json"
run ip_c135_bad 3 -- compare "$WORK/ip_c135.json" "$WORK/ip_c135_bad.json"
has ip_c135_bad err 'counters\.cupti: must be'
run ip_c135_same 0 -- compare "$WORK/ip_c135.json" "$WORK/ip_c135.json"

# A CUPTI wheel (pip install nvidia-cuda-cupti) of 13.4 or later is found in the Pythons'
# site-packages, named by --version, and given to each harness as KERNDIFF_CUPTI_LIBRARY;
# an older one (13.3, no cache control) is not. The wheel here is empty: only its place matters.
WHEEL="$WORK/ip_wheel/lib/python3.11/site-packages"
mkdir -p "$WHEEL/nvidia_cuda_cupti-13.3.75.dist-info" "$WHEEL/nvidia/cu13/lib"
: >"$WHEEL/nvidia/cu13/lib/libcupti.so.13"
VIRTUAL_ENV="$WORK/ip_wheel" run ip_wheel_old 0 -- --version
has ip_wheel_old out '^  libcupti 13\.4\+ wheel +not found \(needed for counters that agree with ncu: pip install nvidia-cuda-cupti\)'
mkdir -p "$WHEEL/nvidia_cuda_cupti-13.5.25.dist-info"
VIRTUAL_ENV="$WORK/ip_wheel" run ip_wheel 0 -- --version
has ip_wheel out "^  libcupti 13\\.4\\+ wheel +$WHEEL/nvidia/cu13/lib/libcupti\\.so\\.13\$"
# The harness is given it: a stand-in simulated harness writes down what it was given.
mkdir -p "$WORK/ip_wheel_bin"
SIM_REAL="$(dirname "$KD")/kerndiff-sim-harness"
printf '#!/bin/sh\necho "${KERNDIFF_CUPTI_LIBRARY:-unset}" >>"%s"\nexec "%s" "$@"\n' "$WORK/ip_wheel_env" "$SIM_REAL" >"$WORK/ip_wheel_bin/kerndiff-sim-harness"
chmod +x "$WORK/ip_wheel_bin/kerndiff-sim-harness"
VIRTUAL_ENV="$WORK/ip_wheel" KERNDIFF_HARNESS_DIR="$WORK/ip_wheel_bin" KERNDIFF_SIMULATE="$SIM_IP" run ip_wheel_env 0 -- --n 64K --no-ncu "$A" "$B"
if [ -s "$WORK/ip_wheel_env" ] && [ "$(sort -u "$WORK/ip_wheel_env")" = "$WHEEL/nvidia/cu13/lib/libcupti.so.13" ]; then
    ok "ip_wheel_env: every harness was given the wheel's libcupti"
else fail "ip_wheel_env: the harnesses were given: $(sort -u "$WORK/ip_wheel_env" 2>/dev/null | tr '\n' ' ')" "$WORK/ip_wheel_env.err"; fi
# One the user names wins over the wheel.
: >"$WORK/ip_wheel_env"
KERNDIFF_CUPTI_LIBRARY=/opt/mine/libcupti.so VIRTUAL_ENV="$WORK/ip_wheel" KERNDIFF_HARNESS_DIR="$WORK/ip_wheel_bin" KERNDIFF_SIMULATE="$SIM_IP" run ip_wheel_user 0 -- --n 64K --no-ncu "$A" "$B"
if [ "$(sort -u "$WORK/ip_wheel_env")" = /opt/mine/libcupti.so ]; then
    ok "ip_wheel_user: KERNDIFF_CUPTI_LIBRARY is left as the user set it"
else fail "ip_wheel_user: the harnesses were given: $(sort -u "$WORK/ip_wheel_env" | tr '\n' ' ')" "$WORK/ip_wheel_user.err"; fi
