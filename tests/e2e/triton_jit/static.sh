# A Triton side's static diff with no GPU (issue 27 item 0): a block-size constexpr that no
# default, literal call value, config or flag gives is assumed (1024) for a diff that times
# nothing, and said in the build line and JSON; a diff that times (here the simulated harness)
# still refuses it. A value from the file's own call says its line and why it was not captured.
# The helper's messages, with and without a side, keep their words (report/words_triton.c).
ts_file="$WORK/ts_noval.py"
cat >"$ts_file" <<'PY'
import triton
import triton.language as tl
@triton.jit
def k(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) * 2, mask=offs < n)
PY
run ts_assumed 0 -- --json="$WORK/ts_assumed.json" "$ts_file" "$ts_file"
has ts_assumed out "BLOCK=1024 \(assumed: the file gives no value kerndiff can read, and no launch was captured \(no GPU\); the static diff is of this build: --arg BLOCK=VALUE for your code's\)"
if python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['sides'][1]['launch_source']; sys.exit(s['constexpr_origins'] != {'BLOCK': {'value': 1024, 'from': 'assumed'}})" "$WORK/ts_assumed.json"; then
    ok "ts_assumed: JSON launch_source.constexpr_origins says BLOCK was assumed"
else fail "ts_assumed: constexpr_origins" "$WORK/ts_assumed.json"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/ts_assumed.json" >"$WORK/ts_schema.err" 2>&1; then
    ok "ts_assumed: JSON valid against docs/json-schema.json"; else fail "ts_assumed: schema" "$WORK/ts_schema.err"; fi
run ts_given 0 -- --arg BLOCK=256 "$ts_file" "$ts_file"
has ts_given out ' BLOCK=256'
lacks ts_given out 'assumed: the file gives'
KERNDIFF_SIMULATE="median=20us" run ts_timed 3 -- "$ts_file" "$ts_file"
has ts_timed err "v1: tl.constexpr 'BLOCK' of kernel 'k' needs a value: --arg BLOCK=VALUE, \`# kerndiff: BLOCK=VALUE\` in .*ts_noval.py, or a default in the signature"
run ts_list 0 -- list "$ts_file"
has ts_list out '^  constexprs: BLOCK \(needs a value: --arg BLOCK=VALUE; a static diff with no GPU assumes 1024\)$'
# the file's own call's value, with the line and why the launch was not captured
run ts_call 0 -- --json="$WORK/ts_call.json" tests/e2e/fixtures/triton_jit/raises.py tests/e2e/fixtures/triton_jit/raises.py
has ts_call out 'BLOCK=1024 \(from the file.s call at line 14; not captured: no GPU\)'
if python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['sides'][0]['launch_source']; sys.exit(s['constexpr_origins'] != {'BLOCK': {'value': 1024, 'from': 'the file\'s call', 'line': 14}})" "$WORK/ts_call.json"; then
    ok "ts_call: JSON launch_source.constexpr_origins names the file's call and its line"
else fail "ts_call: constexpr_origins" "$WORK/ts_call.json"; fi

# The helper's messages, said with the side (a diff) and without it (list).
mkdir -p "$WORK/ts_empty"
KERNDIFF_HARNESS_DIR="$WORK/ts_empty" run ts_no_helper_list 7 -- list "$ts_file"
has ts_no_helper_list err '^kerndiff: cannot find kerndiff-triton.py beside kerndiff \(build it with `make`, or set KERNDIFF_HARNESS_DIR\)$'
KERNDIFF_HARNESS_DIR="$WORK/ts_empty" run ts_no_helper_diff 7 -- "$ts_file" "$ts_file"
has ts_no_helper_diff err '^kerndiff: v1: cannot find kerndiff-triton.py beside kerndiff'
run ts_no_python 7 -- list --python "$WORK/ts_empty/python" "$ts_file"
has ts_no_python err "^kerndiff: cannot run .*ts_empty/python \(No such file or directory\), the Python that reads Triton files: install Python 3 with Triton \(pip install triton\), or pass --python PATH$"
sed 's/\* 2/* undefined_name/' "$ts_file" >"$WORK/ts_broken.py"
run ts_compile 4 -- --arg BLOCK=128 "$ts_file" "$WORK/ts_broken.py"
has ts_compile err "^kerndiff: v2: Triton's compile of k .*failed; Triton said:$"
