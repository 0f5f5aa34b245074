# A captured Triton launch that is malformed (a damaged or hostile capture or cache entry):
# kerndiff refuses it or describes what it can, never crashes or reads out of bounds (this
# suite runs under ASan+UBSan with `make sanitize`). The capture is the test double
# tests/fakes/fake_triton_capture.py in a harness folder beside the real programs.
lc_dir="$WORK/lead_capture_harness"
source tests/fakes/fake_capture_dir.sh
fake_capture_dir "$lc_dir"
lc_file=tests/e2e/fixtures/triton_jit/raises.py
lc_case() { # lc_case NAME LAUNCH_JSON
    KERNDIFF_HARNESS_DIR="$lc_dir" KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" KD_FAKE_LAUNCH="$2" \
        "$KD" --no-cache "$lc_file" "$lc_file" >"$WORK/lc_$1.out" 2>"$WORK/lc_$1.err" </dev/null
    local rc=$?
    if [ $rc -lt 128 ] && ! grep -Eq 'runtime error|AddressSanitizer|LeakSanitizer' "$WORK/lc_$1.err"; then
        ok "lead_capture $1: exit $rc, no crash"
    else fail "lead_capture $1: exit $rc" "$WORK/lc_$1.err"; fi
}
lc_case empty '{}'
lc_case not_object '[1, 2, 3]'
lc_case not_json 'grid=1'
lc_case no_grid '{"args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp32", "count": 16}], "metadata": {"num_warps": 4}}'
lc_case negative_count '{"grid": [1, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp32", "count": -5}], "metadata": {"num_warps": 4}}'
lc_case huge_count '{"grid": [1, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp32", "count": 9223372036854775807}], "metadata": {"num_warps": 4}}'
lc_case bad_dtype '{"grid": [1, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp9\u001b[31m", "count": 16}], "metadata": {"num_warps": 4}}'
lc_case no_name '{"grid": [1, 1, 1], "args": [{"kind": "pointer", "count": 16}], "metadata": {"num_warps": 4}}'
lc_case scalar_string '{"grid": [1, 1, 1], "args": [{"name": "n", "kind": "scalar", "type": "i32", "value": "x"}], "metadata": {"num_warps": 4}}'
lc_case scalar_type '{"grid": [1, 1, 1], "args": [{"name": "n", "kind": "scalar", "type": "fp8", "value": 1}], "metadata": {"num_warps": 4}}'
lc_case huge_warps '{"grid": [4294967296, -1, 0], "args": [], "metadata": {"num_warps": 99999999999, "shared": -1}}'
lc_case many_args "{\"grid\": [1,1,1], \"args\": [$(for i in $(seq 1 300); do printf '{"name": "p%d", "kind": "scalar", "type": "i32", "value": 1},' "$i"; done) {\"name\": \"q\", \"kind\": \"scalar\", \"type\": \"i32\", \"value\": 2}], \"metadata\": {\"num_warps\": 4}}"
lacks lc_bad_dtype err $'\x1b'

# The same refused count from the command line: said (the static diff still shown), never converted (UBSan caught -5 as an
# unsigned count once, through the captured launch above).
run lead_buf_negative 0 -- --buf y=-5 examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has lead_buf_negative out "y=-5.*must be between 1 and"
lacks lead_buf_negative err 'runtime error'

# A well-formed captured launch (the same test double): its values are the launch, each said
# as "captured", and a refused value names the captured launch, not a line of the file.
lc_case wellformed '{"grid": [2, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp16", "count": 64}, {"name": "n", "kind": "scalar", "type": "i32", "value": 64}], "metadata": {"num_warps": 4, "shared": 0}}'
cp "$WORK/lc_wellformed.out" "$WORK/lc_wellformed_launch.out"
has lc_wellformed_launch out '^  v1, v2: grid 2 \(captured\)  block 128 \(compiler\)'
has lc_wellformed_launch out 'x_ptr: 64 f16 in \(captured\)'
cp "$WORK/lc_negative_count.out" "$WORK/lc_negative_launch.out"
has lc_negative_launch out "not launchable as described: the captured launch's x_ptr=-5: the value is -5"
# Its JSON is valid against the schema (a captured build's key is its content's hash) and says
# where the launch came from.
KERNDIFF_HARNESS_DIR="$lc_dir" KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" \
    KD_FAKE_LAUNCH='{"grid": [2, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp16", "count": 64}], "where": {"file": "k.py", "line": 7}, "metadata": {"num_warps": 4, "shared": 0, "n_regs": 12}}' \
    "$KD" --no-cache --json="$WORK/lc.json" "$lc_file" "$lc_file" >/dev/null 2>"$WORK/lc_json.err"
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/lc.json" >"$WORK/lc_valid.err" 2>&1 &&
    python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['sides'][0]; sys.exit(not (s['launch_source']['from'] == 'captured' and s['launch_source']['where']['line'] == 7 and len(s['build']['key']) == 64))" "$WORK/lc.json"; then
    ok "lead_capture: a captured side's JSON is valid and says where its launch came from"
else fail "lead_capture: captured JSON" "$WORK/lc_valid.err"; fi

# Captured tensor data (issue 26): each tensor's bytes at the launch, kept beside launch.json,
# seed that buffer; one the capture did not keep, or whose file is not the capture's own or
# has another size, is seeded at random and said so (the build line and JSON args[].data).
lc_data() { # lc_data NAME LAUNCH_JSON DATA_JSON
    KERNDIFF_HARNESS_DIR="$lc_dir" KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" KD_FAKE_LAUNCH="$2" \
        KD_FAKE_DATA="$3" "$KD" --no-cache --json="$WORK/lc_$1.json" "$lc_file" "$lc_file" \
        >"$WORK/lc_$1.out" 2>"$WORK/lc_$1.err" </dev/null
}
lc_two='{"grid": [2, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp32", "count": 64, "element_size": 4}, {"name": "y_ptr", "kind": "pointer", "dtype": "fp32", "count": 64, "element_size": 4}], "where": {"file": "k.py", "line": 7}, "metadata": {"num_warps": 4, "shared": 0}}'
lc_data data_kept "$lc_two" '{"x_ptr": 256, "y_ptr": "not kept: 300 bytes would pass the capture'"'"'s 1024 MiB for tensor data"}'
has lc_data_kept out "data: the program's own \(captured\) for x_ptr; seeded at random: y_ptr \(not kept: 300 bytes would pass"
if python3 -c "
import json, sys
a = {x['name']: x for x in json.load(open(sys.argv[1]))['sides'][0]['launch_source']['args']}
sys.exit(not (a['x_ptr']['data'] == {'captured': True, 'bytes': 256} and a['y_ptr']['data']['captured'] is False))" "$WORK/lc_data_kept.json"; then
    ok "lead_capture data_kept: JSON args[].data says which buffers start with the program's data"
else fail "lead_capture data_kept: JSON args[].data" "$WORK/lc_data_kept.json"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/lc_data_kept.json" >"$WORK/lc_data_valid.err" 2>&1; then
    ok "lead_capture data_kept: JSON valid against docs/json-schema.json"; else fail "lead_capture data_kept: schema" "$WORK/lc_data_valid.err"; fi
# a file of another size than the buffer (255 bytes for 64 fp32): not used
lc_data data_size "$lc_two" '{"x_ptr": 255, "y_ptr": 256}'
has lc_data_size out "data: the program's own \(captured\) for y_ptr; seeded at random: x_ptr \(its 255 bytes are not 64 elements of 4 bytes\)"
# a data file named outside the capture's folder (a hostile cache entry): never read
lc_data data_escape '{"grid": [1, 1, 1], "args": [{"name": "x_ptr", "kind": "pointer", "dtype": "fp32", "count": 1, "element_size": 4, "data": {"file": "../../../../etc/hostname", "bytes": 4}}], "metadata": {"num_warps": 4}}' ''
has lc_data_escape out "seeded at random: x_ptr \(its data file is not the capture's own\)"
lacks lc_data_escape err 'runtime error|AddressSanitizer'
# ... and the kept files reach the harness: each kept tensor's buffer is filled from its file
# (`fill I PATH`, docs/PROTOCOL.md) in every child, as the build line says (the simulated
# harness behind a recorder of what it is sent).
lc_fill_dir="$WORK/lead_capture_fill"
mkdir -p "$lc_fill_dir"
ln -sf "$lc_dir"/kerndiff-triton.py "$lc_fill_dir/"
. "$ROOT/tests/e2e/protocol_recorder.sh"
record_protocol "$lc_fill_dir" "$lc_fill_dir/proto.log"
KERNDIFF_SIMULATE="median=20us;median=20us" KERNDIFF_HARNESS_DIR="$lc_fill_dir" KD_REAL_HELPER="$(dirname "$KD")/kerndiff-triton.py" \
    KD_FAKE_LAUNCH="$lc_two" KD_FAKE_DATA='{"x_ptr": 256, "y_ptr": "not kept: too big"}' \
    "$KD" --no-cache --no-ncu "$lc_file" "$lc_file" >"$WORK/lc_fill.out" 2>"$WORK/lc_fill.err" </dev/null
if grep -Eq '^fill 0 .*/v1-capture/data/x_ptr\.bin$' "$lc_fill_dir/proto.log" && grep -Eq '^fill 0 .*/v2-capture/data/x_ptr\.bin$' "$lc_fill_dir/proto.log" &&
    ! grep -q '^fill 1 ' "$lc_fill_dir/proto.log"; then
    ok "lead_capture fill: the kept tensor's buffer is filled from its file on both sides, the other seeded"
else fail "lead_capture fill: fill commands" "$lc_fill_dir/proto.log"; fi
