# Sourced by run.sh: the counter pass end to end through a recorded-ncu stand-in
# (tests/fakes/fake_ncu answers with CSV recorded from the real ncu on an H200,
# tests/fixtures/ncu/), on top of the simulated harness.
NCU=tests/fakes/fake_ncu
SIM="median=65us,cv=0.5%,seed=1;median=51us,cv=0.5%,seed=2" # both over 50 us: 1 profiled launch

FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM" run counters 0 -- --n 64K --ncu $NCU --json="$WORK/counters.json" "$A" "$B"
has counters out '^counters +v1 +v2 +delta$'
has counters out 'Nsight Compute, fast metric set, 1 profiled launch per side'
has counters out '^  roofline: '
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/counters.json" >"$WORK/counters_valid.err" 2>&1; then
    ok "counters: JSON valid against the schema"; else fail "counters: schema" "$WORK/counters_valid.err"; fi
expect_json counters "$WORK/counters.json" 'd["counters"]["sides"][0]["metrics"]["dram_bytes"] > 1e8' True
expect_json counters "$WORK/counters.json" 'len(d["counters"]["sides"][1]["kernels"])' 1

# A pipeline side: three kernels against one, extensive metrics summed.
FAKE_NCU_FIXTURES=tests/fixtures/ncu/pipeline KERNDIFF_SIMULATE="$SIM" run counters_pipeline 0 -- --n 64K --ncu $NCU --per-kernel \
    --json="$WORK/pipeline.json" examples/fusion/v1.cu examples/fusion/v2.cu
has counters_pipeline out 'kernels per launch: 3 -> 1'
has counters_pipeline out '^  v1 kernels:$'
expect_json counters_pipeline "$WORK/pipeline.json" \
    'abs(d["counters"]["sides"][0]["metrics"]["dram_bytes"] - sum(k["metrics"]["dram_bytes"] for k in d["counters"]["sides"][0]["kernels"])) < 1' True

# Counters cannot be read: the timing diff still prints, one line says why and what to do.
FAKE_NCU_MODE=perm FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM" run counters_perm 0 -- --n 64K --ncu $NCU "$A" "$B"
has counters_perm out '^counters not collected \(v1\): ==ERROR== ERR_NVGPUCTRPERM.*; run as root, or allow profiling'
has counters_perm out '^v2 is 1\.[0-9]+x faster'
# ncu's own lines on the stdout it shares with the harness are not replies.
FAKE_NCU_MODE=chatty FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM" run counters_chatty 0 -- --n 64K --ncu $NCU "$A" "$B"
has counters_chatty out '^counters +v1 +v2 +delta$'
KERNDIFF_SIMULATE="$SIM" run counters_no_ncu 0 -- --n 64K --ncu /nonexistent/ncu "$A" "$B"
has counters_no_ncu out '^counters not collected \(v1\): ncu not found: /nonexistent/ncu .*install Nsight Compute'
# ncu drops a metric it does not know without a word: a recording with one column removed.
mkdir -p "$WORK/missing"
python3 - tests/fixtures/ncu/single/v1.csv "$WORK/missing/v1.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
drop = rows[0].index("dram__bytes_write.sum")
with open(sys.argv[2], "w", newline="") as f:
    csv.writer(f, quoting=csv.QUOTE_ALL).writerows([r[:drop] + r[drop + 1:] for r in rows])
PY
FAKE_NCU_FIXTURES="$WORK/missing" KERNDIFF_SIMULATE="$SIM" run counters_missing 0 -- --n 64K --ncu $NCU "$A" "$B"
has counters_missing out '^counters not collected \(v1\): ncu returned no values for: dram__bytes_write\.sum \(not supported'
# A short kernel (under 50 us) is profiled 5 times (rows repeated from the recording); ncu's
# duration falls while the timing says v2 is slower: the row gets a ? and a note says why.
mkdir -p "$WORK/five"
for side in v1 v2; do
    { head -2 tests/fixtures/ncu/single/$side.csv; for _ in 1 2 3 4 5; do sed -n 3p tests/fixtures/ncu/single/$side.csv; done; } \
        >"$WORK/five/$side.csv"
done
FAKE_NCU_FIXTURES="$WORK/five" KERNDIFF_SIMULATE="median=5.4us,cv=0.5%,seed=1;median=6us,cv=0.5%,seed=2" \
    run counters_short 0 -- --n 64K --ncu $NCU --markdown="$WORK/short.md" "$A" "$B"
has counters_short out '5 profiled launches per side'
has counters_short out '^v2 is 1\.[0-9]+x slower'
has counters_short out "^  note: ncu's duration \(-24\.4%, median of 5 profiled launches\) disagrees with the timing \(v2 slower\)"
has counters_short out '^  duration .* -24\.4% \+\+ \?$'
if grep -q "^Note: ncu's duration" "$WORK/short.md"; then ok "counters_short: Markdown has the note"; else
    fail "counters_short: Markdown lacks the note" "$WORK/short.md"; fi
# --ncu-report keeps both reports; --metric-names shows ncu's names; --metrics adds raw
# metrics and reports the ones ncu has no column for.
FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM" run counters_extras 0 -- --n 64K --ncu $NCU \
    --ncu-report "$WORK/reports" --metric-names --metrics dram__bytes_read.max,made_up__metric.sum \
    --markdown="$WORK/extras.md" "$A" "$B"
for side in v1 v2; do
    if [ "$(cat "$WORK/reports/$side.ncu-rep" 2>/dev/null)" = "fake report" ]; then ok "counters_extras: $side.ncu-rep kept"; else
        fail "counters_extras: no $side.ncu-rep in $WORK/reports"; fi
done
has counters_extras out '^  duration .*\[gpu__time_duration\.sum\]$'
has counters_extras out '^  DRAM bytes .*\[dram__bytes_read\.sum \+ dram__bytes_write\.sum\]$'
has counters_extras out '^  extra metrics \(--metrics\)$'
has counters_extras out '^  dram__bytes_read\.max +[0-9.]+ ?[kMG]? +[0-9.]+ ?[kMG]? +[+-][0-9.]+% '
has counters_extras out '^  note: --metrics: ncu gave no values for: made_up__metric\.sum \(unknown names'
lacks counters_extras out '^  made_up__metric'
if grep -q '^| `dram__bytes_read.max` |' "$WORK/extras.md" && grep -q '^| duration (`gpu__time_duration.sum`) |' "$WORK/extras.md"; then
    ok "counters_extras: Markdown has the extra row and the names"; else fail "counters_extras: Markdown" "$WORK/extras.md"; fi
FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM" run counters_report_unwritable 0 -- --n 64K --ncu $NCU \
    --ncu-report /dev/null/reports "$A" "$B"
has counters_report_unwritable out "^counters not collected \(v1\): cannot keep ncu's report as /dev/null/reports/v1\.ncu-rep: .*\(check --ncu-report\)"
run metrics_bad_name 2 -- --metrics 'a;b' "$A" "$B"
has metrics_bad_name err '^kerndiff: --metrics wants ncu metric names'
# SIGTERM during the counter pass ends ncu's whole process group (ncu runs its target).
rm -f "$WORK/ncu.pid"
FAKE_NCU_MODE=stuck FAKE_NCU_PIDS="$WORK/ncu.pid" FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="$SIM" \
    "$KD" --n 64K --ncu $NCU "$A" "$B" >"$WORK/ncu_sigterm.out" 2>&1 </dev/null &
kd_pid=$!
for _ in $(seq 300); do [ -s "$WORK/ncu.pid" ] && break; sleep 0.1; done
kill -TERM "$kd_pid"
wait "$kd_pid"
status=$?
target=$(cat "$WORK/ncu.pid" 2>/dev/null)
for _ in $(seq 50); do [ -n "$target" ] && ! kill -0 "$target" 2>/dev/null && break; sleep 0.1; done
if [ -n "$target" ] && ! kill -0 "$target" 2>/dev/null && [ "$status" -eq 143 ]; then
    ok "ncu_sigterm: kerndiff ended by SIGTERM (143), ncu's child $target gone"
else
    fail "ncu_sigterm: status $status, ncu's child '$target' still running" "$WORK/ncu_sigterm.out"
    [ -n "$target" ] && kill "$target" 2>/dev/null
fi
KERNDIFF_SIMULATE="$SIM" run counters_off 0 -- --n 64K --no-ncu "$A" "$B"
has counters_off out '^counters not collected: --no-ncu$'

. tests/e2e/counters_inproc.sh
