# Sourced by run.sh: the documentation and the completions cannot fall behind the program.
# Every long option of the option table (which --completion prints) is in --help, in the
# man page and in docs/OPTIONS.md; the man page is what scripts/gen-man.py makes now.
"$KD" --completion bash >"$WORK/completion.bash"
options=$(grep -o -- '--[a-z][a-z0-9-]*' "$WORK/completion.bash" | sort -u)
"$KD" --help >"$WORK/help.txt"
missing_help="" missing_man="" missing_doc=""
for o in $options; do
    grep -q -- "$o" "$WORK/help.txt" || missing_help="$missing_help $o"
    grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" docs/kerndiff.1 || missing_man="$missing_man $o"
    grep -q -- "\`$o" docs/OPTIONS.md || missing_doc="$missing_doc $o"
done
if [ -z "$missing_help" ]; then ok "docs: every option is in --help ($(echo $options | wc -w) options)"; else fail "docs: not in --help:$missing_help"; fi
if [ -z "$missing_man" ]; then ok "docs: every option is in the man page"; else fail "docs: not in docs/kerndiff.1:$missing_man"; fi
if [ -z "$missing_doc" ]; then ok "docs: every option is in docs/OPTIONS.md"; else fail "docs: not in docs/OPTIONS.md:$missing_doc"; fi
python3 scripts/gen-man.py "$KD" docs/kerndiff.1.in >"$WORK/kerndiff.1"
if cmp -s "$WORK/kerndiff.1" docs/kerndiff.1; then ok "docs: the man page is current"; else
    fail "docs: docs/kerndiff.1 is stale: run make man"; fi
# The bash completion works in bash: options, commands, files.
if bash -c "source '$WORK/completion.bash'; COMP_WORDS=(kerndiff --max-t); COMP_CWORD=1; _kerndiff; [ \"\${COMPREPLY[*]}\" = --max-time ]" 2>"$WORK/compl.err"; then
    ok "completion: bash completes --max-t to --max-time"; else fail "completion: bash" "$WORK/compl.err"; fi
"$KD" --completion fish >"$WORK/completion.fish"
has_line() { grep -q -- "$2" "$1"; }
if has_line "$WORK/completion.fish" "^complete -c kerndiff -l max-time -r -f -d 'stop measuring after S seconds"; then ok "completion: fish lists options"; else fail "completion: fish"; fi
run completion_bad 2 -- --completion tcsh
has completion_bad err 'bash, zsh or fish'
# Typos get a suggestion; `kerndiff help`; a missing file is said to be missing.
run typo_option 2 -- --max-tmie 3 a.cu b.cu
has typo_option err "unknown option '--max-tmie': did you mean --max-time\\?"
run help_word 0 -- help
has help_word out '^usage: kerndiff'
run missing_one 3 -- kernl.cu
has missing_one err "cannot read 'kernl.cu': No such file or directory \\(one file means git mode"
run typo_fn 3 -- --fn saxpi examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has typo_fn err "no kernel named 'saxpi' in examples/vector_loads/v1.cu \\(did you mean saxpy\\?\\)"
# -q: nothing on stderr; -v: the stages; --brief: the verdict and little else.
KERNDIFF_SIMULATE="median=60us;median=50us" run quiet 0 -- --n 64K -q examples/vector_loads/v1.cu examples/vector_loads/v2.cu
if [ ! -s "$WORK/quiet.err" ]; then ok "quiet: stderr is empty"; else fail "quiet: stderr" "$WORK/quiet.err"; fi
KERNDIFF_SIMULATE="median=60us;median=50us" run verbose 0 -- --n 64K -v examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has verbose err '^\[kerndiff +[0-9.]+s\] harnesses started'
KERNDIFF_SIMULATE="median=60us;median=50us" run brief 0 -- --n 64K --brief examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has brief out '^v2 is 1\.[0-9]+x faster'
lacks brief out '^PTX instructions'
KERNDIFF_SIMULATE="median=60us;median=50us" run md_details 0 -- --n 64K --markdown=- examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has md_details out '^<details><summary>Static analysis: resources, occupancy, instructions</summary>$'
run version_full 0 -- --version
has version_full out '^built with CUDA [0-9.]+|unknown; harness protocol 2; JSON schema 2$'
