# Issue 28, item 1 (nothing lost): an output never overwrites an input, a source file or a
# file git tracks unless --force; an optional value never takes a kernel file; every output
# is attempted; two outputs in one file are refused. Sourced by tests/e2e/hostile.sh.
H1=$WORK/h1_outputs
mkdir -p "$H1"
cp examples/vector_loads/v1.cu "$H1/v1.cu"
cp examples/vector_loads/v2.cu "$H1/v2.cu"
cp "$H1/v1.cu" "$H1/v1.orig"
# h1_unchanged NAME: v1.cu is still the kernel it was.
h1_unchanged() {
    if cmp -s "$H1/v1.cu" "$H1/v1.orig"; then ok "$1: v1.cu is unchanged"; else
        fail "$1: v1.cu was overwritten"; cp "$H1/v1.orig" "$H1/v1.cu"; fi
}
for opt in json html csv markdown save trace; do
    run "h1_clobber_$opt" 2 -- "--$opt=$H1/v1.cu" "$H1/v1.cu" "$H1/v2.cu"
    has "h1_clobber_$opt" err "^kerndiff: --$opt would write over '$H1/v1.cu', which is the v1 input: .*--force"
    h1_unchanged "h1_clobber_$opt"
done
# The same file by another name: a link, ./ and .. are seen through.
ln -sf v1.cu "$H1/link.json"
run h1_clobber_link 2 -- --json="$H1/link.json" "$H1/v1.cu" "$H1/v2.cu"
has h1_clobber_link err "would write over '$H1/link.json', which is the v1 input"
run h1_clobber_dots 2 -- --save="$H1/../h1_outputs/./v2.cu" "$H1/v1.cu" "$H1/v2.cu"
has h1_clobber_dots err "^kerndiff: --save would write over .*, which is the v2 input"
h1_unchanged h1_clobber_dots

# A required value that is a source file is refused (its extension), a new one too.
run h1_html_source 2 -- --html "$H1/other.cu" "$H1/v1.cu"
has h1_html_source err "^kerndiff: --html would write a report to '$H1/other.cu', whose extension \(\.cu\) is a source file's: name the report e\.g\. report\.html, or add --force$"
[ ! -e "$H1/other.cu" ] && ok "h1_html_source: nothing written" || fail "h1_html_source: other.cu was written"
run h1_csv_header 2 -- --csv "$H1/k.CUH" "$H1/v1.cu" "$H1/v2.cu"
has h1_csv_header err "whose extension \(\.cuh\) is a source file's"

# An optional value (--json, --markdown) never takes a kernel file: JSON to stdout, both
# files diffed, neither touched.
run h1_json_next_kernel 0 -- --json "$H1/v1.cu" "$H1/v2.cu"
h1_unchanged h1_json_next_kernel
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["sides"][1]["path"].endswith("v2.cu")' "$WORK/h1_json_next_kernel.out" 2>"$WORK/h1_jnk.err"; then
    ok "h1_json_next_kernel: stdout is the JSON of the diff of v1.cu and v2.cu"; else
    fail "h1_json_next_kernel: stdout is not the diff's JSON" "$WORK/h1_jnk.err"; fi

# In a git repository: a tracked file is refused (the repository's fsmonitor never runs),
# --force writes it; `--html other.cu k.cu` never writes over other.cu.
H1G=$WORK/h1_repo
mkdir -p "$H1G"
cp examples/vector_loads/v1.cu "$H1G/k.cu"
cp examples/vector_loads/v2.cu "$H1G/other.cu"
echo '{"kept": true}' >"$H1G/report.json"
git -C "$H1G" init -q && git -C "$H1G" add k.cu other.cu report.json &&
    git -C "$H1G" -c user.name=t -c user.email=t@t commit -qm init
git -C "$H1G" config core.fsmonitor "touch $H1G/fsmonitor_ran; false"
cp "$H1G/other.cu" "$H1G/other.orig"
run h1_tracked 2 -- --json="$H1G/report.json" "$H1G/k.cu" "$H1G/other.cu"
has h1_tracked err "^kerndiff: --json would write over '$H1G/report.json', which git tracks: .*--force"
grep -q kept "$H1G/report.json" && ok "h1_tracked: report.json is unchanged" || fail "h1_tracked: report.json was overwritten"
[ ! -e "$H1G/fsmonitor_ran" ] && ok "h1_tracked: the repository's fsmonitor did not run" ||
    fail "h1_tracked: core.fsmonitor ran when kerndiff asked git"
run h1_tracked_force 0 -- --force --json="$H1G/report.json" "$H1G/k.cu" "$H1G/other.cu"
python3 tests/e2e/validate_json.py docs/json-schema.json "$H1G/report.json" >"$WORK/h1_force.err" 2>&1 &&
    ok "h1_tracked_force: report.json is now the JSON report" || fail "h1_tracked_force: report.json" "$WORK/h1_force.err"
run h1_html_in_repo 2 -- --html "$H1G/other.cu" "$H1G/k.cu"
cmp -s "$H1G/other.cu" "$H1G/other.orig" && ok "h1_html_in_repo: other.cu is unchanged" || fail "h1_html_in_repo: other.cu was overwritten"

# Two outputs in one file: refused, --force or not.
run h1_two_in_one 2 -- --force --json="$H1/r.json" --save="$H1/./r.json" "$H1/v1.cu" "$H1/v2.cu"
has h1_two_in_one err "^kerndiff: --json and --save both write '$H1/./r.json': give each its own file$"

# Every output is attempted: the JSON cannot be written (no such folder), the Markdown
# after it still is, the status says the failure, no temporary file is left behind.
rm -f "$H1/after.md"
run h1_every_output 7 -- --json=/nonexistent/h1/r.json --markdown="$H1/after.md" "$H1/v1.cu" "$H1/v2.cu"
has h1_every_output err "cannot write the JSON to '/nonexistent/h1/r.json'"
grep -q '^### kerndiff: `saxpy`' "$H1/after.md" 2>/dev/null && ok "h1_every_output: the Markdown was written after the failed JSON" ||
    fail "h1_every_output: no Markdown"
if ls "$H1" | grep -q 'tmp'; then fail "h1_every_output: a temporary file was left: $(ls "$H1" | grep tmp)"; else
    ok "h1_every_output: no temporary file left"; fi
