# One verdict (issue 29 item 4): a saved run re-compared (`kerndiff compare run.json run.json`,
# or a copy of it) is that run's v1 against its v2, decided by the same function with the
# same interval (the rounds bootstrap), so it gives the verdict and interval it was saved
# with; a file saved without its rounds says so. Simulated harness (KERNDIFF_SIMULATE).
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu

# l4_same NAME SAVED COMPARED: the compared JSON has the saved run's verdict, ratio and interval.
l4_same() {
    if python3 - "$2" "$3" >"$WORK/$1.same" 2>&1 <<'PY'
import json, sys
saved, again = (json.load(open(p))["runtime"] for p in sys.argv[1:3])
for key in ("ratio", "ci_low", "ci_high", "confidence"):
    assert saved["speedup"][key] == again["speedup"][key], (key, saved["speedup"][key], again["speedup"][key])
assert saved["verdict"] == again["verdict"], (saved["verdict"], again["verdict"])
PY
    then ok "$1: the saved verdict and interval"; else fail "$1: not the saved verdict and interval" "$WORK/$1.same"; fi
}
# l4_verdict NAME FILE VERDICT
l4_verdict() {
    local got; got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["runtime"]["verdict"])' "$2" 2>&1)
    if [ "$got" = "$3" ]; then ok "$1: verdict $3"; else fail "$1: verdict '$got', wanted '$3'"; fi
}

# A faster, a slower and a no-difference run, each compared with itself and with a copy.
for l4_case in "faster;median=60us,cv=1%,seed=1;median=50us,cv=1%,seed=2" \
               "slower;median=50us,cv=1%,seed=3;median=55us,cv=1%,seed=4" \
               "same;median=50us,cv=1%,seed=5;median=50us,cv=1%,seed=6"; do
    l4_name=${l4_case%%;*}
    KERNDIFF_SIMULATE="${l4_case#*;}" run "l4_save_$l4_name" 0 -- --n 64K --save "$WORK/l4_$l4_name.json" "$A" "$B"
    run "l4_self_$l4_name" 0 -- compare --json="$WORK/l4_self_$l4_name.json" "$WORK/l4_$l4_name.json" "$WORK/l4_$l4_name.json"
    l4_same "l4_self_$l4_name" "$WORK/l4_$l4_name.json" "$WORK/l4_self_$l4_name.json"
    lacks "l4_self_$l4_name" err 'interval recomputed|without its samples'
    cp "$WORK/l4_$l4_name.json" "$WORK/l4_copy_$l4_name.json"
    run "l4_copy_$l4_name" 0 -- compare --side v1 --json="$WORK/l4_copy_$l4_name.out.json" "$WORK/l4_$l4_name.json" "$WORK/l4_copy_$l4_name.json"
    l4_same "l4_copy_$l4_name" "$WORK/l4_$l4_name.json" "$WORK/l4_copy_$l4_name.out.json"
done
l4_verdict l4_save_faster "$WORK/l4_faster.json" faster
l4_verdict l4_save_slower "$WORK/l4_slower.json" slower
l4_verdict l4_save_same "$WORK/l4_same.json" "no significant difference"
# The run is its own v1 against its v2, named as such, and the terminal says the saved verdict.
has l4_self_faster out '^  v1: .*l4_faster\.json \(v1 examples/vector_loads/v1\.cu of that run\)'
has l4_self_faster out '^  v2: .*l4_faster\.json \(v2 examples/vector_loads/v2\.cu of that run\)'
has l4_self_faster out '^v2 is 1\.[12][0-9]+x faster'
has l4_self_slower out '^v2 is 1\.[01][0-9]+x slower'
lacks l4_self_faster out 'WARNING: the runs'
# The gate is judged on the saved verdict too.
run l4_self_gate 8 -- compare --fail-if-slower 0.1 "$WORK/l4_slower.json" "$WORK/l4_slower.json"
has l4_self_gate err 'gate --fail-if-slower 0\.1%: FAILED'

# The noise floor the run was decided with (--min-effect) is the run's, not the compare's.
KERNDIFF_SIMULATE="median=60us,cv=1%,seed=7;median=50us,cv=1%,seed=8" run l4_save_floor 0 -- --n 64K --min-effect 40 --save "$WORK/l4_floor.json" "$A" "$B"
l4_verdict l4_save_floor "$WORK/l4_floor.json" "no significant difference"
run l4_self_floor 0 -- compare --json="$WORK/l4_self_floor.json" "$WORK/l4_floor.json" "$WORK/l4_floor.json"
l4_same l4_self_floor "$WORK/l4_floor.json" "$WORK/l4_self_floor.json"
has l4_self_floor out "re-compared from the saved run's raw samples \(its v1 against its v2\)"

# The bootstrap's seed: a file that records it (runtime.speedup.seed) is re-compared with it;
# one that does not, with --seed's (1): a run made with another is said, and the same
# --seed gives its interval back.
KERNDIFF_SIMULATE="median=60us,cv=1%,seed=9;median=50us,cv=1%,seed=10" run l4_save_seed 0 -- --n 64K --seed 7 --save "$WORK/l4_seed.json" "$A" "$B"
run l4_self_seed_default 0 -- compare --json="$WORK/l4_self_seed_default.json" "$WORK/l4_seed.json" "$WORK/l4_seed.json"
if python3 -c 'import json,sys; sys.exit("seed" not in json.load(open(sys.argv[1]))["runtime"]["speedup"])' "$WORK/l4_seed.json"; then
    l4_same l4_self_seed_default "$WORK/l4_seed.json" "$WORK/l4_self_seed_default.json"
    lacks l4_self_seed_default err 'interval recomputed'
else
    has l4_self_seed_default err 'the interval recomputed with --seed 1 \([0-9.]+ to [0-9.]+\) is not the one the run was saved with .*give the --seed it ran with'
fi
run l4_self_seed 0 -- compare --seed 7 --json="$WORK/l4_self_seed.json" "$WORK/l4_seed.json" "$WORK/l4_seed.json"
l4_same l4_self_seed "$WORK/l4_seed.json" "$WORK/l4_self_seed.json"
lacks l4_self_seed err 'interval recomputed'

# Saved without its rounds (sample_rounds null, as an older kerndiff wrote): re-compared, the
# saved verdict and interval are kept and the reason said, not a different interval.
python3 - "$WORK/l4_faster.json" "$WORK/l4_norounds.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for side in d["runtime"]["sides"]:
    side["sample_rounds"] = None
json.dump(d, open(sys.argv[2], "w"))
PY
run l4_self_norounds 0 -- compare --json="$WORK/l4_self_norounds.json" "$WORK/l4_norounds.json" "$WORK/l4_norounds.json"
l4_same l4_self_norounds "$WORK/l4_norounds.json" "$WORK/l4_self_norounds.json"
has l4_self_norounds err "l4_norounds\.json was saved without its samples' rounds .*its saved verdict and interval are shown, not recomputed"
# Two runs, one without rounds: said, and still compared (each of its samples a round).
run l4_pair_norounds 0 -- compare --json="$WORK/l4_pair_norounds.json" "$WORK/l4_faster.json" "$WORK/l4_norounds.json"
has l4_pair_norounds err "NEW: .*l4_norounds\.json was saved without its samples' rounds .*each of its samples as a round of its own"
lacks l4_pair_norounds err 'OLD: .*without its samples'
# Two different runs are still their chosen side each (v2 by default), with one verdict in
# the terminal and the JSON.
run l4_pair 0 -- compare --json="$WORK/l4_pair.json" "$WORK/l4_faster.json" "$WORK/l4_slower.json"
has l4_pair out '^  v1: .*l4_faster\.json \(v2 examples/vector_loads/v2\.cu of that run\)'
has l4_pair out '^v2 is 1\.[01][0-9]+x slower'
l4_verdict l4_pair "$WORK/l4_pair.json" slower
