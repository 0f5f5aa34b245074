# Sourced by tests/e2e/realfiles.sh: in-out buffers (issue 27 item 2). A kernel that does
# y[i] += x[i] reads and writes y: kerndiff seeds it (never the poison), compares it, and
# sends the harness the buffer mode `inout` (docs/PROTOCOL.md); the simulated harness then
# leaves its untouched elements holding their seeded values in both check runs, where an
# output's hold the poison in the second. v2 (y[i] = x[i]) only writes y: an output.
r2_acc=tests/realfiles/r2/inout_acc.cu r2_copy=tests/realfiles/r2/inout_copy.cu
KERNDIFF_SIMULATE="median=50us,unwritten=100;median=50us,unwritten=100" \
    run r2_inout 0 -- --n 4096 --json="$WORK/r2_inout.json" "$r2_acc" "$r2_copy"
has r2_inout out '^  v1: .*y: 4096 f32 in-out \(n\)|^          x: 4096 f32 in \(n\)  y: 4096 f32 in-out \(n\)  n = 4096 \(n\)$'
has r2_inout out '^          x: 4096 f32 in \(n\)  y: 4096 f32 out \(n\)  n = 4096 \(n\)$'
has r2_inout out 'y \(f32, 4096 elements\): .*never written: v1 0, v2 100'
r2_got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o=d["runtime"]["correctness"]["outputs"][0]; a=d["sides"][0]["launch"]["args"]; print(o["name"], o["unwritten_v1"], o["unwritten_v2"], a[1]["role"], d["sides"][1]["launch"]["args"][1]["role"])' "$WORK/r2_inout.json" 2>&1)
if [ "$r2_got" = "y 0 100 in-out buffer output buffer" ]; then ok "r2_inout: y compared, seeded on the in-out side (0 unwritten), poisoned on the output side (100)"
else fail "r2_inout: JSON says '$r2_got'"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/r2_inout.json" >"$WORK/r2_inout_valid.err" 2>&1; then
    ok "r2_inout: JSON with an in-out buffer is valid against the schema"; else fail "r2_inout: schema" "$WORK/r2_inout_valid.err"; fi

# The user's word beats the compiled code: --buf y=out poisons it on both sides, --buf y=in
# stops comparing it (nothing else is compared, so nothing is).
KERNDIFF_SIMULATE="median=50us,unwritten=100;median=50us,unwritten=100" \
    run r2_inout_buf 0 -- --n 4096 --buf y=out --json="$WORK/r2_inout_buf.json" "$r2_acc" "$r2_copy"
has r2_inout_buf out '^          x: 4096 f32 in \(n\)  y: 4096 f32 out \(n\)  n = 4096 \(n\)$'
lacks r2_inout_buf out 'in-out'
r2_got=$(python3 -c 'import json,sys; o=json.load(open(sys.argv[1]))["runtime"]["correctness"]["outputs"][0]; print(o["unwritten_v1"], o["unwritten_v2"])' "$WORK/r2_inout_buf.json" 2>&1)
if [ "$r2_got" = "100 100" ]; then ok "r2_inout_buf: --buf y=out poisons v1's y too"; else fail "r2_inout_buf: unwritten '$r2_got', wanted '100 100'"; fi
run r2_list_inout 0 -- list "$r2_acc"
has r2_list_inout out '^  float \* +y +in-out buffer of float \(read and written in the compiled code\)$'
has r2_list_inout out '^  const float \* +x +input buffer of float \(never written in the compiled code\)$'
run r2_list_buf_in 0 -- list --buf y=in "$r2_acc"
has r2_list_buf_in out 'y: 1048576 f32 in \(n\)'
run r2_list_buf_bad 0 -- list --buf z=inout "$r2_acc"
has r2_list_buf_bad out "launch: not launchable as described: --buf z=inout: kernel 'acc' has no parameter 'z' \\(its parameters: x, y, n\\)$"
