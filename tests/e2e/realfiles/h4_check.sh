# Sourced by tests/e2e/realfiles.sh: the correctness report on outputs that differ in the
# ways real kernel pairs do (issue 27 item 4), made by the simulated harness's output=SHAPE
# (harness/sim_harness.c), and the tools found without make's PATH (item 6).
h4_a=examples/vector_loads/v1.cu h4_b=examples/vector_loads/v2.cu
# h4_sim NAME V2SHAPE [V1SHAPE]: a simulated diff of 4096 elements with its JSON in $WORK/NAME.json
h4_sim() {
    local v1="median=50us${3:+,output=$3}"
    # the report of a difference is what these test: --allow-mismatch keeps the exit 0 (outputs
    # that differ exit 6 by default, tests/e2e/timing.sh)
    KERNDIFF_SIMULATE="$v1;median=50us,output=$2" run "$1" 0 -- --allow-mismatch --n 4096 --json="$WORK/$1.json" "$h4_a" "$h4_b"
}
# h4_json NAME EXPR WANT: EXPR over o, the first output's correctness entry
h4_json() {
    local got
    got=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); o=d["runtime"]["correctness"]["outputs"][0]; print(eval(sys.argv[2]))' "$WORK/$1.json" "$2" 2>&1)
    if [ "$got" = "$3" ]; then ok "$1: $2 = $3"; else fail "$1: $2 = '$got', wanted '$3'"; fi
}
h4_detail='^  out \(f32, 4096 elements\): '

# An exclusive scan against an inclusive one: v2[i] = v1[i+1].
h4_sim h4_shift shift:1
has h4_shift out '^OUTPUTS DIFFER: 1 of 1 output buffers do not match$'
has h4_shift out "${h4_detail}4095 differ \(rtol 1e-05, atol 1e-06\); max abs err [0-9.]+, max rel err [0-9.e+]+; v2 is v1 shifted by 1: exclusive vs inclusive\? \(v2\[i\] = v1\[i\+1\] for 4095 of 4095 elements\); first: \[0\] [-0-9.e]+ vs [-0-9.e]+, \[1\]"
lacks h4_shift out 'e\+30[0-9]'
h4_json h4_shift 'o["pattern"]["kind"], o["pattern"]["shift"], o["pattern"]["fits"], o["pattern"]["of"]' "('shift', 1, 4095, 4095)"
h4_json h4_shift 'o["mismatches"], len(o["first_mismatches"]), o["max_rel_err"] < 1e7' '(4095, 8, True)'
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/h4_shift.json" >"$WORK/h4_shift_valid.err" 2>&1; then
    ok "h4_shift: JSON with a pattern is valid against the schema"; else fail "h4_shift: schema" "$WORK/h4_shift_valid.err"; fi
h4_sim h4_shift_back shift:3
has h4_shift_back out 'v2 is v1 shifted by 3: an index off by a constant\? \(v2\[i\] = v1\[i\+3\] for 4093 of 4093 elements\)'

# The same values in another order.
h4_sim h4_permuted reverse
has h4_permuted out "${h4_detail}4096 differ \(rtol 1e-05, atol 1e-06\); .*; v2 holds v1's values, bit for bit, in another order: a permutation \(another element-to-thread mapping\?\); first: \[0\]"
h4_json h4_permuted 'o["pattern"]["kind"], o["pattern"]["fits"], o["pattern"]["of"]' "('permutation', 4096, 4096)"

# Twice the reference.
h4_sim h4_scaled scale:2
has h4_scaled out "${h4_detail}4096 differ .*; v2 is v1 times 2 \(for 4096 of 4096 elements\): a scale factor\?; first:"
h4_json h4_scaled 'o["pattern"]["kind"], o["pattern"]["factor"], o["pattern"]["fits"]' "('factor', 2.0, 4096)"

# A bounds check that stops early: only the last 100 differ.
h4_sim h4_tail tail:100
has h4_tail out "${h4_detail}100 differ .*; every difference lies in the last 100 elements \(from index 3996\): a bounds check\?; first: \[3996\]"
h4_json h4_tail 'o["pattern"]["kind"], o["pattern"]["of"], o["first_mismatches"][0]["index"], o["last_mismatch"]' "('tail', 100, 3996, 4095)"

# Only NaNs differ.
h4_sim h4_nan nan:3
has h4_nan out "${h4_detail}3 differ .*; every difference is a NaN or an infinity on one side \(3 NaN, 0 infinite\); first: \[0\] [-0-9.e]+ vs nan, \[1\] [-0-9.e]+ vs nan, \[2\] [-0-9.e]+ vs nan$"
h4_json h4_nan 'o["pattern"]["kind"], o["nan_mismatches"], o["inf_mismatches"], o["first_mismatches"][2]["v2"]' "('nonfinite', 3, 0, None)"

# Neither side writes its "output" (an input taken for an output): nothing compared, no
# "OUTPUTS DIFFER" with 0 differing elements.
h4_sim h4_unwritten left:all left:all
has h4_unwritten out '^OUTPUTS NOT COMPARED: neither v1 nor v2 wrote any element of its output$'
has h4_unwritten out "${h4_detail}written by neither side \(every element still holds the poison\): nothing to compare; is it an input the kernels only read\?$"
lacks h4_unwritten out 'DIFFER'
h4_json h4_unwritten 'o["mismatches"], o["unwritten_v1"], o["unwritten_v2"], o["pattern"]["kind"]' "(0, 4096, 4096, 'none')"

# v2 leaves 1000 elements untouched that v1 writes with the values they already held: the
# values agree, only which elements were written differs.
h4_sim h4_partly left:1000
has h4_partly out '^outputs match \(1 buffer compared in full\); only which elements were written differs \(below\)$'
has h4_partly out "${h4_detail}match \(rtol 1e-05, atol 1e-06\); max abs err 0, max rel err 0; only which elements were written differs: never written: v1 0, v2 1000"
lacks h4_partly out 'DIFFER'
h4_json h4_partly 'o["mismatches"], o["unwritten_v1"], o["unwritten_v2"]' '(0, 0, 1000)'

# Partly written with wrong values (the first 2 never written, their seeded value is not the
# result): these differ, and the unwritten count says why.
KERNDIFF_SIMULATE="median=50us;median=50us,unwritten=2" run h4_partly_wrong 0 -- --allow-mismatch --n 4096 --json="$WORK/h4_partly_wrong.json" "$h4_a" "$h4_b"
has h4_partly_wrong out "${h4_detail}2 differ .*; never written: v1 0, v2 2; first: \[0\] [-0-9.e]+ vs [-0-9.e]+, \[1\] [-0-9.e]+ vs [-0-9.e]+$"
h4_json h4_partly_wrong 'o["mismatches"], o["unwritten_v2"], o["pattern"]["kind"]' "(2, 2, 'none')"

# Item 6: the SASS tools that scripts/install-deps.sh put in pip's folders are found with a
# bare PATH (no make, no shell profile).
h4_tools=$(python3 scripts/cuda-tools-path.py 2>/dev/null)
if [ -n "$h4_tools" ] && [ -x "$h4_tools/cuobjdump" ] && [ ! -x /usr/local/cuda/bin/cuobjdump ]; then
    env -i PATH=/usr/bin:/bin KERNDIFF_NO_GPU=1 NO_COLOR=1 XDG_CACHE_HOME="$WORK/cache" \
        "$KD" "$h4_a" "$h4_b" >"$WORK/h4_bare_path.out" 2>"$WORK/h4_bare_path.err" </dev/null
    lacks h4_bare_path out 'SASS skipped: cuobjdump not found'
    has h4_bare_path out 'SASS'
fi
