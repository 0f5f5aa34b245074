# Triton sides as Triton runs them (issue 26), the parts a machine without a GPU can check:
# the helper's list (helpers, launches, configs from a function, string constexprs, floats from
# use), and a capture that cannot take the launch: the file raises, never launches in time, or
# has no launch at all. Each says why and which values were assumed; the GPU half is
# tests/gpu part triton_jit.
TJ=tests/e2e/fixtures/triton_jit
HELPER="$(dirname "$KD")/kerndiff-triton.py"
python3 "$HELPER" list "$TJ/matmul_helper.py" >"$WORK/tj_list.json" 2>"$WORK/tj_list.err"
tj_field() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); k={x['name']: x for x in d['kernels']}; print(eval(sys.argv[2]))" "$@"; }
if [ "$(tj_field "$WORK/tj_list.json" '(k["leaky_relu"]["helper"], k["matmul_kernel"]["helper"], k["matmul_kernel"]["launches"], k["matmul_kernel"]["launches_unreached"], k["matmul_kernel"]["configs_from"])')" = "(True, False, [], [{'line': 25, 'in': 'matmul'}], ['get_autotune_config()'])" ]; then
    ok "tj_list: leaky_relu is a helper, matmul_kernel launched at line 25 inside matmul(), which nothing calls (no launch the file makes), configs from get_autotune_config()"
else fail "tj_list: helper/launch/configs" "$WORK/tj_list.json"; fi
if [ "$(tj_field "$WORK/tj_list.json" '[p.get("call_value") for p in k["matmul_kernel"]["params"] if p["name"] == "ACTIVATION"]')" = "[\"''\"]" ]; then
    ok "tj_list: a string constexpr passed through the wrapper's parameter takes its default (activation=\"\")"
else fail "tj_list: ACTIVATION call value" "$WORK/tj_list.json"; fi
python3 "$HELPER" list "$TJ/nolaunch.py" >"$WORK/tj_list2.json"
if [ "$(tj_field "$WORK/tj_list2.json" '[(p["name"], p["annotation"], p.get("typed_from", "")[:13]) for p in k["scale_kernel"]["params"] if p["name"] == "eps"]')" = "[('eps', 'float', 'its use with ')]" ]; then
    ok "tj_list: untyped eps is a float from its use"
else fail "tj_list: eps typed" "$WORK/tj_list2.json"; fi

if [ "$(tj_field "$WORK/tj_list.json" '[(c["meta"]["BLOCK_SIZE_M"], c["num_warps"], c["num_stages"]) for c in k["matmul_kernel"]["configs"]]')" = "[(128, 8, 3)]" ]; then
    ok "tj_list: the configs get_autotune_config() returns, read from the file's definitions"
else fail "tj_list: configs from a function" "$WORK/tj_list.json"; fi

# kerndiff list: the helper is not a kernel to choose
run tj_klist 0 -- list "$TJ/matmul_helper.py"
has tj_klist out '^matmul_kernel  \(line 9\)'
lacks tj_klist out '^leaky_relu'
has tj_klist out '^  launched at line 25 \(in matmul\(\)\), which running the file does not reach: the launch is described as below'
lacks tj_klist out 'launched by the file'
# a launch the file reaches through __main__, a function and a lambda is one the diff takes
python3 "$HELPER" list tests/gpu/triton_jit/vector_add.py >"$WORK/tj_list_va.json"
if [ "$(tj_field "$WORK/tj_list_va.json" '(k["add_kernel"]["launches"], k["add_kernel"]["launches_unreached"])')" = "([25], [])" ]; then
    ok "tj_list: vector_add.py's launch at line 25, reached from __main__ through the_launch() and add()"
else fail "tj_list: a reached launch" "$WORK/tj_list_va.json"; fi
has tj_klist out '^  constexprs: BLOCK_SIZE_M \(autotune\), BLOCK_SIZE_N \(autotune\), BLOCK_SIZE_K \(autotune\), GROUP_SIZE_M \(autotune\), ACTIVATION=.. \(the file.s call\)$'
has tj_klist out '^  autotune: 1 config from get_autotune_config\(\): 1: BLOCK_SIZE_M=128 BLOCK_SIZE_N=256 BLOCK_SIZE_K=64 GROUP_SIZE_M=8 num_warps=8 num_stages=3'
has tj_klist out '^  jitted helpers \(inlined into kernels, not kernels\): leaky_relu$'
run tj_klist_nolaunch 0 -- list "$TJ/nolaunch.py"
has tj_klist_nolaunch out '^  not launched by the file'
has tj_klist_nolaunch out '^  constexprs: BLOCK=512 \(default\)$'
has tj_klist_nolaunch out '^  float +eps +scalar'
run tj_klist_call 0 -- list "$TJ/raises.py"
has tj_klist_call out "^  constexprs: BLOCK=1024 \\(the file's call\\)$"

# The file raises before its launch: said with the exception, the launch assumed, the
# constexpr taken from the file's own call (BLOCK=1024), the static diff still made.
run tj_raises 0 -- "$TJ/raises.py" "$TJ/raises.py"
has tj_raises err "v1: the launch of add_kernel was not taken from the user's code: .*raises.py ended \(exit status 1\) without launching add_kernel; it launched no Triton kernel; RuntimeError: the file's own setup failed \(.*raises.py:13\)"
has tj_raises out 'Triton [0-9.]+ ahead of time: num_warps=4 \(Triton.s default, nothing in the file or flags says otherwise\) .*BLOCK=1024 \(from the file.s call at line 14; not captured: no GPU\); launch described, not taken from the user.s code'

# The launch never comes: given up after --capture-timeout, the kernel named.
run tj_never 0 -- --capture-timeout 2 "$TJ/never.py" "$TJ/never.py"
has tj_never err "v1: the launch of add_kernel was not taken from the user's code: .*never.py did not launch add_kernel within 2 s \(--capture-timeout SECONDS\)"

# No launch in the file: nothing is run, the launch is described and its defaults said.
run tj_nolaunch 0 -- "$TJ/nolaunch.py" "$TJ/nolaunch.py"
lacks tj_nolaunch err 'not taken from'
has tj_nolaunch out 'num_warps=4 \(Triton.s default, nothing in the file or flags says otherwise\) num_stages=3 \(Triton.s default'

# --no-capture: the file's own call is not run
run tj_nocapture 0 -- --no-capture "$TJ/raises.py" "$TJ/raises.py"
lacks tj_nocapture err 'not taken from'
run tj_bad_nth 2 -- --nth 0 "$TJ/raises.py" "$TJ/raises.py"
has tj_bad_nth err '--nth wants a whole number'

# --config pins an @triton.autotune config, by number or by its values, on both sides; one
# that names no config is refused with the configs listed.
run tj_config_index 0 -- --config 2 tests/gpu/kernels/tuned.py tests/gpu/kernels/tuned.py
has tj_config_index out 'autotune: config 2 of 2 \(BLOCK=1024, num_warps=8\) used'
lacks tj_config_index out 'config 1 of 2'
run tj_config_values 0 -- --config 'BLOCK=256,num_warps=2' tests/gpu/kernels/tuned.py tests/gpu/kernels/tuned.py
has tj_config_values out 'autotune: config 1 of 2 \(BLOCK=256, num_warps=2\) used'
run tj_config_none 3 -- --config 5 tests/gpu/kernels/tuned.py tests/gpu/kernels/tuned.py
has tj_config_none err "v1: --config 5 names none of scale's autotune configs: 1: BLOCK=256, num_warps=2; 2: BLOCK=1024, num_warps=8"

# JSON: each Triton side says where its launch came from (and why not from the user's code).
run tj_json 0 -- --json="$WORK/tj.json" "$TJ/raises.py" "$TJ/raises.py"
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); s=d['sides'][0]['launch_source']; sys.exit(not (s['from'] == 'described' and 'RuntimeError' in s['not_captured']))" "$WORK/tj.json"; then
    ok "tj_json: launch_source described, with why not captured"; else fail "tj_json: launch_source" "$WORK/tj.json"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/tj.json" >"$WORK/tj_schema.err" 2>&1; then
    ok "tj_json: valid against docs/json-schema.json"; else fail "tj_json: schema" "$WORK/tj_schema.err"; fi
run tj_json_cuda 0 -- --json="$WORK/tj_cuda.json" examples/vector_loads/v1.cu examples/vector_loads/v2.cu
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d['sides'][0]['launch_source'] is not None)" "$WORK/tj_cuda.json"; then
    ok "tj_json: a CUDA side has no launch_source"; else fail "tj_json: CUDA launch_source" "$WORK/tj_cuda.json"; fi

# --run: the launch is looked for in that program (split into words, no shell), with the same
# watching: its exception is said as the file's own is; an empty or unsplittable one is refused.
# A launch asked for (--run) that cannot be had is an error, never replaced by a guessed one.
run tj_run 3 -- --run "python3 $TJ/raises.py" "$TJ/raises.py" "$TJ/raises.py"
has tj_run err "v1: --run 'python3 .*raises.py' gave no launch of add_kernel: python3 .*raises.py ended \(exit status 1\) without launching add_kernel; it launched no Triton kernel; RuntimeError: the file's own setup failed"
run tj_run_empty 2 -- --run ' ' "$TJ/raises.py" "$TJ/raises.py"
has tj_run_empty err '--run wants a command'
run tj_run_quote 3 -- --run "python3 'unterminated" "$TJ/raises.py" "$TJ/raises.py"
has tj_run_quote err "cannot be split into words: No closing quotation"
run tj_config_commas 3 -- --config ',,,' tests/gpu/kernels/tuned.py tests/gpu/kernels/tuned.py
has tj_config_commas err 'names none of scale.s autotune configs'
