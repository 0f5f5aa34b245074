# The launch block says a reason once, shows what was assumed, and the header names both
# kernels (issue 28 "wrong reasons and traps"; the launch spec's `assumed` from issue 27).
r1_ld="$WORK/r1_launch"
mkdir -p "$r1_ld"
# A missing scalar: the reason is said once in the report (the runtime note), the launch
# block points to it ("see below"); it was printed in the launch block and the note (and on
# stderr) alike.
printf '// kerndiff: n=4K block=128\n__global__ void axpby(float a, const float *x, float b, float *y, int n) { int i = threadIdx.x; if (i < n) y[i] = a * x[i] + b; }\n' \
    >"$r1_ld/scalars.cu"
KERNDIFF_SIMULATE=1 run r1_scalar_once 3 -- "$r1_ld/scalars.cu" "$r1_ld/scalars.cu"
r1_n=$(grep -c "scalar parameters 'a' (float), 'b' (float) need a value" "$WORK/r1_scalar_once.out")
if [ "$r1_n" -eq 1 ]; then ok "r1_scalar_once: the reason once in the report"; else
    fail "r1_scalar_once: the reason $r1_n times in the report" "$WORK/r1_scalar_once.out"; fi
has r1_scalar_once out '^  v1, v2: not launchable as described \(see below\)$'
has r1_scalar_once out "^v1 and v2: cannot launch axpby: scalar parameters 'a' \(float\), 'b' \(float\) need a value"
KERNDIFF_SIMULATE=1 run r1_scalar_once_md 3 -- --markdown - "$r1_ld/scalars.cu" "$r1_ld/scalars.cu"
r1_n=$(grep -c "scalar parameters 'a' (float), 'b' (float) need a value" "$WORK/r1_scalar_once_md.out")
if [ "$r1_n" -eq 1 ]; then ok "r1_scalar_once_md: the reason once in Markdown"; else
    fail "r1_scalar_once_md: the reason $r1_n times in Markdown" "$WORK/r1_scalar_once_md.out"; fi
# HTML says the note above the launch
KERNDIFF_SIMULATE=1 run r1_scalar_once_html 3 -- --html - "$r1_ld/scalars.cu" "$r1_ld/scalars.cu"
has r1_scalar_once_html out 'not launchable as described \(see above\)'
# --no-run has no runtime note: the launch block keeps the reason
run r1_scalar_norun 0 -- --no-run "$r1_ld/scalars.cu" "$r1_ld/scalars.cu"
has r1_scalar_norun out "^  v1, v2: not launchable as described: scalar parameters 'a' \(float\), 'b' \(float\) need a value"

# What kerndiff assumed from the code (extern __shared__ sized one element a thread) is its
# own line after the arguments, and in JSON with dynamic_shared.
run r1_assumed 0 -- --json "$WORK/r1_assumed.json" tests/realfiles/dot_product.cu tests/realfiles/dot_product.cu
has r1_assumed out '^          assumed: smem 1024 B: one float a thread for extern __shared__ smem_raw\[\]'
if python3 - "$WORK/r1_assumed.json" >"$WORK/r1_assumed_json.err" 2>&1 <<'PY'
import json, sys
for s in json.load(open(sys.argv[1]))["sides"]:
    l = s["launch"]
    assert l["dynamic_shared"] is True, l
    assert l["assumed"].startswith("smem 1024 B: one float a thread for extern __shared__ smem_raw[]"), l
    roles = {a["name"]: a["role"] for a in l["args"]}
    assert roles["result"] == "in-out buffer" and "count" in [a for a in l["args"] if a["name"] == "result"][0], l
PY
then ok "r1_assumed: JSON launch.assumed, dynamic_shared, in-out buffer with its count"; else
    fail "r1_assumed: JSON launch" "$WORK/r1_assumed_json.err"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/r1_assumed.json" >"$WORK/r1_assumed_valid.err" 2>&1; then
    ok "r1_assumed: JSON valid against docs/json-schema.json"; else fail "r1_assumed: schema" "$WORK/r1_assumed_valid.err"; fi
# a side told its shared memory assumes nothing: the sides differ, each says its own
{ echo '// kerndiff: smem=2048'; cat tests/realfiles/dot_product.cu; } >"$r1_ld/dot_told.cu"
run r1_assumed_one 0 -- tests/realfiles/dot_product.cu "$r1_ld/dot_told.cu"
has r1_assumed_one out '^  v1: '
has r1_assumed_one out '^  v2: '
r1_n=$(grep -c '^          assumed: ' "$WORK/r1_assumed_one.out")
if [ "$r1_n" -eq 1 ]; then ok "r1_assumed_one: one side's assumption shown"; else
    fail "r1_assumed_one: $r1_n assumed lines" "$WORK/r1_assumed_one.out"; fi

# Two different kernels: the header names both (it was blank).
run r1_two_kernels 0 -- --markdown "$WORK/r1_two.md" --html "$WORK/r1_two.html" "$A" tests/realfiles/dot_product.cu
has r1_two_kernels out '^kerndiff saxpy vs dot   arch '
cp "$WORK/r1_two.md" "$WORK/r1_two_md.out"
has r1_two_md out '^### kerndiff: `saxpy` vs `dot` \('
cp "$WORK/r1_two.html" "$WORK/r1_two_html.out"
has r1_two_html out '<title>kerndiff: saxpy vs dot \('
run r1_one_kernel 0 -- "$A" "$B"
has r1_one_kernel out '^kerndiff saxpy   arch '
