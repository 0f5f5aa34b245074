# Sourced by run.sh: the sanitizer pass (--sanitize) and the explanation of a fault, through
# the simulated harness and tests/fakes/fake_compute_sanitizer, which replays logs recorded
# on an H100 (tests/fixtures/sanitizer). buffers= puts the simulated buffers where the
# recorded run had them, so that addresses name buffers and elements.
S=tests/gpu/kernels/scale.cu   # launched with --n 1024, the recorded run's size
FAKE_SAN=tests/fakes/fake_compute_sanitizer
OOB="sanitizer=memcheck_oob_write,buffers=7fdca8e00000+7fdca8e11000"
KERNDIFF_SIMULATE="median=50us;median=50us,$OOB" run san_oob 9 -- --n 1024 --sanitize --compute-sanitizer $FAKE_SAN "$S" "$S"
has san_oob out '^compute-sanitizer \(memcheck\)$'
has san_oob out '^  v1: clean$'
has san_oob out '^  v2 memcheck: thread \(255,0,0\) of block \(3,0,0\) wrote 4 bytes at out\[1024\], one past its end \(1024 elements\) at planted\.cu:12 \(in oob_write\); the launch probably needs --n, --buf out=\.\.\. or --grid$'
has san_oob err 'nothing timed: compute-sanitizer found problems in v2'
lacks san_oob out '^latency per launch'
# --sanitize-warn: the findings, then the timing anyway.
KERNDIFF_SIMULATE="median=50us;median=50us,$OOB" run san_warn 0 -- --n 1024 --sanitize --sanitize-warn --compute-sanitizer $FAKE_SAN "$S" "$S"
has san_warn out '^  v2 memcheck: thread'
has san_warn out '^latency per launch'
# Several tools; a race found by racecheck, a clean memcheck.
KERNDIFF_SIMULATE="median=50us,sanitizer=racecheck_smem;median=50us" run san_race 9 -- --sanitize=memcheck,racecheck --compute-sanitizer $FAKE_SAN "$S" "$S"
has san_race out '^compute-sanitizer \(memcheck, racecheck\)$'
has san_race out '^  v1 racecheck: a data race: Write access at planted\.cu:28 \(in smem_race\) against Read access at smem_race\+0x150 in planted\.cu:29 \(4096 hazards\)'
has san_race out '^  v2: clean$'
run san_bad_tool 2 -- --sanitize=memcheck,leakcheck "$S" "$S"
has san_bad_tool err 'memcheck,racecheck,initcheck,synccheck'
KERNDIFF_SIMULATE="median=50us" run san_missing 7 -- --sanitize --compute-sanitizer /nonexistent/compute-sanitizer "$S" "$S"
has san_missing err 'no compute-sanitizer found at /nonexistent/compute-sanitizer'
# A fault during timing: that side re-run under memcheck says which buffer and element.
KERNDIFF_SIMULATE="median=50us;median=50us,fault_at=3,$OOB" run san_explain 5 -- --n 1024 --compute-sanitizer $FAKE_SAN "$S" "$S"
has san_explain err '^kerndiff: v2: timing the kernel: .*CUDA_ERROR_ILLEGAL_ADDRESS'
has san_explain out '^  v2, under compute-sanitizer memcheck: thread \(255,0,0\) of block \(3,0,0\) wrote 4 bytes at out\[1024\], one past its end'
# the side is the timing's data (the harness that answered `err cuda`), not read from the message
KERNDIFF_SIMULATE="median=50us,fault_at=3,$OOB;median=50us" run san_explain_v1 5 -- --n 1024 --compute-sanitizer $FAKE_SAN "$S" "$S"
has san_explain_v1 out '^  v1, under compute-sanitizer memcheck: thread \(255,0,0\) of block \(3,0,0\) wrote 4 bytes at out\[1024\]'
lacks san_explain_v1 out '^  v2, under compute-sanitizer memcheck'
# JSON carries the findings, valid against the schema.
KERNDIFF_SIMULATE="median=50us;median=50us,$OOB" run san_json 0 -- --n 1024 --sanitize --sanitize-warn --compute-sanitizer $FAKE_SAN --json="$WORK/san.json" "$S" "$S"
expect_json san_json "$WORK/san.json" '[d["sanitizer"]["tools"], len(d["sanitizer"]["sides"][0]["findings"]), d["sanitizer"]["sides"][1]["findings"][0]["line"], "out[1024]" in d["sanitizer"]["sides"][1]["findings"][0]["text"]]' "[['memcheck'], 0, 12, True]"
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/san.json" >"$WORK/san_valid.err" 2>&1; then
    ok "san_json: valid against the schema"; else fail "san_json: schema" "$WORK/san_valid.err"; fi
# --sanitize-n: the sanitized launch is smaller (the recorded log's buffers are 1024 elements;
# the timed launch keeps its own size).
KERNDIFF_SIMULATE="median=50us;median=50us,$OOB" run san_small 9 -- --sanitize --sanitize-n 1024 --compute-sanitizer $FAKE_SAN "$S" "$S"
has san_small out '^  v2 memcheck: thread \(255,0,0\) of block \(3,0,0\) wrote 4 bytes at out\[1024\], one past its end \(1024 elements\)'
run san_small_bad 2 -- --sanitize --sanitize-n 0 --compute-sanitizer $FAKE_SAN "$S" "$S"
has san_small_bad err "sanitize-n wants an element count of at least 1"
# The launch check (issue 39): a launch kerndiff assumed (here: every setting a default, a buffer
# sized from the indexing) runs once under memcheck before it is timed; a told one does not.
cat >"$WORK/guess.cu" <<'CU'
__global__ void scale(const float *x, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = 2.0f * x[i + 1];
}
CU
G="$WORK/guess.cu"
KERNDIFF_SIMULATE="median=50us;median=50us,sanitizer=memcheck_oob_read" run guess_oob 5 -- --compute-sanitizer $FAKE_SAN --json="$WORK/guess_oob.json" "$G" "$G"
has guess_oob out '^  v1: +checked: ran once under memcheck before timing: no access outside its buffers$'
has guess_oob out '^  v2: +checked: ran once under memcheck before timing: accesses outside its buffers \(below\)$'
has guess_oob out '^  v2 memcheck: thread \(254,0,0\) of block \(3,0,0\) read 4 bytes'
has guess_oob err 'nothing timed: under compute-sanitizer memcheck, the launch kerndiff assumed for v2 accesses memory outside its buffers \(above\): give the real sizes \(--n, --buf NAME=COUNT'
lacks guess_oob out '^latency per launch|faster|slower'
expect_json guess_oob "$WORK/guess_oob.json" '[d["launch_check"], d["notes"]["runtime"]["id"], "read 4 bytes" in d["sanitizer"]["sides"][1]["findings"][0]["text"]]' "[{'v1': 'clean', 'v2': 'findings', 'why': None}, 'assumed_launch_out_of_bounds', True]"
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/guess_oob.json" >"$WORK/guess_valid.err" 2>&1; then
    ok "guess_oob: JSON valid against the schema"; else fail "guess_oob: schema" "$WORK/guess_valid.err"; fi
KERNDIFF_SIMULATE="median=50us;median=40us" run guess_clean 0 -- --compute-sanitizer $FAKE_SAN --json="$WORK/guess_clean.json" "$G" "$G"
has guess_clean out '^          checked: ran once under memcheck before timing: no access outside its buffers$'
has guess_clean out '^v2 is 1\.[0-9]+x faster'
expect_json guess_clean "$WORK/guess_clean.json" 'd["launch_check"]' "{'v1': 'clean', 'v2': 'clean', 'why': None}"
# --no-launch-memcheck times it anyway, and says it was not checked.
KERNDIFF_SIMULATE="median=50us;median=50us,sanitizer=memcheck_oob_read" run guess_skip 0 -- --no-launch-memcheck --compute-sanitizer $FAKE_SAN "$G" "$G"
has guess_skip out 'checked: not run under memcheck first: --no-launch-memcheck$'
has guess_skip out '^latency per launch'
# No compute-sanitizer: timed, and the line says what goes unseen.
KERNDIFF_SIMULATE="median=50us;median=50us" run guess_nosan 0 -- --compute-sanitizer /nonexistent/compute-sanitizer "$G" "$G"
has guess_nosan out "checked: not run under memcheck first \(no compute-sanitizer found: .*\): a read past a buffer's end goes unseen$"
# A launch the annotation and --n tell entirely is not re-run: its findings would be the kernel's, for --sanitize.
KERNDIFF_SIMULATE="median=50us;median=50us,sanitizer=memcheck_oob_read" run guess_told 0 -- --n 1024 --compute-sanitizer $FAKE_SAN "$S" "$S"
lacks guess_told out 'checked:|memcheck'
# --sanitize covers it (its own pass, exit 9), not twice.
KERNDIFF_SIMULATE="median=50us;median=50us,sanitizer=memcheck_oob_read" run guess_sanitize 9 -- --sanitize --compute-sanitizer $FAKE_SAN "$G" "$G"
lacks guess_sanitize out 'checked:'
