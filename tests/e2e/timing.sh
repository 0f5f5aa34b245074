# Sourced by run.sh: the timing engine end to end through the simulated harness (the
# documented test seam, KERNDIFF_SIMULATE="V1SPEC;V2SPEC"; see harness/sim_harness.c).
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu

sim "median=100us,cv=0.5%;median=80us,cv=0.5%" faster 0 -- --n 64K --json="$WORK/faster.json" "$A" "$B"
has faster out '^v2 is 1\.2[456]x faster \((99|100)\.[0-9]+us -> (79|80)\.[0-9]+us, 95% CI 1\.2[0-9]+-1\.2[0-9]+x\)$'
has faster out '^  simulated harness'
has faster out '^outputs match \(1 buffer compared in full\)$'
has faster out '^  median +(99|100)\.[0-9]+us +(79|80)\.[0-9]+us'
# the verdict first (issue 41): the first line in column 0 after the header is the headline,
# the launch block follows the timing
first=$(awk 'seen && NF && !/^[ \t]/ { print; exit } /^kerndiff / { seen = 1 }' "$WORK/faster.out")
if [[ $first == "v2 is 1.2"*"x faster"* ]]; then ok "faster: the verdict is the report's first line after its header"
else fail "faster: the first line after the header is '$first', not the verdict" "$WORK/faster.out"; fi
expect_json faster "$WORK/faster.json" 'd["runtime"]["verdict"]' faster
expect_json faster "$WORK/faster.json" 'len(d["runtime"]["sides"][0]["samples_ns"]) == d["runtime"]["sides"][0]["summary_ns"]["n"] + d["runtime"]["sides"][0]["summary_ns"]["outliers"]' True
expect_json faster "$WORK/faster.json" 'd["runtime"]["speedup"]["ci_low"] > 1' True
# where the run's seconds went (issue 43): the stages in order, the timing among them, and
# the audits' own time inside the timing's loop
expect_json faster "$WORK/faster.json" '[s["name"] for s in d["timings"]["stages"]][:3] + [s["name"] for s in d["timings"]["stages"] if s["name"] == "timing"]' "['kernels chosen', 'built and analysed', 'runtime setup', 'timing']"
expect_json faster "$WORK/faster.json" '0 < d["runtime"]["correctness"]["audits"]["seconds"] <= d["runtime"]["stop"]["seconds"] <= [s["seconds"] for s in d["timings"]["stages"] if s["name"] == "timing"][0]' True
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/faster.json" >"$WORK/faster_valid.err" 2>&1; then
    ok "faster: JSON with a runtime is valid against the schema"; else fail "faster: schema" "$WORK/faster_valid.err"; fi

# How far the verdict can be trusted (issue 42 item 2): one line from the calibration record
# and this run's own samples, in every format; the detectable change follows the spread.
printf '# test record\naa_runs 60\naa_false 0\n' >"$WORK/calib_rec.txt"
for spec in "narrow:median=100us,cv=0.2%,seed=5;median=80us,cv=0.2%,seed=6" "wide:median=100us,cv=3%,seed=5;median=80us,cv=3%,seed=6"; do
    KERNDIFF_CALIBRATION="$WORK/calib_rec.txt" KERNDIFF_SIMULATE="${spec#*:}" run "calib_${spec%%:*}" 0 -- --n 64K \
        --json="$WORK/calib_${spec%%:*}.json" --markdown="$WORK/calib_${spec%%:*}.md" --html="$WORK/calib_${spec%%:*}.html" "$A" "$B"
done
line='verdict calibrated: 0 false in 60 A/A runs \(<= 4\.9% at 95%\); this run could detect a change of [0-9]+\.[0-9]{2}% or more'
has calib_narrow out "^  $line\$"
cp "$WORK/calib_narrow.md" "$WORK/calib_md.out"; has calib_md out "^- $line\$"
cp "$WORK/calib_narrow.html" "$WORK/calib_html.out"; has calib_html out "<p class=\"calibration\">verdict calibrated: 0 false in 60 A/A runs \(&lt;= 4\.9% at 95%\)"
expect_json calib_narrow "$WORK/calib_narrow.json" '[c["aa_runs"], c["aa_false"], round(c["false_rate_upper_95"], 4), c["known"]] if (c := d["runtime"]["calibration"]) else 0' "[60, 0, 0.0487, True]"
expect_json calib_narrow "$WORK/calib_narrow.json" 'd["runtime"]["calibration"]["line"] in open(sys.argv[1].replace(".json", ".md")).read()' True
expect_json calib_wide "$WORK/calib_wide.json" 'd["runtime"]["calibration"]["min_detectable_pct"] > 3 * json.load(open(sys.argv[1].replace("wide", "narrow")))["runtime"]["calibration"]["min_detectable_pct"]' True
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/calib_narrow.json" >"$WORK/calib_valid.err" 2>&1; then
    ok "calib_narrow: JSON valid against the schema"; else fail "calib_narrow: schema" "$WORK/calib_valid.err"; fi
# a missing or hostile record: the line says the calibration is unknown, never a number
printf 'aa_runs 40\naa_false 99\n' >"$WORK/calib_hostile.txt"
for rec in /nonexistent/calibration.txt "$WORK/calib_hostile.txt"; do
    KERNDIFF_CALIBRATION="$rec" KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run calib_unknown 0 -- --n 64K --json="$WORK/calib_unknown.json" "$A" "$B"
    has calib_unknown out '^  verdict calibration unknown \(no valid A/A record\); this run could detect a change of'
    expect_json calib_unknown "$WORK/calib_unknown.json" '[d["runtime"]["calibration"]["known"], d["runtime"]["calibration"]["aa_runs"]]' "[False, None]"
done

sim "median=80us,cv=0.5%;median=100us,cv=0.5%" slower 0 -- --n 64K "$A" "$B"
has slower out '^v2 is 1\.2[456]x slower'

# Fixed sampling seeds (and no drift, which follows the wall clock) make this run
# repeatable; the false-positive rate over many seeds is measured in tests/unit/test_stats.c.
sim "median=50us,cv=1%,seed=11;median=50us,cv=1%,seed=12" aa 0 -- --n 64K --json="$WORK/aa.json" "$A" "$B"
expect_json aa "$WORK/aa.json" 'd["runtime"]["verdict"]' "no significant difference"
has aa out '^no significant difference \((49|50)\.[0-9]+us -> (49|50)\.[0-9]+us'

# Placement: a 4% effect per placement of the buffers (more than the H100 showed). Both
# versions share the buffers and every round moves them, so identical kernels still read as
# identical, and the report says how much the placement moved them.
for seed in 1 2 3 4 5; do
    sim "median=50us,cv=0.5%,placement=4%,seed=$seed" aa_placement_$seed 0 -- --n 64K --json="$WORK/aa_p$seed.json" "$A" "$A"
    expect_json aa_placement_$seed "$WORK/aa_p$seed.json" 'd["runtime"]["verdict"]' "no significant difference"
done
has aa_placement_1 out '^  both versions in one process on the same buffers \(3 shared\), moved to a new place in GPU memory before each of [0-9]+ rounds; placement sensitivity: per-round medians spread [1-9][0-9.]*% \(v1\)'

# Outputs too large for the disk: said before the harness fills it (the check files hold
# two runs of every output of both sides).
sim "median=50us" check_disk 5 -- --buf out=100G "$A" "$A"
has check_disk err 'the correctness check writes 1600\.00 GiB of outputs to .*GiB free: point TMPDIR at a larger disk'

# Drift and outliers on both sides: a 20% difference still stands out, outliers are removed.
sim "median=100us,cv=1%,drift=3%,outliers=10%,seed=21;median=120us,cv=1%,drift=3%,outliers=10%,seed=22" drift 0 -- --n 64K --min-runs 100 --json="$WORK/drift.json" "$A" "$B"
expect_json drift "$WORK/drift.json" 'd["runtime"]["verdict"]' slower
expect_json drift "$WORK/drift.json" 'd["runtime"]["sides"][0]["summary_ns"]["outliers"] > 0' True

# Stopping rules.
sim "median=100us,cv=5%;median=100us,cv=5%" max_runs 0 -- --n 64K --target 0.01 --max-runs 60 --json="$WORK/mr.json" "$A" "$B"
expect_json max_runs "$WORK/mr.json" 'd["runtime"]["stop"]["reason"]' max_runs
has max_runs out 'target not reached: CI half-width [0-9.]+% > [0-9.]+% target \(stopped by --max-runs\)'
sim "median=100us,cv=5%;median=100us,cv=5%" max_time 0 -- --n 64K --target 0.01 --max-time 0.3 --max-runs 10000000 --json="$WORK/mt.json" "$A" "$B"
expect_json max_time "$WORK/mt.json" 'd["runtime"]["stop"]["reason"]' max_time
sim "median=100us,cv=0.5%;median=100us,cv=0.5%" min_runs 0 -- --n 64K --min-runs 200 --json="$WORK/min.json" "$A" "$B"
expect_json min_runs "$WORK/min.json" 'd["runtime"]["sides"][1]["summary_ns"]["n"] + d["runtime"]["sides"][1]["summary_ns"]["outliers"] >= 200' True

# Correctness: outputs that differ exit 6 by default and the first line says so (issue 39).
sim "median=50us;median=25us,wrong=3" wrong 6 -- --n 64K --json="$WORK/wrong.json" "$A" "$B"
has wrong out '^OUTPUTS DIFFER: 1 of 1 output buffers do not match$'
has wrong out '^v2 is INCORRECT, no speed verdict: its outputs differ from v1'"'"'s \(below\)\. Timed anyway: '
lacks wrong out 'x faster'
has wrong err 'outputs differ between v1 and v2 \(exit 6; --allow-mismatch exits 0\)'
expect_json wrong "$WORK/wrong.json" 'd["runtime"]["correctness"]["verdict"]' incorrect
sim "median=50us;median=25us,wrong=3" allow_mismatch 0 -- --n 64K --allow-mismatch "$A" "$B"
has allow_mismatch out '^v2 is INCORRECT, no speed verdict'

# Audits (issue 39): untimed launches at secret points of the timing, on other inputs. A
# kernel that does its work only on its first two launches (skip_after=2: a __device__
# counter) passes the check before timing and fails the audit; exit 6, no speed verdict.
sim "median=50us,cv=0.5%;median=20us,cv=0.5%,skip_after=2" audit_skip 6 -- --n 64K --json="$WORK/skip.json" "$A" "$B"
has audit_skip out '^v2 is INCORRECT, no speed verdict: the outputs of an untimed audit launch during the timing differ from v1'"'"'s \(out: [0-9]+ of 65536 elements, 65536 left as they were before the launch\): its work depends on earlier launches'
has audit_skip out '^outputs match \(1 buffer compared in full\)$'
has audit_skip out '^AUDIT FAILED: 1 of 1 untimed launches'
lacks audit_skip out 'x faster'
expect_json audit_skip "$WORK/skip.json" 'd["runtime"]["correctness"]["verdict"]' incorrect
expect_json audit_skip "$WORK/skip.json" 'd["runtime"]["correctness"]["audits"]["stale_side"]' v2
expect_json audit_skip "$WORK/skip.json" 'd["runtime"]["stop"]["reason"]' audit_failed
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/skip.json" >"$WORK/skip_valid.err" 2>&1; then
    ok "audit_skip: JSON valid against the schema"; else fail "audit_skip: schema" "$WORK/skip_valid.err"; fi
# The baseline can be the one that cheats: the side that left its outputs is named.
sim "median=50us,cv=0.5%,skip_after=2;median=50us,cv=0.5%" audit_skip_v1 6 -- --n 4096 "$A" "$B"
has audit_skip_v1 out '^v1 is INCORRECT, no speed verdict: the outputs of an untimed audit launch during the timing differ from v2'
# A launch that writes past a buffer's end (its sizes guessed smaller than the kernel's:
# overrun=B writes B bytes past each output) is not timed: the check's bounds guard names the
# buffer, how far, where its size came from and the flag that gives the real one (issue 39).
sim "median=50us,cv=0.5%;median=20us,cv=0.5%,overrun=300" bounds_v2 5 -- --json="$WORK/bounds.json" --n 4096 "$A" "$B"
has bounds_v2 err '^kerndiff: v2: the launch writes past the end of buffer out \(4096 elements, 16384 bytes, its size from n\): the kernel wrote 300 bytes beyond it, into memory no argument owns; not timed\. Give its real size with --buf out=COUNT'
lacks bounds_v2 out '(faster|slower|no significant difference)'
expect_json bounds_v2 "$WORK/bounds.json" '(d["runtime"], d["notes"]["runtime"]["id"])' "(None, 'out_of_bounds')"
# past the guard (64 KiB for this 16 KiB buffer): "or more"
sim "median=50us,cv=0.5%,overrun=1000000;median=50us,cv=0.5%" bounds_v1 5 -- --n 4096 "$A" "$B"
has bounds_v1 err '^kerndiff: v1: the launch writes past the end of buffer out .* wrote 65536 bytes beyond it or more'
# within bounds: the guard says nothing
sim "median=50us,cv=0.5%,overrun=0;median=50us,cv=0.5%" bounds_none 0 -- --n 4096 "$A" "$B"
lacks bounds_none err 'writes past the end'

# A cheat that waits longer than the check (skip_after=100: past the warm-up and some samples) fails a later audit
sim "median=50us,cv=0.5%;median=20us,cv=0.5%,skip_after=100" audit_late 6 -- --n 4096 --min-runs 200 "$A" "$B"
has audit_late out '^v2 is INCORRECT'
# A kernel that writes into an input it only reads (a const cast away): outputs right, audit failed.
sim "median=50us,cv=0.5%;median=40us,cv=0.5%,mutate=1" audit_mutate 6 -- --n 4096 --json="$WORK/mutate.json" "$A" "$B"
has audit_mutate out '^v2 is INCORRECT, no speed verdict: its untimed audit launch during the timing wrote into its input x, which it only reads'
expect_json audit_mutate "$WORK/mutate.json" 'd["runtime"]["correctness"]["audits"]["mutated_side"], d["runtime"]["correctness"]["audits"]["mutated_input"]' "('v2', 'x')"
# Outputs over 256 KiB: the audit reads back a sample (256 chunks of 1 KiB at secret places,
# wire/protocol.h kd_audit_sample) and says how many elements that was, of how many; the
# buffers' audit contents rotated on the device from a mirror (the simulated vendor's copy)
# or, with no device copy (device_copy=0), on the host: both catch the cheat, neither fails an
# honest A/A, and a one-element write into a large input (at its start: a sample alone would
# miss it) is still seen.
sim "median=50us,cv=0.5%;median=20us,cv=0.5%,skip_after=2" audit_sampled 6 -- --n 4M --json="$WORK/sampled.json" "$A" "$B"
has audit_sampled out '^v2 is INCORRECT, no speed verdict: the outputs of an untimed audit launch during the timing differ from v1'"'"'s \(out: [0-9]+ of 65536 elements read back of its 4194304, 65536 left as they were before the launch\): its work depends on earlier launches'
expect_json audit_sampled "$WORK/sampled.json" '(d["runtime"]["correctness"]["audits"]["elements"], d["runtime"]["correctness"]["audits"]["buffer_elements"])' "(65536, 4194304)"
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/sampled.json" >"$WORK/sampled_valid.err" 2>&1; then
    ok "audit_sampled: JSON valid against the schema"; else fail "audit_sampled: schema" "$WORK/sampled_valid.err"; fi
sim "median=50us,cv=0.5%,device_copy=0;median=20us,cv=0.5%,skip_after=2" audit_host_rotation 6 -- --n 4M "$A" "$B"
has audit_host_rotation out '^v2 is INCORRECT, no speed verdict: the outputs of an untimed audit launch .*read back of its 4194304, 65536 left as they were'
for copy in 1 0; do
    sim "median=50us,cv=0.5%,device_copy=$copy;median=50us,cv=0.5%" audit_aa_$copy 0 -- --n 4M --audits 6 "$A" "$B"
    has audit_aa_$copy out '^audited: [0-9]+ untimed launches of each side at secret points of the timing, on fresh inputs, matched$'
    sim "median=50us,cv=0.5%,device_copy=$copy;median=50us,cv=0.5%,mutate=1" audit_mutate_large_$copy 6 -- --n 4M "$A" "$B"
    has audit_mutate_large_$copy out '^v2 is INCORRECT, no speed verdict: its untimed audit launch during the timing wrote into its input x'
done
# A launch whose samples ran 1 to 2 kernels (kernels= from the harness): said, in red.
sim "median=50us,cv=0.5%;median=40us,cv=0.5%,kernels=1-2" kernel_count 0 -- --n 4096 --json="$WORK/kc.json" "$A" "$B"
has kernel_count out "^KERNEL COUNT CHANGED: v2's samples ran 1 to 2 kernels"
expect_json kernel_count "$WORK/kc.json" '[s["kernels_min"] for s in d["runtime"]["sides"]], [s["kernels_max"] for s in d["runtime"]["sides"]]' "([0, 1], [0, 2])"
# A kernel that differs from itself between runs (float atomics summed in another order: the
# simulated noise=1e-4, past f32's rtol) against itself: v1's own difference widens atol, and
# the A/A is correct (tests/realfiles/dot_product.cu read "outputs differ" on an H100).
sim "median=50us,noise=1e-4,seed=3;median=50us,noise=1e-4,seed=4" self_noise 0 -- --n 4096 --json="$WORK/noise.json" "$A" "$A"
has self_noise out 'v1 differs from itself by up to [0-9.e-]+ between two runs on the same inputs'
expect_json self_noise "$WORK/noise.json" 'd["runtime"]["correctness"]["verdict"], d["runtime"]["correctness"]["outputs"][0]["v1_self_noise"] > 0' "('correct', True)"
# Honest kernels: at least --audits audits, all matched; copies of the inputs (copy=all) too.
sim "median=50us,cv=0.5%;median=40us,cv=0.5%" audit_honest 0 -- --n 4096 --audits 5 --json="$WORK/honest.json" "$A" "$B"
has audit_honest out '^audited: [0-9]+ untimed launches of each side at secret points of the timing, on fresh inputs, matched$'
expect_json audit_honest "$WORK/honest.json" 'd["runtime"]["correctness"]["audits"]["done"] >= 5 and d["runtime"]["correctness"]["audits"]["failed"] == 0' True
expect_json audit_honest "$WORK/honest.json" 'd["runtime"]["correctness"]["verdict"]' correct
sim "median=50us,cv=0.5%,copy=all;median=40us,cv=0.5%,copy=all" audit_copy 0 -- --n 4096 "$A" "$B"
has audit_copy out '^v2 is 1\.[0-9]+x faster'
has audit_copy out '^audited: '
run audits_bad 2 -- --audits 0 "$A" "$B"
has audits_bad err -- '--audits wants'
has wrong out '^  out \(f32, 65536 elements\): 3 differ'
expect_json wrong "$WORK/wrong.json" 'd["runtime"]["correctness"]["outputs"][0]["first_mismatches"][2]["index"]' 2
sim "median=50us;median=50us,wrong=3" require_match 6 -- --n 64K --require-match "$A" "$B"
has require_match err 'outputs differ between v1 and v2 \(--require-match\)'
# v2 leaves 2 elements unwritten: the check, where both sides start alike, sees the same
# values; an audit, where the outputs start from other contents, sees v2's depend on them.
sim "median=50us;median=50us,unwritten=2" unwritten 6 -- --n 64K "$A" "$B"
has unwritten out 'never written: v1 0, v2 2'
has unwritten out '^AUDIT FAILED: 1 of 1 untimed launches'
sim "median=50us;median=50us,wrong=3" no_check 0 -- --n 64K --no-check "$A" "$B"
lacks no_check out 'outputs|OUTPUTS'

# Faults: which side, what happened, exit 5; kerndiff itself survives.
sim "median=50us;median=50us,crash_at=15" crash 5 -- --n 64K "$A" "$B"
has crash err '^kerndiff: v2: timing the kernel: the harness was killed by signal 11'
sim "median=50us,hang_at=15;median=50us" hang 5 -- --n 64K --timeout 1 "$A" "$B"
has hang err '^kerndiff: v1: timing the kernel: the harness did not answer in time'
sim "median=50us;median=50us,fault_at=3" fault 5 -- --n 64K "$A" "$B"
has fault err '^kerndiff: v2: timing the kernel: running the kernel failed: CUDA_ERROR_ILLEGAL_ADDRESS'
sim "median=50us;median=50us,garble_at=15" garble 5 -- --n 64K "$A" "$B"
has garble err '^kerndiff: v2: timing the kernel: the harness broke the protocol'
sim "median=50us;median=50us,alloc_fail=1" alloc 5 -- --n 64K "$A" "$B"
has alloc err '^kerndiff: v2: allocating buffers: .*out of memory.*reduce --n or --buf'
has alloc out 'PTX instructions'   # the static report is still shown

# Throttling is flagged.
sim "median=50us,throttle=1;median=50us,throttle=1" throttle 0 -- --n 64K "$A" "$B"
has throttle out 'samples taken while throttled \(sw-power-cap\)'

# Launch model errors and settings.
cat >"$WORK/alpha.cu" <<'CU'
__global__ void axpy(float alpha, const float *x, float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = alpha * x[i]; }
CU
sim "median=50us;median=50us" no_value 3 -- --n 64K "$WORK/alpha.cu" "$WORK/alpha.cu"
has no_value err "v1 and v2: cannot launch axpy: .*'alpha'.*--arg alpha=VALUE"
sim "median=50us;median=50us" with_value 0 -- --arg alpha=2 --n 1000 --call v2:block=128 --json="$WORK/launch.json" "$WORK/alpha.cu" "$WORK/alpha.cu"
expect_json with_value "$WORK/launch.json" 'd["sides"][1]["launch"]["block"]' "[128, 1, 1]"
expect_json with_value "$WORK/launch.json" 'd["sides"][0]["launch"]["grid"]' "[4, 1, 1]"
expect_json with_value "$WORK/launch.json" 'd["sides"][1]["launch"]["grid"]' "[8, 1, 1]"
expect_json with_value "$WORK/launch.json" 'd["sides"][0]["launch"]["args"][0]["value"]' 2.0
run no_run 0 -- --no-run "$WORK/alpha.cu" "$WORK/alpha.cu"
has no_run out '^runtime measurement not run: --no-run; static diff only$'

# Gating on the confidence interval (--fail-if-slower), exit 8.
sim "median=100us,cv=0.3%,seed=3;median=103us,cv=0.3%,seed=4" gate_fail 8 -- --n 64K --fail-if-slower 2 --json="$WORK/gate.json" "$A" "$B"
has gate_fail err 'gate --fail-if-slower 2%: FAILED \(v2 takes \+[23]\.[0-9]+% time, 95% CI at least \+2\.[0-9]+%\)'
expect_json gate_fail "$WORK/gate.json" 'd["gate"]["failed"]' True
sim "median=100us,cv=0.3%,seed=3;median=100.5us,cv=0.3%,seed=4" gate_pass 0 -- --n 64K --fail-if-slower 2 "$A" "$B"
has gate_pass out 'gate --fail-if-slower 2%: passed'
# A point estimate past the limit whose interval still reaches below it does not fail.
sim "median=100us,cv=4%,seed=11;median=102.6us,cv=4%,seed=12" gate_noisy 0 -- --n 64K --fail-if-slower 2 --max-runs 30 --target 50 --json="$WORK/gate_noisy.json" "$A" "$B"
expect_json gate_noisy "$WORK/gate_noisy.json" 'd["gate"]["slowdown"] > 1.02 and d["gate"]["slowdown_ci_low"] < 1.02 and not d["gate"]["failed"]' True
run gate_no_gpu 10 -- --fail-if-slower 2 "$A" "$B"
has gate_no_gpu err 'NOT EVALUATED, nothing was measured'

# Sweeps: sizes without rebuilding, compile-time values with one build each.
sim "median=50us,seed=1;median=40us,seed=2" sweep_n 0 -- --n 1K..8K:x2 --json="$WORK/sweep.json" examples/crossover/v1.cu examples/crossover/v2.cu
has sweep_n out '^sweep over n$'
has sweep_n out '^  8192 +[0-9.]+us +[0-9.]+us +1\.2[0-9]+x \([0-9.]+-[0-9.]+\) +faster +- +match$'
expect_json sweep_n "$WORK/sweep.json" '[p["value"] for p in d["sweep"]["points"]]' "['1024', '2048', '4096', '8192']"
expect_json sweep_n "$WORK/sweep.json" '[p["result"]["sides"][0]["launch"]["n"] for p in d["sweep"]["points"]]' "[1024, 2048, 4096, 8192]"
expect_json sweep_n "$WORK/sweep.json" 'all(p["result"]["sides"][0]["build"]["cached"] for p in d["sweep"]["points"][1:])' True
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/sweep.json" >"$WORK/sweep_valid.err" 2>&1; then
    ok "sweep_n: JSON valid against the schema"; else fail "sweep_n: schema" "$WORK/sweep_valid.err"; fi
# The gate holds at every point of a sweep, as in a single diff: the first failing point's status.
sim "median=50us;median=50us,wrong=3" sweep_require_match 6 -- --require-match --n 1K,2K --json="$WORK/sweep_rm.json" "$A" "$B"
has sweep_require_match err 'n = 2K: outputs differ between v1 and v2 \(--require-match\)'
expect_json sweep_require_match "$WORK/sweep_rm.json" '[p["exit"] for p in d["sweep"]["points"]]' "[6, 6]"
sim "median=50us,cv=0.5%;median=70us,cv=0.5%" sweep_gate 8 -- --fail-if-slower 5 --n 1K,2K "$A" "$B"
has sweep_gate err 'n = 1K: gate --fail-if-slower 5%: FAILED'
sim "median=50us;median=40us" sweep_list 0 -- --n 1000,3000 "$A" "$B"
has sweep_list out '^  3000 '
cat >"$WORK/tile.cu" <<'CU'
#ifndef TILE
#define TILE 1
#endif
__global__ void k(const float *x, float *y, int n) { int i = threadIdx.x * TILE; if (i < n) y[i] = x[i] * TILE; }
CU
sim "median=50us;median=40us" sweep_define 0 -- --n 64K --sweep TILE=2,4 --no-check --json="$WORK/sweepd.json" "$WORK/tile.cu" "$WORK/tile.cu"
expect_json sweep_define "$WORK/sweepd.json" 'len({p["result"]["sides"][0]["build"]["key"] for p in d["sweep"]["points"]})' 2
expect_json sweep_define "$WORK/sweepd.json" 'd["sweep"]["compile_time"]' True
run sweep_bad 2 -- --n 8K..1K:x2 "$A" "$B"
has sweep_bad err 'FROM must not exceed TO'
run sweep_bad_step 2 -- --n 1K..8K:y2 "$A" "$B"
has sweep_bad_step err 'wants FROM..TO:xFACTOR'

# The noise floor: a 0.2% difference the CI resolves is "no significant difference" with
# --min-effect 0.5, and "slower" by default (no floor: placement no longer needs one).
sim "median=100us,cv=0.1%,seed=21;median=100.2us,cv=0.1%,seed=22" floor 0 -- --n 64K --min-runs 200 --min-effect 0.5 --json="$WORK/floor.json" "$A" "$B"
has floor out 'the CI excludes 1 but stays within the 0\.5% noise floor'
expect_json floor "$WORK/floor.json" 'd["runtime"]["verdict"]' "no significant difference"
sim "median=100us,cv=0.1%,seed=21;median=100.2us,cv=0.1%,seed=22" floor_off 0 -- --n 64K --min-runs 200 --json="$WORK/floor0.json" "$A" "$B"
expect_json floor_off "$WORK/floor0.json" 'd["runtime"]["verdict"]' slower

# --watch: a change to either file re-runs the diff, and the trend line grows; the gate
# (--require-match) is said after every run.
cp "$A" "$WORK/w1.cu"; cp "$B" "$WORK/w2.cu"
KERNDIFF_SIMULATE="median=60us;median=50us,wrong=3" "$KD" --watch --require-match --n 64K "$WORK/w1.cu" "$WORK/w2.cu" >"$WORK/watch.out" 2>&1 &
watcher=$!
for _ in $(seq 100); do grep -q 'watching for changes' "$WORK/watch.out" && break; sleep 0.1; done
sleep 0.5
echo '// edited' >>"$WORK/w2.cu"
for _ in $(seq 100); do [ "$(grep -c 'watching for changes' "$WORK/watch.out")" -ge 2 ] && break; sleep 0.1; done
kill -INT $watcher; wait $watcher 2>/dev/null
if grep -q '^== run 2$' "$WORK/watch.out" && grep -Eq '^trend \(oldest first\): 1\.[0-9]+x\+ 1\.[0-9]+x\+ ' "$WORK/watch.out"; then
    ok "watch: re-ran after an edit, trend of two runs"; else fail "watch: no second run" "$WORK/watch.out"; fi
if [ "$(grep -c 'outputs differ between v1 and v2 (--require-match)' "$WORK/watch.out")" -ge 2 ]; then
    ok "watch: --require-match said after each run"; else fail "watch: --require-match not said" "$WORK/watch.out"; fi

# Saved results: --save keeps everything; `compare` diffs two saved runs (v2 of each).
sim "median=65us,seed=1;median=50us,seed=2" save_old 0 -- --n 64K --save "$WORK/old.json" "$A" "$B"
expect_json save_old "$WORK/old.json" 'd["environment"]["command"][-1].endswith("v2.cu") and len(d["environment"]["sources"][0]["sha256"]) == 64' True
expect_json save_old "$WORK/old.json" 'len(d["runtime"]["sides"][1]["samples_ns"]) >= 30' True
FAKE_NCU_FIXTURES=tests/fixtures/ncu/single KERNDIFF_SIMULATE="median=65us,seed=3;median=45us,seed=4" run save_new 0 -- --n 64K --ncu tests/fakes/fake_ncu --save "$WORK/new.json" "$A" "$B"
run compare 0 -- compare --json="$WORK/compare.json" "$WORK/old.json" "$WORK/new.json"
has compare out '^  v1: .*old\.json \(v2 examples/vector_loads/v2\.cu of that run\)'
has compare out '^v2 is 1\.1[0-9]x faster \((49|50)\.[0-9]+us -> (44|45)\.[0-9]+us'
has compare out "recomputed from the two saved runs' raw samples"
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/compare.json" >"$WORK/compare_valid.err" 2>&1; then
    ok "compare: JSON valid against the schema"; else fail "compare: schema" "$WORK/compare_valid.err"; fi
# Two saved runs are two processes (issue 42 item 3): without a measured spread between
# processes in the calibration record the interval cannot carry it, and the gate is not
# evaluated (exit 10, fail closed); with one, the gate reads the widened interval.
printf 'aa_runs 40\naa_false 1\n' >"$WORK/calib_nospread.txt"
printf 'aa_runs 312\naa_false 0\nbetween_run_spread_pct 1.0\nbetween_run_processes 20\n' >"$WORK/calib_1pct.txt"
printf 'aa_runs 312\naa_false 0\nbetween_run_spread_pct 0\nbetween_run_processes 20\n' >"$WORK/calib_0pct.txt"
KERNDIFF_CALIBRATION="$WORK/calib_nospread.txt" run compare_gate_open 10 -- compare --fail-if-slower 1 "$WORK/new.json" "$WORK/old.json"
has compare_gate_open err 'gate --fail-if-slower 1%: NOT EVALUATED, two separate runs and no measured spread between processes'
has compare_gate_open out '^  separate runs: the interval cannot carry the spread between processes'
KERNDIFF_CALIBRATION="$WORK/calib_1pct.txt" run compare_gate 8 -- compare --fail-if-slower 1 "$WORK/new.json" "$WORK/old.json"
has compare_gate err 'gate --fail-if-slower 1%: FAILED'
has compare_gate out '^  separate runs: the interval carries a 1\.00% spread between processes \(measured over 20\)'
# A 2% move between two runs: the samples' own interval (a 0% spread) fails the gate; the
# 1% between-process spread widens it past 1 and the same gate passes.
sim "median=65us,seed=3;median=50us,cv=0.5%,seed=4" between_old 0 -- --n 64K --save "$WORK/between_old.json" "$A" "$B"
sim "median=65us,seed=3;median=51us,cv=0.5%,seed=4" between_new 0 -- --n 64K --save "$WORK/between_new.json" "$A" "$B"
KERNDIFF_CALIBRATION="$WORK/calib_0pct.txt" run between_narrow 8 -- compare --fail-if-slower 1 --json="$WORK/between_narrow.json" "$WORK/between_old.json" "$WORK/between_new.json"
expect_json between_narrow "$WORK/between_narrow.json" 'd["runtime"]["verdict"]' slower
KERNDIFF_CALIBRATION="$WORK/calib_1pct.txt" run between_wide 0 -- compare --fail-if-slower 1 --json="$WORK/between_wide.json" "$WORK/between_old.json" "$WORK/between_new.json"
expect_json between_wide "$WORK/between_wide.json" 'd["runtime"]["verdict"]' "no significant difference"
expect_json between_wide "$WORK/between_wide.json" 'd["runtime"]["calibration"]["between_runs"]["applied"] and d["runtime"]["speedup"]["ci_high"] > 1 > d["runtime"]["calibration"]["between_runs"]["own_ci_high"]' True
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/between_wide.json" >"$WORK/between_valid.err" 2>&1; then
    ok "between_wide: JSON valid against the schema"; else fail "between_wide: schema" "$WORK/between_valid.err"; fi
# One run with itself stays as it was decided: no between-process widening, no such line.
KERNDIFF_CALIBRATION="$WORK/calib_1pct.txt" run compare_self 0 -- compare --json="$WORK/compare_self.json" "$WORK/new.json" "$WORK/new.json"
if grep -q 'separate runs' "$WORK/compare_self.out"; then fail "compare_self: a run with itself was widened" "$WORK/compare_self.out"
else ok "compare_self: a run with itself is not widened"; fi
expect_json compare_self "$WORK/compare_self.json" '"between_runs" in d["runtime"]["calibration"]' False
run compare_v1 0 -- compare --side v1 "$WORK/old.json" "$WORK/new.json"
has compare_v1 out '^  v2: .*new\.json \(v1 examples/vector_loads/v1\.cu of that run\)'
python3 - "$WORK/new.json" "$WORK/other_gpu.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["runtime"]["gpu"]["name"] = "NVIDIA H100 80GB HBM3"; json.dump(d, open(sys.argv[2], "w"))
PY
run compare_gpu 0 -- compare "$WORK/old.json" "$WORK/other_gpu.json"
has compare_gpu out 'WARNING: the runs differ: OLD ran on Simulated GPU .*NEW on NVIDIA H100'
run compare_missing 3 -- compare "$WORK/old.json" "$WORK/nope.json"
has compare_missing err "NEW: cannot read '.*nope\.json': No such file or directory"

# A saved file that is not a valid version-2 document is an input error naming the field,
# never a crash (tests/unit/test_json.c checks the reader in detail).
bad() { # NAME PYTHON-EDIT-OF-d MESSAGE
    python3 - "$WORK/new.json" "$WORK/$1.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))
PY
    run "$1" 3 -- compare "$WORK/old.json" "$WORK/$1.json"
    has "$1" err "$3"
}
bad bad_opcode_key 'd["ptx"]["opcodes"][0]["key"] = 7' 'ptx\.opcodes\[0\]\.key: must be a string'
bad bad_version_99 'd["schema_version"] = 99' 'schema_version: must be 3'
bad bad_version_2 'd["schema_version"] = 2' 'schema_version: must be 3: version 2 was written by an older kerndiff'
bad bad_version_missing 'del d["schema_version"]' 'schema_version: is missing'
bad bad_version_string 'd["schema_version"] = "3"' 'schema_version: must be 3'
bad bad_note_id 'd["notes"]["runtime"] = {"id": "no_ncu_flag", "side": "none", "values": [], "detail": None}' 'notes\.runtime\.id: must be one of'
bad bad_zero_sample 'd["runtime"]["sides"][1]["samples_ns"][3] = 0' 'runtime\.sides\[1\]\.samples_ns\[3\]: must be a positive number'
bad bad_negative_sample 'd["runtime"]["sides"][0]["samples_ns"][0] = -5.0' 'runtime\.sides\[0\]\.samples_ns\[0\]: must be a positive number'
bad bad_string_sample 'd["runtime"]["sides"][0]["samples_ns"][1] = "nan"' 'runtime\.sides\[0\]\.samples_ns\[1\]: must be a positive number'
bad bad_registers 'd["sides"][1]["resources"]["registers"] = "many"' 'sides\[1\]\.resources\.registers: must be an integer'
bad bad_sides 'd["sides"] = {}' 'sides: must be an array of two objects'
head -c 300 "$WORK/new.json" >"$WORK/truncated.json"
run bad_truncated 3 -- compare "$WORK/old.json" "$WORK/truncated.json"
has bad_truncated err 'NEW: .*truncated\.json is not a saved kerndiff result'
: >"$WORK/empty.json"
run bad_empty 3 -- compare "$WORK/empty.json" "$WORK/new.json"
has bad_empty err 'OLD: .*empty\.json is not a saved kerndiff result'
printf '{"schema_version": 2, "sides": NaN}' >"$WORK/nan.json"
run bad_nan 3 -- compare "$WORK/old.json" "$WORK/nan.json"
# --require-match holds in compare too: a saved run whose outputs differed fails it.
bad_match() { python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["runtime"]["correctness"]["match"]=False; json.dump(d,open(sys.argv[2],"w"))' "$WORK/new.json" "$WORK/mismatch.json"; }
bad_match
run compare_require_match 6 -- compare --require-match "$WORK/old.json" "$WORK/mismatch.json"
has compare_require_match err 'outputs differ between v1 and v2 \(--require-match\)'
# ... and by default (issue 39: outputs that differ exit 6), unless --allow-mismatch.
run compare_mismatch_default 6 -- compare "$WORK/old.json" "$WORK/mismatch.json"
run compare_allow_mismatch 0 -- compare --allow-mismatch "$WORK/old.json" "$WORK/mismatch.json"

# --load sustained (issue 26): the GPU kept busy between launches, as triton.testing.do_bench
# keeps it. The simulated v1 is power-bound (sustained=10%: 10% slower and its clock lower
# under load), v2 is not: under --load single both are 50 us; under sustained v1 is ~55 us.
sim "median=50us,cv=0.5%,seed=11,sustained=10%;median=50us,cv=0.5%,seed=12" load_single 0 -- --n 64K "$A" "$B"
has load_single out '^no significant difference'
has load_single out '^  one launch per sample, L2 flushed before each'
lacks load_single out 'sustained load'
sim "median=50us,cv=0.5%,seed=11,sustained=10%;median=50us,cv=0.5%,seed=12" load_sustained 0 -- --n 64K --load sustained "$A" "$B"
has load_sustained out '^v2 is 1\.(09|10|11)x faster \((54|55|56)\.[0-9]+us -> (49|50)\.[0-9]+us'
has load_sustained out '^  sustained load \(back to back, 256 MiB cleared between launches, as triton\.testing\.do_bench\): 100 ms of load before each block of 20 samples; v1/v2 interleaved'
has load_sustained out 'SM clock 1(799|800)-1980 MHz'
sim "median=50us,cv=0.5%;median=40us,cv=0.5%" load_ms 0 -- --n 64K --load sustained:30 --json="$WORK/load_ms.json" "$A" "$B"
has load_ms out '^  sustained load .*: 30 ms of load before each block of 20 samples'
expect_json load_ms "$WORK/load_ms.json" 'len(d["runtime"]["sides"][0]["samples_ns"]) % 20' 0
# 20 samples a block meet --min-runs 30 after 2 rounds, whose interval is too coarse to stop on
# (a real A/A stopped there with a false 1.2% "slower"): the target waits for 6 rounds.
expect_json load_ms "$WORK/load_ms.json" 'd["runtime"]["stop"]["rounds"] >= 6 and d["runtime"]["stop"]["reason"] == "target_reached"' True
sim "median=50us,cv=0.5%;median=50us,cv=0.5%" load_aa 0 -- --n 64K --load sustained:5 --min-runs 10 --json="$WORK/load_aa.json" "$A" "$B"
expect_json load_aa "$WORK/load_aa.json" 'd["runtime"]["stop"]["rounds"] >= 6' True
sim "median=50us;median=40us" load_single_flag 0 -- --n 64K --load single "$A" "$B"
has load_single_flag out '^  one launch per sample'
for bad in bogus sustained:0 sustained:60001 sustained:x sustainedx; do
    sim "median=50us;median=40us" "load_bad_${bad//[:]/_}" 2 -- --load "$bad" "$A" "$B"
    has "load_bad_${bad//[:]/_}" err "^kerndiff: --load wants single, sustained or sustained:MS \(1 to 60000 ms of load\), got '$bad'$"
done

# The A/A campaign's summary (bench/aa_summary.py, issue 42): the committed campaign's rows
# give the installed record (the false "slower" of `aa smem copy #1` counted), and a sample
# with between-process and injected-change rows gives a spread kerndiff reads.
python3 bench/aa_summary.py bench/aa_campaign.txt >"$WORK/summary_committed.txt"
if cmp -s "$WORK/summary_committed.txt" share/kerndiff-calibration.txt; then
    ok "aa_summary: share/kerndiff-calibration.txt is bench/aa_campaign.txt's summary"
else fail "aa_summary: share/kerndiff-calibration.txt differs from bench/aa_campaign.txt's summary" "$WORK/summary_committed.txt"; fi
if grep -qx 'aa_runs 40' "$WORK/summary_committed.txt" && grep -qx 'aa_false 1' "$WORK/summary_committed.txt"; then
    ok "aa_summary: 40 A/A runs, 1 false verdict"; else fail "aa_summary: counts" "$WORK/summary_committed.txt"; fi
cat >"$WORK/campaign_sample.txt" <<'ROWS'
# A/A campaign, sample
aa add copy #1                 2.47us      2.47us ratio 1.0002 CI 0.9934-1.0061 n=30 no significant difference
aa add copy #2                 2.47us      2.49us ratio 0.9900 CI 0.9850-0.9950 n=30 slower
aa add copy #3                 2.47us      2.47us ratio 1.0002 CI 0.9934-1.0061 n=30 faster
aa add copy #4                 ERROR no runtime
between add #1 median_ns 1000
between add #2 median_ns 1020
between fma #1 median_ns 5000
between fma #2 median_ns 4900
power 0.5% fma #1 ratio 0.9950 CI 0.9940-0.9960 n=30 slower
power 0.5% fma #2 ratio 0.9990 CI 0.9940-1.0040 n=30 no significant difference
ROWS
python3 bench/aa_summary.py "$WORK/campaign_sample.txt" >"$WORK/summary_sample.txt"
# pooled sd of log medians: sqrt((ln(1.02)^2/2 + ln(49/50)^2/2) / 2)
want=$(python3 -c 'import math; a=math.log(1.02)**2/2; b=math.log(49/50)**2/2; print(f"{100*(math.exp(math.sqrt((a+b)/2))-1):.4f}")')
if grep -qx 'aa_runs 3' "$WORK/summary_sample.txt" && grep -qx 'aa_false 2' "$WORK/summary_sample.txt" \
   && grep -qx "between_run_spread_pct $want" "$WORK/summary_sample.txt" && grep -qx 'between_run_processes 4' "$WORK/summary_sample.txt" \
   && grep -q '^# power: a 0.5% change caught in 1 of 2 tries$' "$WORK/summary_sample.txt"; then
    ok "aa_summary: a sample's counts, spread ($want%) and power"; else fail "aa_summary: sample" "$WORK/summary_sample.txt"; fi
KERNDIFF_CALIBRATION="$WORK/summary_sample.txt" run summary_read 0 -- compare --json="$WORK/summary_read.json" "$WORK/between_old.json" "$WORK/between_new.json"
expect_json summary_read "$WORK/summary_read.json" '[d["runtime"]["calibration"]["aa_false"], d["runtime"]["calibration"]["between_runs"]["applied"]]' "[2, True]"
