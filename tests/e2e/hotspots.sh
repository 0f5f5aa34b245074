# Sourced by run.sh: the hot-spot diff (--hotspots, docs/HOTSPOTS.md) without a GPU. The
# simulated harness has no PC sampling (it answers `hotspots` with `err protocol unknown
# command`), so these check the options and that a side without a profile is said in every
# format while the rest of the report stands; the diff itself is tested in
# tests/unit/test_hotspots.c and on a GPU by tests/gpu/hotspots.sh.
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
hs_json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
hs_expect() { # NAME FILE EXPR WANT
    local got; got=$(hs_json "$2" "$3" 2>&1)
    if [ "$got" = "$4" ]; then ok "$1: $3 = $4"; else fail "$1: $3 = '$got', wanted '$4'"; fi
}

run hs_period_low 2 -- --hotspots-period 4 "$A" "$B"
has hs_period_low err "--hotspots-period wants a whole number from 5 to 31 \(2\^N cycles\), got '4'"
run hs_period_frac 2 -- --hotspots-period 7.5 "$A" "$B"
has hs_period_frac err "--hotspots-period wants a whole number from 5 to 31"
run hs_help 0 -- --help
has hs_help out '^  --hotspots +where inside the kernel the time moved'
has hs_help out '^  --hotspots-period N +2\^N cycles between samples'

KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run hs_sim 0 -- --hotspots --json="$WORK/hs_sim.json" \
    --markdown="$WORK/hs_sim.md" --html="$WORK/hs_sim.html" "$A" "$B"
has hs_sim out '^v2 is 1\.2[0-9]x faster'
has hs_sim out '^v1: no hot spots: PC sampling failed \(it needs CUPTI with PC sampling.*\): .*unknown command hotspots'
hs_expect hs_sim "$WORK/hs_sim.json" 'd["hotspots"]["problem"]["step"]' sampling
hs_expect hs_sim "$WORK/hs_sim.json" 'd["hotspots"]["problem"]["side"]' v1
hs_expect hs_sim "$WORK/hs_sim.json" '"lines" in d["hotspots"]' False
hs_expect hs_sim "$WORK/hs_sim.json" 'd["runtime"]["verdict"]' faster
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/hs_sim.json" >"$WORK/hs_sim_valid.err" 2>&1; then
    ok "hs_sim: JSON with a hotspots problem is valid against the schema"; else fail "hs_sim: schema" "$WORK/hs_sim_valid.err"; fi
if grep -q '^- v1: no hot spots: PC sampling failed' "$WORK/hs_sim.md"; then ok "hs_sim: Markdown says it"
else fail "hs_sim: Markdown lacks the hot-spot line" "$WORK/hs_sim.md"; fi
if grep -q '<p class="muted">v1: no hot spots: PC sampling failed' "$WORK/hs_sim.html"; then ok "hs_sim: HTML says it"
else fail "hs_sim: HTML lacks the hot-spot line" "$WORK/hs_sim.html"; fi

# Not asked: nothing said, no JSON key.
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run hs_off 0 -- --json="$WORK/hs_off.json" "$A" "$B"
lacks hs_off out 'hot spots'
hs_expect hs_off "$WORK/hs_off.json" '"hotspots" in d' False
