# A newcomer's first hour (issue 41, items 1, 3 and 4): the install script on a Python that
# refuses pip (PEP 668) and when a step fails, kerndiff finding the project's .venv, the demo
# built in parallel, help per command, one exit-code table, the same status for a usage
# mistake with and without a GPU, and a reader that closes the pipe early.

# --- scripts/install-deps.sh, with fake apt-get, sudo and python3 (nothing installed) -------
# A copy of the script in a scratch repository: the .venv it makes lands there.
f1_repo="$WORK/f1_repo" f1_bin="$WORK/f1_fakebin"
mkdir -p "$f1_repo/scripts" "$f1_bin"
cp scripts/install-deps.sh "$f1_repo/scripts/"
printf '#!/bin/sh\nexit 0\n' >"$f1_bin/apt-get"
printf '#!/bin/sh\nexec "$@"\n' >"$f1_bin/sudo"
# python3: `python3 -` (the PEP 668 probe) exits F1_MANAGED; `-m venv DIR` makes DIR/bin/python3
# (this script again); `-m pip install` fails as Debian's pip does, except in such a venv.
cat >"$f1_bin/python3" <<'EOF'
#!/bin/sh
echo "$0 $*" >>"$F1_LOG"
case "$1 $2" in
"- "*) cat >/dev/null; exit "${F1_MANAGED:-1}" ;;
"-m venv") mkdir -p "$3/bin" && cp "$0" "$3/bin/python3"; exit 0 ;;
"-m pip")
    case "$0" in */.venv/bin/python3) exit 0 ;; esac
    echo "error: externally-managed-environment" >&2
    exit 1 ;;
esac
exit 0
EOF
chmod +x "$f1_bin/apt-get" "$f1_bin/sudo" "$f1_bin/python3"
# pip refused and the Python not marked (the probe says no): the script fails, loudly
F1_LOG="$WORK/f1_loud.log" F1_MANAGED=1 PATH="$f1_bin:$PATH" VIRTUAL_ENV= \
    bash "$f1_repo/scripts/install-deps.sh" >"$WORK/f1_deps_loud.out" 2>"$WORK/f1_deps_loud.err"
f1_rc=$?
if [ "$f1_rc" -ne 0 ]; then ok "f1_deps_loud: a failed pip install fails the script (exit $f1_rc)"; else
    fail "f1_deps_loud: pip failed and the script exited 0" "$WORK/f1_deps_loud.err"; fi
has f1_deps_loud err '^install-deps: pip install into python3 failed \(exit 1\)'
# an externally managed Python (PEP 668): the packages go into the project's .venv
F1_LOG="$WORK/f1_venv.log" F1_MANAGED=0 PATH="$f1_bin:$PATH" VIRTUAL_ENV= \
    bash "$f1_repo/scripts/install-deps.sh" >"$WORK/f1_deps_venv.out" 2>"$WORK/f1_deps_venv.err"
f1_rc=$?
if [ "$f1_rc" -eq 0 ] && [ -x "$f1_repo/.venv/bin/python3" ]; then ok "f1_deps_venv: exit 0, .venv made"; else
    fail "f1_deps_venv: exit $f1_rc, .venv/bin/python3 $( [ -x "$f1_repo/.venv/bin/python3" ] || echo not) made" "$WORK/f1_deps_venv.err"; fi
cp "$WORK/f1_venv.log" "$WORK/f1_venv_log.out" 2>/dev/null || : >"$WORK/f1_venv_log.out"
has f1_venv_log out '/\.venv/bin/python3 -m pip install .*triton==3\.6\.0'
lacks f1_venv_log out '^[^ ]*/f1_fakebin/python3 -m pip install'
has f1_deps_venv out 'installing the Python packages into .*/\.venv'
# .gitignore keeps that .venv out of git
if git check-ignore -q .venv; then ok "f1_venv_ignored: .venv is ignored by git"; else fail "f1_venv_ignored: .venv is not ignored"; fi

# --- kerndiff finds the project's Python: $KERNDIFF_PYTHON, then BUILD/../.venv/bin/python3 -----
f1_proj="$WORK/f1_proj"
mkdir -p "$f1_proj/build" "$f1_proj/.venv/bin"
cp "$KD" "$(dirname "$KD")/kerndiff-triton.py" "$f1_proj/build/"
printf '#!/bin/sh\necho "$0" >>"%s"\nexit 9\n' "$WORK/f1_python_used.out" >"$f1_proj/.venv/bin/python3"
chmod +x "$f1_proj/.venv/bin/python3"
: >"$WORK/f1_python_used.out"
env -u KERNDIFF_PYTHON "$f1_proj/build/kerndiff" --no-run --no-cache examples/triton/softmax/v1.py \
    examples/triton/softmax/v2.py >"$WORK/f1_venv_python.out" 2>"$WORK/f1_venv_python.err" </dev/null
has f1_python_used out "^$f1_proj/build/\.\./\.venv/bin/python3$"
printf '#!/bin/sh\necho KERNDIFF_PYTHON >>"%s"\nexit 9\n' "$WORK/f1_env_python.out" >"$WORK/f1_env_python3"
chmod +x "$WORK/f1_env_python3"
: >"$WORK/f1_env_python.out"
KERNDIFF_PYTHON="$WORK/f1_env_python3" run f1_env_python_run 7 -- --no-run --no-cache examples/triton/softmax/v1.py \
    examples/triton/softmax/v2.py
has f1_env_python out '^KERNDIFF_PYTHON$'

# --- make demo: built in parallel; the README says how to run what it built -----------------
# as a newcomer's shell has it: none of the variables `make sanitize` exports to its tests
# (BUILD, CC, CFLAGS, LDFLAGS; a suite's own BUILD= then rides on the exported one)
(unset MAKEFLAGS MFLAGS MAKELEVEL BUILD CC CFLAGS CPPFLAGS LDFLAGS; make -n demo) >"$WORK/f1_demo_plan.out" 2>&1
has f1_demo_plan out '^make.* -j[0-9]+ .*build/kerndiff'
has f1_demo_plan out 'run it as build/kerndiff'
cp README.md "$WORK/f1_readme.out"
has f1_readme out '^build/kerndiff examples/vector_loads/v1\.cu examples/vector_loads/v2\.cu'
has f1_readme out 'make install'
has f1_readme out 'externally managed'

# --- help per command ----------------------------------------------------------------------
run f1_help_rank 0 -- help rank
has f1_help_rank out '^usage: kerndiff rank \[options\] BASE CAND\.\.\.$'
has f1_help_rank out '^  --heats H '
lacks f1_help_rank out '^  --regions '
has f1_help_rank out '^Examples:$'
run f1_rank_help 0 -- rank --help
has f1_rank_help out '^usage: kerndiff rank '
lacks f1_rank_help out '^  --runs N '
run f1_app_help 0 -- app --help
has f1_app_help out '^usage: kerndiff app '
has f1_app_help out '^  --runs N '
lacks f1_app_help out '^  --heats '
run f1_capture_help 0 -- capture --help
has f1_capture_help out '^usage: kerndiff capture --fn NAME'
has f1_capture_help out '^  -o FILE '
lacks f1_capture_help out '^  --regions '
run f1_list_help 0 -- list --help
lacks f1_list_help out '^  --json'
run f1_compare_help 0 -- help compare
has f1_compare_help out '^  --side v1\|v2 '
lacks f1_compare_help out '^  --watch '
run f1_help_all 0 -- help
has f1_help_all out '^Commands \(kerndiff help CMD'
has f1_help_all out '^  rank +many candidates'
run f1_help_unknown 2 -- help nosuch
has f1_help_unknown err "no command 'nosuch' to help with: the commands are diff, list"
# every line of every help fits 80 columns
for f1_cmd in "" diff list compare app capture rank help; do
    f1_name=f1_width_${f1_cmd:-all}
    if [ -n "$f1_cmd" ]; then run "$f1_name" 0 -- help "$f1_cmd"; else run "$f1_name" 0 -- --help; fi
    f1_wide=$(awk 'length > 80' "$WORK/$f1_name.out" | wc -l)
    if [ "$f1_wide" -eq 0 ]; then ok "$f1_name: every line within 80 columns"; else
        awk 'length > 80' "$WORK/$f1_name.out" >"$WORK/$f1_name.wide"
        fail "$f1_name: $f1_wide lines over 80 columns" "$WORK/$f1_name.wide"; fi
done
# the man page: a section per command, rank and capture in the synopsis
cp docs/kerndiff.1 "$WORK/f1_man.out"
for f1_cmd in diff list compare app capture rank; do has f1_man out "^\.SS kerndiff $f1_cmd$"; done
has f1_man out '^kerndiff rank \[options\] BASE CAND\.\.\.$'
has f1_man out '^kerndiff capture \\-\\-fn NAME'
# bash completes the word after help with the commands
"$KD" --completion bash >"$WORK/f1_completion.bash"
if bash -c "source '$WORK/f1_completion.bash'; COMP_WORDS=(kerndiff help ra); COMP_CWORD=2; _kerndiff; [ \"\${COMPREPLY[*]}\" = rank ]" 2>/dev/null; then
    ok "f1_completion: kerndiff help ra completes to rank"; else fail "f1_completion: kerndiff help ra"; fi

# --- one exit-code table: --help, the man page, README.md and docs/OPTIONS.md agree ---------
if python3 scripts/gen-exit-codes.py --check >"$WORK/f1_exit_docs.err" 2>&1; then
    ok "f1_exit_docs: README.md and docs/OPTIONS.md hold cli/exit_codes.h's table"; else
    fail "f1_exit_docs: README.md or docs/OPTIONS.md is not cli/exit_codes.h's table" "$WORK/f1_exit_docs.err"; fi
"$KD" --help >"$WORK/f1_exit_help.txt"
if python3 - "$WORK/f1_exit_help.txt" README.md docs/OPTIONS.md docs/kerndiff.1 >"$WORK/f1_exit_agree.err" 2>&1 <<'EOF'
import re, sys
help_text, readme, options, man = (open(p).read() for p in sys.argv[1:])
block = help_text[help_text.index("Exit status:\n"):].split("\n\n")[0]
in_help = dict(re.findall(r"^  (\d+)\s+(.+)$", block, re.M))
def table(doc):
    part = doc[doc.index("## Exit status"):]
    return {c: m for c, m in re.findall(r"^\| (\d+) \| (.+?) \|$", part, re.M)}
readme_rows, option_rows = table(readme), table(options)
assert in_help and "10" in in_help, in_help
assert readme_rows == in_help, ("README", readme_rows, in_help)
assert set(option_rows) == set(in_help) and all(option_rows[c].startswith(in_help[c]) for c in in_help), "OPTIONS.md"
man_part = man[man.index(".SH EXIT STATUS"):man.index(".SH NOTES")]
for code, text in in_help.items():
    assert f".B {code}\n{text.replace('-', chr(92) + '-')}" in man_part, ("man", code)
EOF
then ok "f1_exit_agree: --help, README.md, docs/OPTIONS.md and the man page list the same statuses"; else
    fail "f1_exit_agree: the exit statuses disagree" "$WORK/f1_exit_agree.err"; fi

# --- a gate that could not be evaluated has its own status (10), not a crash's (5) ---------
run f1_gate_not_evaluated 10 -- --require-match "$A" "$B"
has f1_gate_not_evaluated err 'gate --require-match: NOT EVALUATED'
run f1_sanitize_not_evaluated 10 -- --sanitize "$A" "$B"

# --- usage mistakes: the same status with and without a GPU (the simulated harness) ---------
f1_sim="median=50us;median=40us"
run f1_arg_nogpu 3 -- --arg alpha=2 "$A" "$B"
has f1_arg_nogpu err "kernel 'saxpy' has no parameter 'alpha'"
KERNDIFF_SIMULATE="$f1_sim" run f1_arg_gpu 3 -- --arg alpha=2 "$A" "$B"
sed 's|// kerndiff: block=256|// kerndiff: blok=256|' "$A" >"$WORK/f1_blok.cu"
run f1_key_nogpu 3 -- "$WORK/f1_blok.cu" "$B"
has f1_key_nogpu err "'blok' is not an annotation key kerndiff knows \(did you mean 'block'\?\)"
KERNDIFF_SIMULATE="$f1_sim" run f1_key_gpu 3 -- "$WORK/f1_blok.cu" "$B"
run f1_key_no_run 0 -- --no-run "$WORK/f1_blok.cu" "$B"
printf '__global__ void k1(float *out, int n) { int i = threadIdx.x; if (i < n) out[i] = 1; }\n__global__ void k2(float *out, int n) { int i = threadIdx.x; if (i < n) out[i] = 2; }\n' >"$WORK/f1_two_a.cu"
cp "$WORK/f1_two_a.cu" "$WORK/f1_two_b.cu"
run f1_two_nogpu 3 -- "$WORK/f1_two_a.cu" "$WORK/f1_two_b.cu"
has f1_two_nogpu err 'timing needs one kernel: --fn NAME \(k1, k2\)'
KERNDIFF_SIMULATE="$f1_sim" run f1_two_gpu 3 -- "$WORK/f1_two_a.cu" "$WORK/f1_two_b.cu"
# a scalar without a value is no mistake where nothing runs: the static diff stands
printf '__global__ void s(float *out, float a, int n) { int i = threadIdx.x; if (i < n) out[i] = a; }\n' >"$WORK/f1_scalar.cu"
run f1_scalar_nogpu 0 -- "$WORK/f1_scalar.cu" "$WORK/f1_scalar.cu"

# --- a reader that closes the pipe early: quiet, the run's status ----------------------------
"$KD" "$A" "$B" 2>"$WORK/f1_pipe.err" </dev/null | true
f1_rc=${PIPESTATUS[0]}
if [ "$f1_rc" -eq 0 ]; then ok "f1_pipe: exit 0 when the reader goes away"; else fail "f1_pipe: exit $f1_rc" "$WORK/f1_pipe.err"; fi
lacks f1_pipe err 'Broken pipe'
KERNDIFF_SIMULATE="median=50us;median=80us" "$KD" --n 64K --fail-if-slower 5 "$A" "$B" 2>"$WORK/f1_pipe_gate.err" </dev/null | true
f1_rc=${PIPESTATUS[0]}
if [ "$f1_rc" -eq 8 ]; then ok "f1_pipe_gate: the gate's status stands (8)"; else fail "f1_pipe_gate: exit $f1_rc, wanted 8" "$WORK/f1_pipe_gate.err"; fi
lacks f1_pipe_gate err 'Broken pipe'
# a document on stdout (--json -) too
"$KD" --json - "$A" "$B" 2>"$WORK/f1_pipe_json.err" </dev/null | true
f1_rc=${PIPESTATUS[0]}
if [ "$f1_rc" -eq 0 ]; then ok "f1_pipe_json: exit 0"; else fail "f1_pipe_json: exit $f1_rc" "$WORK/f1_pipe_json.err"; fi
lacks f1_pipe_json err 'Broken pipe'
