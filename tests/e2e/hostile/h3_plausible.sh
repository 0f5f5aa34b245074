# h3: plausibility of what is read back or asked for (issue 28, item 3). Sourced by
# tests/e2e/hostile.sh: run/has/lacks/ok/fail, $KD, $WORK, $A/$B from run.sh.
h3_py() { python3 - "$@"; }

# --- a buffer past any GPU's memory: refused before any harness runs (was UBSan float->int
# at measure/timing.c, and a false "hung kernel" in the release build) -------------------------
KERNDIFF_SIMULATE="median=100us;median=80us" run h3_buf_huge 3 -- --buf 'x=1<<52' "$A" "$B"
has h3_buf_huge err "v1 and v2: cannot launch saxpy: buffer 'x' \(4503599627370496 f32 elements, .* GiB\) is more than the 1024 GiB kerndiff allows one side's buffers"
lacks h3_buf_huge err 'did not answer in time|hung|runtime error'
# Under the cap it runs (the simulated harness allocates nothing).
KERNDIFF_SIMULATE="median=100us;median=80us" run h3_buf_large_ok 0 -- --buf 'x=1<<30' "$A" "$B"

# --- compare: samples within physical bounds, enough of them, one kernel ---------------------
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run h3_save 0 -- --n 64K --save "$WORK/h3_run.json" "$A" "$B"
h3_py "$WORK/h3_run.json" "$WORK" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); out = sys.argv[2]
def variant(name, change):
    e = json.loads(json.dumps(d)); change(e); json.dump(e, open(f"{out}/h3_{name}.json", "w"))
def samples(value):
    def f(e):
        for s in e["runtime"]["sides"]:
            s["samples_ns"] = [value] * len(s["samples_ns"])
    return f
def one(e):
    for s in e["runtime"]["sides"]:
        s["samples_ns"] = s["samples_ns"][:1]; s["sample_rounds"] = s["sample_rounds"][:1]
        s["throttled_sample_indexes"] = []
def kernel(name):
    def f(e):
        for s in e["sides"]:
            s["kernel"] = name
    return f
variant("tiny", samples(1e-300)); variant("huge", samples(1e308)); variant("one", one)
variant("other", kernel("other_kernel")); variant("blank", kernel(""))
PY
run h3_compare_tiny 3 -- compare --fail-if-slower 5 "$WORK/h3_run.json" "$WORK/h3_tiny.json"
has h3_compare_tiny err "NEW: .*/h3_tiny.json: runtime.sides\[1\].samples_ns\[0\] is 1e-300 ns, not a plausible kernel time \(between 1 ns and one hour\)"
lacks h3_compare_tiny out 'faster'
run h3_compare_huge 3 -- compare --fail-if-slower 5 "$WORK/h3_run.json" "$WORK/h3_huge.json"
has h3_compare_huge err 'runtime.sides\[1\].samples_ns\[0\] is 1e\+308 ns, not a plausible kernel time'
lacks h3_compare_huge out 'slower'
run h3_compare_huge_old 3 -- compare "$WORK/h3_huge.json" "$WORK/h3_run.json"
has h3_compare_huge_old err '^kerndiff: OLD: .*h3_huge.json: runtime.sides\[1\]'
run h3_compare_one 0 -- compare "$WORK/h3_run.json" "$WORK/h3_one.json"
has h3_compare_one out "^no timing compared: NEW's run has 1 usable runtime sample; a comparison needs at least 2 per run$"
lacks h3_compare_one out 'no runtime samples'
run h3_compare_one_gate 10 -- compare --fail-if-slower 5 "$WORK/h3_run.json" "$WORK/h3_one.json"
has h3_compare_one_gate err "gate --fail-if-slower 5%: NOT EVALUATED, nothing was measured: no timing compared: NEW's run has 1 usable runtime sample"
lacks h3_compare_one_gate err 'no GPU'
run h3_compare_other 0 -- compare "$WORK/h3_run.json" "$WORK/h3_other.json"
has h3_compare_other out 'WARNING: the saved runs timed different kernels, saxpy \(OLD\) and other_kernel \(NEW\)'
run h3_compare_blank 3 -- compare "$WORK/h3_run.json" "$WORK/h3_blank.json"
has h3_compare_blank err 'NEW: .*h3_blank.json: sides\[1\].kernel is missing or empty'
