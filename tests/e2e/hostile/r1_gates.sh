# Gates in the report's body (issue 28 item 4): the terminal, Markdown and HTML reports and the
# JSON document say every gate asked for, and a gate that could not be judged is named with
# the real reason (the exit message's sentence, never "(no GPU?)"); --watch says which gate.
run r1_gate_match 10 -- --require-match --json "$WORK/r1_gate_match.json" --markdown "$WORK/r1_gate_match.md" \
    --html "$WORK/r1_gate_match.html" "$A" "$B"
r1_why='runtime measurement skipped: KERNDIFF_NO_GPU is set; static diff only'
has r1_gate_match out "^gate --require-match: NOT EVALUATED, no outputs were compared: $r1_why$"
cp "$WORK/r1_gate_match.md" "$WORK/r1_gate_match_md.out"
has r1_gate_match_md out "^:x: gate --require-match: NOT EVALUATED, no outputs were compared: $r1_why$"
cp "$WORK/r1_gate_match.html" "$WORK/r1_gate_match_html.out"
has r1_gate_match_html out "<p class=\"bad\">gate --require-match: NOT EVALUATED, no outputs were compared: $r1_why</p>"
if python3 - "$WORK/r1_gate_match.json" >"$WORK/r1_gate_match_json.err" 2>&1 <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["gate"]
assert g["require_match"] is True and g["match_evaluated"] is False, g
assert g["fail_if_slower"] is False and g["result"] == "not_measured", g
assert g["text"].startswith("gate --require-match: NOT EVALUATED, no outputs were compared: runtime"), g
PY
then ok "r1_gate_match: JSON gate object for --require-match alone, not evaluated"; else
    fail "r1_gate_match: JSON gate" "$WORK/r1_gate_match_json.err"; fi
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/r1_gate_match.json" >"$WORK/r1_gate_valid.err" 2>&1; then
    ok "r1_gate_match: JSON valid against docs/json-schema.json"; else fail "r1_gate_match: schema" "$WORK/r1_gate_valid.err"; fi

run r1_gate_slower 10 -- --fail-if-slower 5 --markdown "$WORK/r1_gate_slower.md" "$A" "$B"
has r1_gate_slower out "^gate --fail-if-slower 5%: NOT EVALUATED, nothing was measured: $r1_why$"
lacks r1_gate_slower out 'no GPU\?'
cp "$WORK/r1_gate_slower.md" "$WORK/r1_gate_slower_md.out"
has r1_gate_slower_md out "^:x: gate --fail-if-slower 5%: NOT EVALUATED, nothing was measured: $r1_why$"
lacks r1_gate_slower_md out 'no GPU\?'

# Both judged (simulated harness): each gate its line, and JSON says both were evaluated.
KERNDIFF_SIMULATE="median=60us,seed=1;median=50us,seed=2" run r1_gate_both 0 -- --n 64K --fail-if-slower 5 --require-match \
    --json "$WORK/r1_gate_both.json" "$A" "$B"
has r1_gate_both out '^gate --fail-if-slower 5%: passed '
has r1_gate_both out '^gate --require-match: passed, the outputs match$'
if python3 - "$WORK/r1_gate_both.json" >"$WORK/r1_gate_both_json.err" 2>&1 <<'PY'
import json, sys
g = json.load(open(sys.argv[1]))["gate"]
assert g["fail_if_slower"] and g["evaluated"] and g["require_match"] and g["match_evaluated"], g
assert g["result"] == "passed" and g["text"].count("\n") == 1, g
PY
then ok "r1_gate_both: JSON gate says both evaluated"; else fail "r1_gate_both: JSON gate" "$WORK/r1_gate_both_json.err"; fi
# a saved run's gate object reads back (compare judges its own gates)
run r1_gate_saved 0 -- compare "$WORK/r1_gate_both.json" "$WORK/r1_gate_both.json"
# outputs that differ: the --require-match line says FAILED
KERNDIFF_SIMULATE="median=60us,seed=1;median=50us,wrong=3,seed=2" run r1_gate_differ 6 -- --n 64K --require-match "$A" "$B"
has r1_gate_differ out '^gate --require-match: FAILED, the outputs differ between v1 and v2$'

# --watch: a gate not judged is named with the reason after each run (it said
# "--fail-if-slower 0%: ... (no GPU?)" for --require-match)
cp "$A" "$WORK/r1_w1.cu"; cp "$B" "$WORK/r1_w2.cu"
"$KD" --watch --require-match "$WORK/r1_w1.cu" "$WORK/r1_w2.cu" >"$WORK/r1_watch.out" 2>"$WORK/r1_watch.err" </dev/null &
r1_watcher=$!
for _ in $(seq 300); do grep -q 'watching for changes' "$WORK/r1_watch.out" && break; sleep 0.1; done
kill -INT $r1_watcher; wait $r1_watcher 2>/dev/null
has r1_watch err "^kerndiff: gate --require-match: NOT EVALUATED, no outputs were compared: $r1_why$"
lacks r1_watch err 'fail-if-slower'
