# Unknown resources are never printed as 0 (issue 28, "silent wrong results"): a Triton pair
# without cuobjdump has no resource report; every renderer shows the values as unknown with
# no delta, the occupancy as not computed with the reason, and JSON writes null (valid
# against the schema; a saved run keeps them unknown, and known ones known).
r1_tri=(examples/triton/block_size/v1.py examples/triton/block_size/v2.py)
KERNDIFF_CUOBJDUMP=/nonexistent run r1_unknown 0 -- --no-cache --json "$WORK/r1_unknown.json" --markdown "$WORK/r1_unknown.md" \
    --html "$WORK/r1_unknown.html" "${r1_tri[@]}"
has r1_unknown out '^  registers/thread +\? +\?$'
has r1_unknown out '^  barriers +\? +\?$'
lacks r1_unknown out '^  (registers/thread|spill stores \(B\)|barriers) +0 +0'
has r1_unknown out '^  not computed: resources unknown \(cuobjdump not found\)$'
lacks r1_unknown out 'cannot launch with this block size'
cp "$WORK/r1_unknown.md" "$WORK/r1_unknown_md.out"
has r1_unknown_md out '^\| registers/thread \| \? \| \? \|  \|$'
has r1_unknown_md out '^Theoretical occupancy not computed for sm_[0-9]+: resources unknown \(cuobjdump not found\)\.$'
lacks r1_unknown_md out '^\| registers/thread \| 0 \| 0 \|'
cp "$WORK/r1_unknown.html" "$WORK/r1_unknown_html.out"
has r1_unknown_html out '<td>registers/thread</td><td>\?</td><td>\?</td><td></td></tr>'
has r1_unknown_html out 'Not computed: resources unknown \(cuobjdump not found\)\.'
if python3 - "$WORK/r1_unknown.json" >"$WORK/r1_unknown_json.err" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for s in d["sides"]:
    r = s["resources"]
    assert all(v is None for v in r.values()), r
    assert set(r) == {"registers", "spill_stores_bytes", "spill_loads_bytes", "stack_frame_bytes",
                      "shared_static_bytes", "barriers"}, r
PY
then ok "r1_unknown: JSON resources are null"; else fail "r1_unknown: JSON resources" "$WORK/r1_unknown_json.err"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/r1_unknown.json" >"$WORK/r1_unknown_valid.err" 2>&1; then
    ok "r1_unknown: JSON valid against docs/json-schema.json"; else fail "r1_unknown: schema" "$WORK/r1_unknown_valid.err"; fi
# read back: unknown stays unknown, reported stays reported
run r1_unknown_saved 0 -- compare "$WORK/r1_unknown.json" "$WORK/r1_unknown.json"
has r1_unknown_saved out '^  registers/thread +\? +\?$'
run r1_known_save 0 -- --json "$WORK/r1_known.json" "$A" "$B"
run r1_known_saved 0 -- compare "$WORK/r1_known.json" "$WORK/r1_known.json"
has r1_known_saved out '^  registers/thread +[0-9]+ +[0-9]+( +[-+][0-9]+)?$'
lacks r1_known_saved out 'resources unknown'
