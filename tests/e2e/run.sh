#!/usr/bin/env bash
# End-to-end tests of the kerndiff CLI with the real nvcc and (when found) cuobjdump.
# No GPU needed: KERNDIFF_NO_GPU=1 makes the runs static-only on any machine.
# usage: tests/e2e/run.sh path/to/kerndiff   (E2E_ONLY=triton,app: only those suites; add "core" for
# the checks written in this file)
set -u
KD=$(realpath "${1:-build/kerndiff}")
FAKE_NVML=$(realpath "${2:-build/tests/libfake_nvml.so}")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-e2e.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" KERNDIFF_NO_GPU=1 NO_COLOR=1 KERNDIFF_WIDTH=0
cd "$ROOT"

passed=0 failed=0
ok()   { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; [ -n "${2:-}" ] && sed 's/^/     | /' "$2" | head -40; }

# run NAME EXPECTED_STATUS -- ARGS...: runs kerndiff, keeps stdout/stderr in $WORK/NAME.{out,err}
run() {
    local name=$1 want=$2; shift 3
    "$KD" "$@" >"$WORK/$name.out" 2>"$WORK/$name.err" </dev/null
    local got=$?
    if [ "$got" -eq "$want" ]; then ok "$name: exit $want"; else
        fail "$name: exit $got, wanted $want" "$WORK/$name.err"; fi
}
# has NAME STREAM PATTERN: the output contains the (extended regex) pattern
has() {
    if grep -Eq -- "$3" "$WORK/$1.$2"; then ok "$1: $2 has /$3/"; else
        fail "$1: $2 lacks /$3/" "$WORK/$1.$2"; fi
}
# suite NAME: sources tests/e2e/NAME.sh; E2E_ONLY=a,b runs only those suites (and skips the
# core checks written in this file), for a quick loop while working on one part; E2E_SKIP=a,b
# runs all but those (make check: the ASan run beside the normal one leaves out slurm, whose
# one-node cluster the two would share, and runs it after).
suite() {
    if [ -n "${E2E_ONLY:-}" ] && [[ ",$E2E_ONLY," != *",$1,"* ]]; then return 0; fi
    if [ -n "${E2E_SKIP:-}" ] && [[ ",$E2E_SKIP," == *",$1,"* ]]; then echo "suite $1: left out (E2E_SKIP)"; return 0; fi
    # A suite that does not parse would stop where bash gives up, its later checks silently
    # unrun: one check of its own says so instead.
    if ! bash -n "tests/e2e/$1.sh" 2>"$WORK/suite_$1.syntax"; then
        fail "suite $1: tests/e2e/$1.sh does not parse, none of its checks ran" "$WORK/suite_$1.syntax"
        return 0
    fi
    local started=$SECONDS
    source "tests/e2e/$1.sh"
    echo "time suite $1: $((SECONDS - started)) s" # where the test command's minutes go (issue 41)
}
core() { [ -z "${E2E_ONLY:-}" ] || [[ ",$E2E_ONLY," == *",core,"* ]]; }
# The pair most checks use (suites set it too; here so that any E2E_ONLY selection has it).
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
lacks() {
    if grep -Eq -- "$3" "$WORK/$1.$2"; then fail "$1: $2 has /$3/" "$WORK/$1.$2"; else
        ok "$1: $2 lacks /$3/"; fi
}
# sim SPEC NAME ...: run under the simulated harness; json FILE EXPR; expect_json NAME FILE EXPR
# WANT. Here, not in a suite, so that every suite (E2E_ONLY=one) has them: a check through a
# missing function was "command not found", neither ok nor FAIL.
sim() { local spec=$1; shift; KERNDIFF_SIMULATE="$spec" run "$@"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
expect_json() { # NAME FILE EXPR WANT
    local got; got=$(json "$2" "$3" 2>&1)
    if [ "$got" = "$4" ]; then ok "$1: $3 = $4"; else fail "$1: $3 = '$got', wanted '$4'"; fi
}

# --- CLI basics -------------------------------------------------------------------------
if core; then
run help 0 -- --help
has help out 'usage: kerndiff'
has help out 'Exit status'
run version 0 -- --version
has version out '^kerndiff [0-9]+\.[0-9]+\.[0-9]+$'
# the build's own commit (the device machines' copies carry a stale .git): what results name
has version out '^source: commit ([0-9a-f]{7,40}\+?|unknown)$'
run no_args 2 --
has no_args err 'need two kernel files'
run bad_option 2 -- --frobnicate a.cu b.cu
has bad_option err "unknown option"
run bad_target 2 -- --target 0 a.cu b.cu
has bad_target err 'target'
run bad_arch 2 -- --arch nonsense examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has bad_arch err 'sm_XX'

fi

# --- the examples: expected content of each diff -------------------------------------------
suite examples

# --- the timing engine through the simulated harness ------------------------------------
suite timing

# --- --lock-clocks, against the fake NVML (never against a real GPU's) ------------------------
suite clocks

# --- git mode ----------------------------------------------------------------------------------
suite git

# --- the counter pass through a recorded-ncu stand-in ------------------------------------------
suite counters

# --- the region pass ----------------------------------------------------------------------
suite regions

# The hot-spot diff (--hotspots): options, and the report when a side has no profile.
suite hotspots

# --- the sanitizer pass ----------------------------------------------------------------------
suite sanitizer

# --- documentation, completions, typos, verbosity -------------------------------------------
suite docs
suite doc_commands

# --- launch descriptions: --call, the launch block, list, unlaunchable inputs ----------------
suite launch

# --- bad input, write failures, hostile text -------------------------------------------------
suite robustness

# --- Triton (.py), cross-language and .ptx/.cubin inputs ----------------------------------------
suite triton

suite torch_ext
if core; then

# --- JSON against the schema, Markdown ------------------------------------------------------
run json 0 -- --json="$WORK/d.json" examples/vector_loads/v1.cu examples/vector_loads/v2.cu
if python3 tests/e2e/validate_json.py docs/json-schema.json "$WORK/d.json" >"$WORK/json_valid.err" 2>&1; then
    ok "json: valid against docs/json-schema.json"; else fail "json: schema validation" "$WORK/json_valid.err"; fi
run json_stdout 0 -- --json examples/vector_loads/v1.cu examples/vector_loads/v2.cu
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["sides"][1]["kernel"]' "$WORK/json_stdout.out" 2>"$WORK/json_parse.err"; then
    ok "json_stdout: stdout is only JSON"; else fail "json_stdout: stdout is not JSON" "$WORK/json_parse.err"; fi
run markdown 0 -- --markdown "$WORK/d.md" examples/vector_loads/v1.cu examples/vector_loads/v2.cu
if grep -q '^| resources (ptxas) | v1 | v2 | Δ |' "$WORK/d.md"; then ok "markdown: resources table"; else fail "markdown: resources table" "$WORK/d.md"; fi
has markdown out 'PTX instructions'

# --- no GPU: static diff, one line on why runtime was skipped -------------------------------
run nogpu 0 -- examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has nogpu out '^runtime measurement skipped: KERNDIFF_NO_GPU is set; static diff only$'

# --- build cache ---------------------------------------------------------------------------
run cache_warm 0 -- examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has cache_warm out 'v1: .*\(cached build\)'
run cache_bypass 0 -- --no-cache examples/vector_loads/v1.cu examples/vector_loads/v2.cu
lacks cache_bypass out 'cached build'
cp examples/vector_loads/v2.cu "$WORK/v2copy.cu"
run cache_flags 0 -- -D UNUSED_FLAG=1 examples/vector_loads/v1.cu "$WORK/v2copy.cu"
lacks cache_flags out 'cached build'

# --- a damaged cache entry is rebuilt and replaced, with a note; --no-cache replaces it too -----
DAMAGE="$WORK/cache-damage"
XDG_CACHE_HOME="$DAMAGE" run cache_damage_fill 0 -- "$A" "$A"
entry=$(ls -d "$DAMAGE"/kerndiff/builds/*/ | head -1)
for artifact in kernel.ptx kernel.cubin ptxas.log kernel.sass manifest; do
    head -c 200 "$entry/$artifact" >"$WORK/truncated" && cat "$WORK/truncated" >"$entry/$artifact"
    XDG_CACHE_HOME="$DAMAGE" run "cache_damaged_$artifact" 0 -- "$A" "$A"
    has "cache_damaged_$artifact" out "^  note: v1: cache entry [0-9a-f]{12} was damaged \\(.*\\): rebuilt and replaced"
    lacks "cache_damaged_$artifact" out '^  v1: .*\(cached build\)'
    has "cache_damaged_$artifact" out '^SASS instructions'
    XDG_CACHE_HOME="$DAMAGE" run "cache_repaired_$artifact" 0 -- "$A" "$A"
    has "cache_repaired_$artifact" out '^  v1: .*\(cached build\)'
    lacks "cache_repaired_$artifact" out 'note: v1'
done
printf 'x' >>"$entry/kernel.ptx"
XDG_CACHE_HOME="$DAMAGE" run cache_no_cache_replaces 0 -- --no-cache "$A" "$A"
XDG_CACHE_HOME="$DAMAGE" run cache_after_no_cache 0 -- "$A" "$A"
has cache_after_no_cache out '^  v1: .*\(cached build\)'

# --- a source edited while nvcc runs: the build is not stored under the old key ---------------
cp "$A" "$WORK/edited.cu"
FAKE_NVCC_EDIT="$WORK/edited.cu" run cache_edit 0 -- --nvcc "$ROOT/tests/fakes/fake_nvcc" "$WORK/edited.cu" "$B"
has cache_edit out '^  note: v1: a source file changed during the build: not cached'
cp "$A" "$WORK/edited.cu" # as it was when the key was taken: that key must not be cached
FAKE_NVCC_EDIT="$WORK/elsewhere.txt" run cache_edit_again 0 -- --nvcc "$ROOT/tests/fakes/fake_nvcc" "$WORK/edited.cu" "$B"
lacks cache_edit_again out '^  v1: .*\(cached build\)'

# --- SIGTERM during a build ends nvcc's whole process group (and what it started) ------------
rm -f "$WORK/nvcc.pid"
FAKE_NVCC_PIDS="$WORK/nvcc.pid" "$KD" --no-cache --nvcc "$ROOT/tests/fakes/fake_nvcc" "$A" "$B" >"$WORK/sigterm.out" 2>"$WORK/sigterm.err" </dev/null &
kd_pid=$!
for _ in $(seq 100); do [ -s "$WORK/nvcc.pid" ] && break; sleep 0.1; done
kill -TERM "$kd_pid"
wait "$kd_pid"
status=$?
grandchild=$(cat "$WORK/nvcc.pid" 2>/dev/null)
for _ in $(seq 50); do [ -n "$grandchild" ] && ! kill -0 "$grandchild" 2>/dev/null && break; sleep 0.1; done
if [ -n "$grandchild" ] && ! kill -0 "$grandchild" 2>/dev/null && [ "$status" -eq 143 ]; then
    ok "sigterm: kerndiff ended by SIGTERM (143), nvcc's child $grandchild gone"
else
    fail "sigterm: status $status, nvcc's child '${grandchild}' still running" "$WORK/sigterm.err"
    [ -n "$grandchild" ] && kill "$grandchild" 2>/dev/null
fi

# --- a cold diff builds v2 beside v1 (a forked child fills the cache); both end on SIGTERM ------
cp examples/vector_loads/v1.cu "$WORK/ahead_a.cu"; cp examples/vector_loads/v2.cu "$WORK/ahead_b.cu"
XDG_CACHE_HOME="$WORK/ahead-cache" KERNDIFF_TRACE=1 run ahead_cold 0 -- "$WORK/ahead_a.cu" "$WORK/ahead_b.cu"
has ahead_cold err "v2: build started beside v1's"
lacks ahead_cold out 'cached build'
XDG_CACHE_HOME="$WORK/ahead-cache" run ahead_warm 0 -- "$WORK/ahead_a.cu" "$WORK/ahead_b.cu"
has ahead_warm out '^  v1: .*\(cached build\)'
has ahead_warm out '^  v2: .*\(cached build\)'
if diff "$WORK/ahead_cold.out" <(sed 's/  (cached build)$//' "$WORK/ahead_warm.out") >"$WORK/ahead.diff"; then
    ok "ahead_warm: the same report as the cold run's, but for the cache marks"
else fail "ahead_warm: the report differs from the cold run's" "$WORK/ahead.diff"; fi
KERNDIFF_TRACE=1 run ahead_no_cache 0 -- --no-cache "$WORK/ahead_a.cu" "$WORK/ahead_b.cu"
lacks ahead_no_cache err 'beside'
XDG_CACHE_HOME="$WORK/ahead-same" KERNDIFF_TRACE=1 run ahead_same_text 0 -- "$WORK/ahead_a.cu" examples/vector_loads/v1.cu
lacks ahead_same_text err 'beside'
printf '__global__ void saxpy(const float *x, float *y, int n) { y[0] = ; }\n' >"$WORK/ahead_broken.cu"
XDG_CACHE_HOME="$WORK/ahead-broken" run ahead_v1_broken 4 -- "$WORK/ahead_broken.cu" "$WORK/ahead_b.cu"
has ahead_v1_broken err '^kerndiff: v1: build of .*ahead_broken\.cu failed'
XDG_CACHE_HOME="$WORK/ahead-broken2" run ahead_v2_broken 4 -- "$WORK/ahead_a.cu" "$WORK/ahead_broken.cu"
has ahead_v2_broken err '^kerndiff: v2: build of .*ahead_broken\.cu failed'
rm -f "$WORK/nvcc2.pid"
XDG_CACHE_HOME="$WORK/ahead-term" FAKE_NVCC_PIDS="$WORK/nvcc2.pid" "$KD" --nvcc "$ROOT/tests/fakes/fake_nvcc" "$WORK/ahead_a.cu" "$WORK/ahead_b.cu" >"$WORK/sigterm2.out" 2>"$WORK/sigterm2.err" </dev/null &
kd_pid=$!
for _ in $(seq 100); do [ -f "$WORK/nvcc2.pid" ] && [ "$(wc -l <"$WORK/nvcc2.pid")" -ge 2 ] && break; sleep 0.1; done
kill -TERM "$kd_pid"
wait "$kd_pid"
status=$?
sleeps=$(cat "$WORK/nvcc2.pid" 2>/dev/null)
for _ in $(seq 50); do alive=0; for p in $sleeps; do kill -0 "$p" 2>/dev/null && alive=1; done; [ $alive = 0 ] && break; sleep 0.1; done
if [ "$(echo "$sleeps" | wc -w)" = 2 ] && [ "$alive" = 0 ] && [ "$status" -eq 143 ]; then
    ok "sigterm_ahead: kerndiff ended by SIGTERM (143); both builds' children gone (v1's and the one ahead)"
else
    fail "sigterm_ahead: status $status, children '$sleeps' (alive: $alive)" "$WORK/sigterm2.err"
    for p in $sleeps; do kill "$p" 2>/dev/null; done
fi

# --- includes resolve beside the kernel file ------------------------------------------------
mkdir -p "$WORK/inc"
printf '#define SCALE 2.0f\n' >"$WORK/inc/scale.h"
printf '#include "scale.h"\n__global__ void k(float *p, int n) { int i = threadIdx.x; if (i < n) p[i] *= SCALE; }\n' >"$WORK/inc/a.cu"
printf '#include "scale.h"\n__global__ void k(float *p, int n) { int i = threadIdx.x; if (i < n) p[i] = p[i] * SCALE + 1.0f; }\n' >"$WORK/inc/b.cu"
run include 0 -- "$WORK/inc/a.cu" "$WORK/inc/b.cu"
printf '#define SCALE 3.0f\n' >"$WORK/inc/scale.h"
run include_changed 0 -- "$WORK/inc/a.cu" "$WORK/inc/b.cu"
lacks include_changed out 'cached build'

# --- errors and their exit codes -------------------------------------------------------------
run missing_file 3 -- examples/vector_loads/v1.cu "$WORK/nope.cu"
has missing_file err '^kerndiff: v2: cannot read .*nope\.cu'
printf '__global__ void k(float *p, int n) { p[0] = undeclared_thing; }\n' >"$WORK/broken.cu"
run compile_error 4 -- "$WORK/inc/a.cu" "$WORK/broken.cu"
has compile_error err '^kerndiff: v2: build of .*broken\.cu failed'
has compile_error err 'undeclared_thing'
run unknown_fn 3 -- --fn no_such_kernel examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has unknown_fn err "v1: no kernel named 'no_such_kernel'"
cat >"$WORK/two_a.cu" <<'CU'
__global__ void alpha(float *p) { p[0] = 1.0f; }
__global__ void beta(float *p) { p[1] = 2.0f; }
CU
cp "$WORK/two_a.cu" "$WORK/two_b.cu"
# Several shared kernels, no --fn: each one's static diff, and timing asks for one (exit 3 with
# or without a GPU; --no-run for the static diff alone).
run ambiguous 3 -- "$WORK/two_a.cu" "$WORK/two_b.cu"
has ambiguous out '^timing needs one kernel: --fn NAME \(alpha, beta\)$'
has ambiguous out '^== alpha =='
has ambiguous out '^== beta =='
run ambiguous_fn 0 -- --fn beta "$WORK/two_a.cu" "$WORK/two_b.cu"
has ambiguous_fn out 'kerndiff beta'
run rename_fn 0 -- --fn alpha:beta "$WORK/two_a.cu" "$WORK/two_b.cu"
has rename_fn out 'v2: .*beta'
printf '__global__ void gamma_k(float *p) { p[0] = 3.0f; }\n' >"$WORK/other.cu"
run no_common 3 -- "$WORK/two_a.cu" "$WORK/other.cu"
has no_common err 'no kernel is common'
run no_nvcc 7 -- --nvcc /nonexistent/nvcc examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has no_nvcc err 'nvcc'

# --- templates: an explicit instantiation or --fn picks the instance ------------------------
cat >"$WORK/tmpl.cu" <<'CU'
template <typename T> __global__ void scale(T *p, int n) { int i = threadIdx.x; if (i < n) p[i] *= T(2); }
template __global__ void scale<float>(float *, int);
template __global__ void scale<double>(double *, int);
CU
# two instances and no --fn: each static diff, and timing asks for one (exit 3 with or without a GPU)
run template_ambiguous 3 -- "$WORK/tmpl.cu" "$WORK/tmpl.cu"
has template_ambiguous out '^== scale<double> ==  \['
has template_ambiguous out '^== scale<float> ==  \['
run template_pick 0 -- --fn 'scale<double>' "$WORK/tmpl.cu" "$WORK/tmpl.cu"
has template_pick out 'scale<double>'

# --- a file name with spaces and shell metacharacters ----------------------------------------
weird="$WORK/dir with space \$(touch PWNED)/k; echo \`id\` & 'x'.cu"
mkdir -p "$(dirname "$weird")"
cp examples/vector_loads/v1.cu "$weird"
(cd "$WORK" && "$KD" "$weird" "$ROOT/examples/vector_loads/v2.cu" >"$WORK/weird.out" 2>"$WORK/weird.err")
if [ $? -eq 0 ]; then ok "weird_name: exit 0"; else fail "weird_name: exit non-zero" "$WORK/weird.err"; fi
if [ ! -e "$WORK/PWNED" ] && [ ! -e "$ROOT/PWNED" ]; then ok "weird_name: nothing ran"; else fail "weird_name: a shell ran the name"; fi

# --- SASS tools absent: one line says so --------------------------------------------------------
KERNDIFF_CUOBJDUMP=/nonexistent/cuobjdump run no_sass 0 -- examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has no_sass out '^SASS skipped: cuobjdump not found'

# --- list ------------------------------------------------------------------------------------
run list 0 -- list "$WORK/tmpl.cu"
has list out '^scale<\.\.\.>  \(line 1\)'
has list out 'instances: scale<float> scale<double>'
has list out 'T \*.*p .*in-out buffer of T \(read and written in the compiled code\)'
run list_missing 3 -- list "$WORK/nope.cu"

fi

# --- the HTML report and CSV, checked in headless Chromium ---------------------------------
suite html

# --- kerndiff app: whole programs through fake programs and made-up nsys exports ----------------
suite app

# --- hostile and careless inputs: one file per class under tests/e2e/hostile/ ----------------
suite hostile

# --- real kernel files as published (tests/realfiles/): zero-flag list and static diff ---------
suite realfiles

# --- Triton sides as Triton's JIT runs them (the user's own launch) ----------------------------
suite triton_jit

# --- a launch captured from the user's program, replayed for both versions ---------------------
suite capture
# the injection library's capture mode (direct launches and CUDA graph nodes), faked driver
suite capture_inject

# --- kerndiff rank on a real one-node Slurm (a "skip" line without slurm-wlm or root) ----------
suite slurm
# kerndiff rank (issue 32): racing candidates against a baseline, simulated
suite rank

# --- sweeps: the next point's harnesses started ahead, builds once (measure/harness_pool.h) ---
suite sweep_harness

echo
echo "e2e: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
