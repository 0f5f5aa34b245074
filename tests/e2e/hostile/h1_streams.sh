# Issue 28, item 6 (output streams): at most one document on stdout, '-' is stdout for every
# format, any file name for --json, and messages never inside the report with 2>&1.
# Sourced by tests/e2e/hostile.sh.
H1S=$WORK/h1_streams
mkdir -p "$H1S"
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
run h1_two_stdout 2 -- --json --markdown "$A" "$B"
has h1_two_stdout err "^kerndiff: --json and --markdown both write to standard output \(a bare --json or --markdown, or '-'\): give one of them a FILE$"
run h1_two_stdout_dash 2 -- --csv - --save=- "$A" "$B"
has h1_two_stdout_dash err "^kerndiff: --save and --csv both write to standard output"
[ ! -s "$WORK/h1_two_stdout.out" ] && ok "h1_two_stdout: nothing on stdout" || fail "h1_two_stdout: stdout" "$WORK/h1_two_stdout.out"

# `--json -` is stdout, as `--csv -` is: one valid JSON document and no terminal report.
run h1_json_dash 0 -- --json - "$A" "$B"
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/h1_json_dash.out" >"$WORK/h1_jd.err" 2>&1; then
    ok "h1_json_dash: stdout is one valid JSON document"; else fail "h1_json_dash: stdout" "$WORK/h1_jd.err"; fi
# `--json report` (no extension): the option says the format.
rm -f "$H1S/report"
run h1_json_no_ext 0 -- --json "$H1S/report" "$A" "$B"
if python3 tests/e2e/validate_json.py docs/json-schema.json "$H1S/report" >"$WORK/h1_jne.err" 2>&1; then
    ok "h1_json_no_ext: the file 'report' is the JSON"; else fail "h1_json_no_ext: report" "$WORK/h1_jne.err"; fi
has h1_json_no_ext out '^PTX instructions'
# `compare --json old new`: --json gives old.json back to compare and writes to stdout.
run h1_save_old 0 -- --save="$H1S/old.json" "$A" "$B"
run h1_compare_json 0 -- compare --json "$H1S/old.json" "$H1S/old.json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/h1_compare_json.out" 2>"$WORK/h1_cj.err" &&
    ok "h1_compare_json: stdout is the JSON of the comparison" || fail "h1_compare_json: stdout" "$WORK/h1_cj.err"

# With 2>&1 (a CI log) a message never lands inside the report: the report (over 4 KiB, more
# than stdio's buffer) is out before the message about the JSON that could not be written.
"$KD" --all-instructions --json=/nonexistent/h1/r.json examples/matmul/v1.cu examples/matmul/v2.cu \
    >"$H1S/mixed.txt" 2>&1 </dev/null
h1_rc=$?
[ $h1_rc -eq 7 ] && ok "h1_mixed: exit 7" || fail "h1_mixed: exit $h1_rc, wanted 7" "$H1S/mixed.txt"
h1_last_report=$(grep -n '^(static counts' "$H1S/mixed.txt" | cut -d: -f1)
h1_message=$(grep -n "cannot write the JSON to '/nonexistent/h1/r.json'" "$H1S/mixed.txt" | cut -d: -f1)
if [ -n "$h1_last_report" ] && [ -n "$h1_message" ] && [ "$h1_message" -gt "$h1_last_report" ] &&
    [ "$(wc -c <"$H1S/mixed.txt")" -gt 4096 ]; then
    ok "h1_mixed: the message follows the whole report (line $h1_message after $h1_last_report)"; else
    fail "h1_mixed: the message (line ${h1_message:-none}) is not after the report's end (line ${h1_last_report:-none})" "$H1S/mixed.txt"; fi
