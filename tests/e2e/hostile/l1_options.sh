# Issue 29, item 4 (a format's option is its row in report/formats.c's table): the options the
# table gives keep their parse, their checks, their --help lines and their completions.
# Sourced by tests/e2e/hostile.sh.
L1O_V1=examples/vector_loads/v1.cu
L1O_V2=examples/vector_loads/v2.cu

# Any output option's '-' makes the document stdout's alone: --save - is the JSON, whole,
# with no terminal report around it (before, the report came first and the JSON did not parse).
run l1o_save_stdout 0 -- --save - "$L1O_V1" "$L1O_V2"
if python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/l1o_save_stdout.out" 2>"$WORK/l1o_json.err"; then
    ok "l1o_save_stdout: stdout is one JSON document"
else
    fail "l1o_save_stdout: stdout is not one JSON document" "$WORK/l1o_json.err"
fi
has l1o_save_stdout out '"schema_version"'

# The checks between options walk the table.
run l1o_watch 2 -- --watch --csv "$WORK/l1o.csv" "$L1O_V1" "$L1O_V2"
has l1o_watch err "^kerndiff: --watch and --csv contradict each other \(--watch prints to the terminal only\): drop one$"
run l1o_list 2 -- list --html "$WORK/l1o.html" "$L1O_V1"
has l1o_list err "kerndiff list prints to the terminal only: --html would write nothing"
run l1o_two_stdout 2 -- --markdown - --json - "$L1O_V1" "$L1O_V2"
has l1o_two_stdout err "^kerndiff: --json and --markdown both write to standard output"
# A FILE that is a source's name: the hint names the format's own extension (the row's).
run l1o_source_name 2 -- --csv "$WORK/out.cu" "$L1O_V1" "$L1O_V2"
has l1o_source_name err "--csv would write a report to '.*out\.cu', whose extension \(\.cu\) is a source file's: name the report e\.g\. report\.csv"
# An optional FILE given with '=' is taken; without one it is stdout.
run l1o_md_file 0 -- --markdown="$WORK/l1o.md" "$L1O_V1" "$L1O_V2"
if [ -s "$WORK/l1o.md" ] && grep -q '^#' "$WORK/l1o.md"; then ok "l1o_md_file: the Markdown went to its FILE"; else
    fail "l1o_md_file: no Markdown in $WORK/l1o.md" "$WORK/l1o_md_file.err"; fi

# --help lists every output option where it always was; the completions offer each with a file.
run l1o_help 0 -- --help
# (wrapped again to 80 columns by cli/help.c: the row's first line is wider)
has l1o_help out '^  --json\[=FILE\]         write JSON \(docs/json-schema\.json\) to FILE or stdout$'
has l1o_help out '^                        \(-\); `--json FILE` takes the next word unless it is a$'
has l1o_help out '^  --save FILE\.json      the whole result \(samples, counters, environment\)$'
has l1o_help out "^  --trace FILE\.json     both versions' region timelines"
has l1o_help out '^  --csv FILE            the raw samples'
lacks l1o_help out '^@'
run l1o_bash 0 -- --completion bash
has l1o_bash out '--json\|--save\|--markdown\|--html\|--csv\|--trace\) _kerndiff_reply -f'
run l1o_fish 0 -- --completion fish
has l1o_fish out "^complete -c kerndiff -l html -r -F -d 'a self-contained HTML report"
has l1o_fish out "^complete -c kerndiff -l markdown -d 'write Markdown"
