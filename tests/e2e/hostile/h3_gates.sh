# h3: every gate fails closed (issue 28, item 4). Without a GPU (KERNDIFF_NO_GPU=1, set by
# run.sh) --fail-if-slower already exited 5; --sanitize and --require-match exited 0 silently
# and --regions said nothing of the regions it could not time.
H3_R1=examples/regions/v1.cu H3_R2=examples/regions/v2.cu
run h3_nogpu_sanitize 10 -- --sanitize "$A" "$B"
has h3_nogpu_sanitize err '^kerndiff: gate --sanitize: NOT EVALUATED, nothing was run: runtime measurement skipped: KERNDIFF_NO_GPU is set'
has h3_nogpu_sanitize out '^gate --sanitize: NOT EVALUATED'
run h3_nogpu_require_match 10 -- --require-match "$A" "$B"
has h3_nogpu_require_match err '^kerndiff: gate --require-match: NOT EVALUATED, no outputs were compared: runtime measurement skipped: KERNDIFF_NO_GPU is set'
run h3_nogpu_both 10 -- --fail-if-slower 5 --require-match "$A" "$B"
has h3_nogpu_both err '^kerndiff: gate --fail-if-slower 5%, --require-match: NOT EVALUATED, nothing was measured and no outputs were compared: runtime measurement skipped'
lacks h3_nogpu_both err 'no GPU\?'
run h3_nogpu_regions 0 -- --regions "$H3_R1" "$H3_R2"
has h3_nogpu_regions out '^regions not recorded: nothing was run, so no region was timed \(runtime measurement skipped: KERNDIFF_NO_GPU is set; static diff only\)'
# In compare, a saved run without the correctness check (--no-check) is no pass of --require-match.
KERNDIFF_SIMULATE="median=50us;median=50us" run h3_save_checked 0 -- --n 64K --save "$WORK/h3_checked.json" "$A" "$B"
KERNDIFF_SIMULATE="median=50us;median=50us" run h3_save_nocheck 0 -- --n 64K --no-check --save "$WORK/h3_nocheck.json" "$A" "$B"
run h3_compare_nocheck_match 10 -- compare --require-match "$WORK/h3_checked.json" "$WORK/h3_nocheck.json"
has h3_compare_nocheck_match err '^kerndiff: gate --require-match: NOT EVALUATED, no outputs were compared: a saved run did not compare its outputs'
run h3_compare_checked_match 0 -- compare --require-match "$WORK/h3_checked.json" "$WORK/h3_checked.json"
# Evaluated gates are unchanged: a match passes.
KERNDIFF_SIMULATE="median=50us;median=50us" run h3_sim_require_match 0 -- --n 64K --require-match "$A" "$B"
lacks h3_sim_require_match err 'NOT EVALUATED'
# The JSON carries the gate and the reason as stable ids (no internal numbers).
run h3_nogpu_sanitize_json 10 -- --sanitize --json="$WORK/h3_san.json" "$A" "$B"
if python3 -c "import json,sys; n=json.load(open(sys.argv[1]))['notes']['runtime']; sys.exit(not (n['id']=='gate_not_evaluated' and n['values']==['--sanitize','no_gpu'] and n['detail']=='KERNDIFF_NO_GPU is set'))" "$WORK/h3_san.json" 2>"$WORK/h3_san_json.err"; then
    ok "h3_nogpu_sanitize_json: notes.runtime is gate_not_evaluated, values [--sanitize, no_gpu]"; else
    fail "h3_nogpu_sanitize_json: notes.runtime" "$WORK/h3_san.json"; fi
