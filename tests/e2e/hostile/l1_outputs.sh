# Issue 29, item 1 (formats as one table, the fan-out written once): every output asked for is
# attempted even when one cannot be written; each failure names the output and its path; the
# status is 7 (KD_EXIT_TOOL) -- for a diff, `kerndiff app` and a sweep. Sourced by
# tests/e2e/hostile.sh. /dev/null/... can never be created (not a folder), even as root.
L1=$WORK/l1_outputs
mkdir -p "$L1"
L1_V1=examples/vector_loads/v1.cu
L1_V2=examples/vector_loads/v2.cu
# l1_written NAME FILE REGEX: FILE was written and holds REGEX.
l1_written() {
    if [ -s "$2" ] && grep -Eq -- "$3" "$2"; then ok "$1: $2 written (/$3/)"; else
        fail "$1: $2 missing or without /$3/" "$2"; fi
}

# A diff: the first output cannot be written, the two after it still are.
# (timed by the simulated harness: a CSV of a run that timed nothing is said, not written, k3_said.sh)
KERNDIFF_SIMULATE="median=50us;median=40us" run l1_diff 7 -- --n 64K --json=/dev/null/l1.json --markdown="$L1/diff.md" --csv "$L1/diff.csv" "$L1_V1" "$L1_V2"
has l1_diff err "^kerndiff: cannot write the JSON to '/dev/null/l1\.json': Not a directory \(check that the folder exists, is writable and has space\)$"
l1_written l1_diff "$L1/diff.md" '^#'
l1_written l1_diff "$L1/diff.csv" '^side,index,round,ns,throttled'
has l1_diff out 'vector_loads|v1|v2' # the terminal report came first, whole
# Two failures: both said, each with its path; the one good output still written.
run l1_diff_two 7 -- --json=/dev/null/a.json --markdown=/dev/null/b.md --html "$L1/diff.html" "$L1_V1" "$L1_V2"
has l1_diff_two err "cannot write the JSON to '/dev/null/a\.json'"
has l1_diff_two err "cannot write the Markdown to '/dev/null/b\.md'"
l1_written l1_diff_two "$L1/diff.html" '<html'
# A failed first output with the second on stdout: stdout still gets its document.
run l1_diff_stdout 7 -- --save=/dev/null/s.json --markdown - "$L1_V1" "$L1_V2"
has l1_diff_stdout err "cannot write the JSON to '/dev/null/s\.json'"
has l1_diff_stdout out '^#'
# A failed output outranks a gate that could not be judged (the report was lost: 7, not 5),
# and the gate's sentence is not said over it.
run l1_diff_gate 7 -- --fail-if-slower 5 --json=/dev/null/g.json --markdown="$L1/gate.md" "$L1_V1" "$L1_V2"
lacks l1_diff_gate err 'NOT EVALUATED'
l1_written l1_diff_gate "$L1/gate.md" '^#'
# --trace without --regions writes nothing and is no failure (nothing to trace).
run l1_diff_trace 0 -- --trace "$L1/none.trace.json" --markdown="$L1/trace.md" "$L1_V1" "$L1_V2"
[ ! -e "$L1/none.trace.json" ] && ok "l1_diff_trace: no trace written without regions" || fail "l1_diff_trace: a trace was written"

# kerndiff app (tests/fakes/fake_app, as tests/e2e/app.sh): the same.
L1_FA=$ROOT/tests/fakes/fake_app
run l1_app 7 -- app --runs 1 --json /dev/null/app.json --markdown "$L1/app.md" --html "$L1/app.html" "$L1_FA three" "$L1_FA fused"
has l1_app err "^kerndiff: cannot write the JSON to '/dev/null/app\.json': Not a directory"
l1_written l1_app "$L1/app.md" 'kernel'
l1_written l1_app "$L1/app.html" '<html'
# app's gate: its status from cli/status.c, its sentence from report/gate_text.c; an output
# lost comes first (7) and the gate is then not said.
run l1_app_gate 8 -- app --fail-if-slower 5 --markdown "$L1/app_gate.md" "$L1_FA three" "$L1_FA slow"
has l1_app_gate err "^kerndiff: v2's GPU kernel time is more than 5% above v1's \(--fail-if-slower\)$"
l1_written l1_app_gate "$L1/app_gate.md" 'gate'
run l1_app_gate_lost 7 -- app --fail-if-slower 5 --html /dev/null/g.html --markdown "$L1/app_lost.md" "$L1_FA three" "$L1_FA slow"
has l1_app_gate_lost err "cannot write the HTML to '/dev/null/g\.html'"
lacks l1_app_gate_lost err 'more than 5% above'
l1_written l1_app_gate_lost "$L1/app_lost.md" 'kernel'

# A sweep (simulated timing): the sweep's documents, the first unwritable.
KERNDIFF_SIMULATE="median=50us,seed=1;median=40us,seed=2" run l1_sweep 7 -- --n 1K,2K --json=/dev/null/sweep.json \
    --markdown="$L1/sweep.md" --csv "$L1/sweep.csv" examples/crossover/v1.cu examples/crossover/v2.cu
has l1_sweep err "^kerndiff: cannot write the sweep JSON to '/dev/null/sweep\.json': Not a directory"
has l1_sweep out '^sweep over n$'
l1_written l1_sweep "$L1/sweep.md" '^### kerndiff sweep over `n`$'
l1_written l1_sweep "$L1/sweep.csv" '^n,2K,0,'
# A bad sweep request is said in the sweep's words (report/words_workflow.c), nothing run.
run l1_sweep_bad 2 -- --n 1K..8K:y2 examples/crossover/v1.cu examples/crossover/v2.cu
has l1_sweep_bad err "^kerndiff: --n range '1K\.\.8K:y2' wants FROM\.\.TO:xFACTOR or FROM\.\.TO:\+STEP \(e\.g\. 1M\.\.64M:x4\)$"
lacks l1_sweep_bad out '^== n'
