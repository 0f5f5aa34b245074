# Issue 28, item 5: the whole request is checked before any of it runs (every sweep point,
# every contradiction between options, values that no launch could take).
# Sourced by tests/e2e/hostile.sh.
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
run h1_runs_crossed 2 -- --min-runs 100 --max-runs 10 "$A" "$B"
has h1_runs_crossed err "^kerndiff: --min-runs 100 is more than --max-runs 10"
# --max-runs alone below the default minimum: the minimum follows, and the run takes 10.
KERNDIFF_SIMULATE="median=60us;median=50us" run h1_max_runs_only 0 -- --n 64K --max-runs 10 --target 0.01 --json="$WORK/h1_max.json" "$A" "$B"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); n=[len(s["samples_ns"]) for s in d["runtime"]["sides"]]; assert n==[10,10], n' "$WORK/h1_max.json" 2>"$WORK/h1_max.err"; then
    ok "h1_max_runs_only: 10 samples per side"; else fail "h1_max_runs_only: samples" "$WORK/h1_max.err"; fi

# A sweep whose third point is not a count: refused before the first point runs.
KERNDIFF_SIMULATE="median=60us;median=50us" run h1_sweep_bad_point 2 -- --n 1M,4M,-1 "$A" "$B"
has h1_sweep_bad_point err "^kerndiff: --n: point 3 of 3, '-1', is not an element count .*nothing was run$"
lacks h1_sweep_bad_point out '== n ='
run h1_n_static 2 -- --no-run --n 16Q "$A" "$B"
has h1_n_static err "^kerndiff: --n wants an element count \(16M, 1<<24, 4096\), got '16Q'"
run h1_block0 2 -- --block 0 "$A" "$B"
has h1_block0 err "^kerndiff: --block '0': x is 0, but it must be a whole number from 1 to 1024"
run h1_block_threads 2 -- --no-run --block 32,32,2 "$A" "$B"
has h1_block_threads err "^kerndiff: --block '32,32,2' is 2048 threads per block, but CUDA allows at most 1024"

# Contradictions: refused with both options named, instead of one silently ignored.
run h1_no_check_match 2 -- --no-check --require-match "$A" "$B"
has h1_no_check_match err "^kerndiff: --no-check and --require-match contradict each other \(--no-check compares no outputs\): drop one$"
run h1_no_run_gate 2 -- --no-run --fail-if-slower 2 "$A" "$B"
has h1_no_run_gate err "^kerndiff: --no-run and --fail-if-slower contradict each other"
run h1_sanitize_warn_alone 2 -- --sanitize-warn "$A" "$B"
has h1_sanitize_warn_alone err "^kerndiff: --sanitize-warn is a setting of --sanitize, which is not given"
run h1_watch_json 2 -- --watch --json="$WORK/h1_w.json" "$A" "$B"
has h1_watch_json err "^kerndiff: --watch and --json contradict each other"
run h1_runs_in_diff 2 -- --runs 5 "$A" "$B"
has h1_runs_in_diff err "^kerndiff: --runs belongs to kerndiff app CMD1 CMD2 \(samples of a kernel diff: --min-runs, --max-runs\)$"
# A typo gets the nearest option by its beginning: --nn is --n, not --fn.
run h1_typo_nn 2 -- --nn 16M "$A" "$B"
has h1_typo_nn err "^kerndiff: unknown option '--nn': did you mean --n\?$"
