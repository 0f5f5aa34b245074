# Sourced by run.sh: `kerndiff app` without a GPU. tests/fakes/fake_app stands in for CUDA
# programs: it writes the records file the injection library would write into
# $KERNDIFF_APP_RECORDS (synthetic figures, docs/APP.md). The real collector is checked by
# tests/gpu/run.sh.
FA=$ROOT/tests/fakes/fake_app
run app_fused 0 -- app --steps 100 --json "$WORK/app.json" --markdown "$WORK/app.md" "$FA three" "$FA fused"
has app_fused out '^v2 is 2\.4[0-9]{1,2}x faster in GPU kernel time \(2\.40[0-9] ms -> 98[0-9]\.[0-9]+ us, 95% CI'
has app_fused out '^  kernel launches +300 +100 .* 3 +1$'
has app_fused out '^  device-to-host copies +100 +100 .* 1 +1$'
has app_fused out '^  fused\(float const\*, float\*, int\) +- +100 .* new .*\(4096,1,1\)x\(256,1,1\) 24r 1024B smem$'
has app_fused out '^  add\(float const\*, float const\*, float\*, int\) +100 +- .* gone '
has app_fused out '^  3 kernels only in v1$'
has app_fused out 'cudaLaunchKernel_v7000 \(runtime\) +300 +100'
has app_fused out 'exit 0 in 3 of 3 runs'
if python3 tests/e2e/validate_json.py docs/app-json-schema.json "$WORK/app.json" >"$WORK/app_schema.err" 2>&1; then
    ok "app_fused: JSON valid against docs/app-json-schema.json"; else fail "app_fused: JSON schema" "$WORK/app_schema.err"; fi
if python3 - "$WORK/app.json" >"$WORK/app_json.err" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["totals"]
assert t["launches"]["per_step"] == [3, 1], t["launches"]
assert t["kernel_ns"]["verdict"] == "faster" and t["kernel_ns"]["ci"][0] > 2.4, t["kernel_ns"]
assert [k["name"] for k in d["kernels"]][0] == "fused(float const*, float*, int)"
assert len(d["sides"][0]["runs"]) == 3 and d["sides"][0]["runs"][0]["exit_code"] == 0
PY
then ok "app_fused: JSON figures"; else fail "app_fused: JSON figures" "$WORK/app_json.err"; fi
if grep -q '^| kernel | launches v1 | launches v2 |' "$WORK/app.md" && grep -q '^\*\*v2 is 2\.4' "$WORK/app.md"; then
    ok "app_fused: Markdown table"; else fail "app_fused: Markdown table" "$WORK/app.md"; fi
# A slower v2, judged on the CI: exit 8 beyond the limit, 0 within it.
run app_slower 8 -- app --fail-if-slower 5 "$FA three" "$FA slow"
# 10% slower kernels, each run off by up to 0.19% (fake_app's jitter): 1.098x to 1.102x
# (the pattern lacked 1.098 and 1.102, and failed an ASan CI run at 1.098x)
has app_slower out '^v2 is 1\.(09[89]|10[0-2]?)x slower in GPU kernel time'
has app_slower err "more than 5% above v1's"
run app_slower_ok 0 -- app --fail-if-slower 20 "$FA three" "$FA slow"
# --top, one run (no CI), -N.
run app_top 0 -- app --top 1 --runs 1 -N "$FA three" "$FA slow"
has app_top out '^kernels \(1 of 3, by time'
has app_top out 'one run a side: no confidence interval'
# A failing command: its status and stderr, nothing compared, exit 5.
run app_fail 5 -- app "$FA three" "$FA fail"
has app_fail err "^kerndiff: v2: the command exited with status 3 in run 1 of 3; nothing compared"
has app_fail err 'out of memory on purpose'
lacks app_fail out 'kernels'
run app_missing 5 -- app "$FA three" "/nonexistent/program"
has app_missing err '^kerndiff: v2: the command exited with status 127'
run app_missing_N 3 -- app -N "$FA three" "/nonexistent/program"
has app_missing_N err "^kerndiff: v2: cannot run '/nonexistent/program'"
# A program without GPU work: reported, no ratio, exit 0.
run app_nogpu 0 -- app "$FA three" "$FA nogpu"
has app_nogpu out 'v2: .*no GPU activity \(the program never initialised CUDA\)'
has app_nogpu out 'no ratio \(a side has no kernel time\)'
run app_refused 0 -- app --runs 1 "$FA three" "$FA refused"
has app_refused out 'v2: .*collection could not start in 1 process \(CUPTI refused'
lacks app_refused out 'never initialised CUDA'
# Child processes: each writes its own records file; the run is their sum.
run app_child 0 -- app --runs 2 "$FA fused" "$FA child"
has app_child out '^  kernel launches +100 +100 '
# 50 million launches are one aggregated line: nothing grows with the launch count.
run app_many 0 -- app --runs 1 "$FA many" "$FA many"
has app_many out '^  kernel launches +50000000 +50000000 '
run app_broken 5 -- app --runs 1 "$FA three" "$FA broken"
has app_broken err "v2: run 1: the collected records are unreadable: [0-9]+\.rec: no 'end' line"
KERNDIFF_INJECT_LIBRARY= KERNDIFF_HARNESS_DIR=/nonexistent run app_noinject 7 -- app "$FA three" "$FA fused"
has app_noinject err 'libkerndiff-inject.so not found'
run app_usage 2 -- app "$FA three"
has app_usage err 'usage: kerndiff app'
run app_bad_runs 2 -- app --runs 0 "$FA three" "$FA fused"
# nsys SQLite exports, made here with nsys's documented tables (tests/e2e/make_nsys_sqlite.py).
python3 tests/e2e/make_nsys_sqlite.py "$WORK/a.sqlite" three && python3 tests/e2e/make_nsys_sqlite.py "$WORK/b.sqlite" fused
run app_sqlite 0 -- app --steps 10 "$WORK/a.sqlite" "$WORK/b.sqlite"
has app_sqlite out '^  kernel launches +30 +10 .* 3 +1$'
has app_sqlite out '^  fused_kernel\(float\*\) '
has app_sqlite out 'v1: .*a\.sqlite — nsys profile'
has app_sqlite out 'cudaMalloc_v3020 \(runtime\) +2 +1 '
has app_sqlite out '^  device-to-host copies +10 +10 '
run app_sqlite_mixed 0 -- app --runs 2 "$WORK/a.sqlite" "$FA fused"
# --range on a profile: records starting inside NVTX_EVENTS ranges of that name (push/pop
# for a, start/end named through StringIds for b); the warm-up step, a mark and an enclosing
# range of another name are left out, and the ranges count the steps.
run app_sqlite_norange 3 -- app --range step "$WORK/a.sqlite" "$WORK/b.sqlite"
has app_sqlite_norange err "v1: .*a\.sqlite: no NVTX_EVENTS table, so no range named 'step'"
python3 tests/e2e/make_nsys_sqlite.py "$WORK/an.sqlite" three --nvtx && python3 tests/e2e/make_nsys_sqlite.py "$WORK/bn.sqlite" fused --nvtx
run app_sqlite_whole 0 -- app "$WORK/an.sqlite" "$WORK/bn.sqlite"
has app_sqlite_whole out '^  kernel launches +33 +11 '
run app_sqlite_range 0 -- app --range step --json "$WORK/app_range.json" "$WORK/an.sqlite" "$WORK/bn.sqlite"
has app_sqlite_range out '^  kernel launches +30 +10 .* 3 +1$'
has app_sqlite_range out '^  device-to-host copies +10 +10 .* 1 +1$'
has app_sqlite_range out '10 steps per run \(NVTX ranges\)'
has app_sqlite_range out '^  allocations +0 +0 '
run app_sqlite_range_other 0 -- app --range other "$WORK/an.sqlite" "$WORK/bn.sqlite"
has app_sqlite_range_other out '^  kernel launches +33 +11 '
printf 'not a database' >"$WORK/c.sqlite"; sqlite3 "$WORK/empty.sqlite" 'CREATE TABLE t(x)' 2>/dev/null
run app_sqlite_bad 3 -- app "$WORK/a.sqlite" "$WORK/empty.sqlite"
has app_sqlite_bad err 'v2: .*empty\.sqlite: not an nsys export \(no StringIds table\)'
# -N splits with the shell's quoting rules; an unclosed quote is an input error naming the command.
run app_N_quotes 0 -- app --runs 1 -N "$FA 'three'" "\"$FA\" fus\\ed"
has app_N_quotes out '^  kernel launches +300 +100 '
run app_N_unclosed 3 -- app --runs 1 -N "$FA three" "$FA 'fused"
has app_N_unclosed err "^kerndiff: v2: the command '.*fake_app 'fused' has an unclosed ' quote"
lacks app_N_unclosed out 'kernels'

# Git revisions: one command, v1 in a checkout of --at REF (a git worktree in kerndiff's
# temporary folder), v2 in the working tree or at a second --at. The program's mode is in
# a tracked file that --prepare "builds"; without the build the command fails.
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
AREPO="$WORK/apprepo"
mkdir -p "$AREPO/sub" && git -C "$AREPO" init -q
printf 'built\n' >"$AREPO/.gitignore"
echo three >"$AREPO/sub/mode" && git -C "$AREPO" add . && git -C "$AREPO" commit -qm three
echo fused >"$AREPO/sub/mode" && git -C "$AREPO" commit -qam fused
echo slow >"$AREPO/sub/mode"   # the working tree, not committed
APP_CMD="$FA \$(cat built)"
BUILD='cp mode built'
worktrees() { git -C "$AREPO" worktree list | wc -l; }
cd "$AREPO/sub"
run app_at 0 -- app --runs 2 --at HEAD~1 --prepare "$BUILD" "$APP_CMD"
has app_at out '^v2 is 1\.(09[89]|10[0-2]?)x slower in GPU kernel time'
has app_at out "v1: HEAD~1 \([0-9a-f]{7,}\): .*fake_app \\\$\(cat built\) — "
has app_at out "v2: working tree: .*fake_app \\\$\(cat built\) — "
mkdir -p "$WORK/apptmp"
TMPDIR="$WORK/apptmp" run app_at_two 0 -- app --runs 2 --at HEAD~1 --at HEAD --prepare "$BUILD" --json "$WORK/app_at.json" "$APP_CMD"
has app_at_two out '^v2 is 2\.4[0-9]{1,2}x faster in GPU kernel time'
has app_at_two out "v2: HEAD \([0-9a-f]{7,}\): "
# The JSON names each side's revision: as given, and the commit it resolved to.
want="HEAD~1 $(git -C "$AREPO" rev-parse HEAD~1) HEAD $(git -C "$AREPO" rev-parse HEAD)"
got=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(" ".join(s["revision"]["ref"] + " " + s["revision"]["commit"] for s in d["sides"]))' "$WORK/app_at.json" 2>&1)
if [ "$got" = "$want" ]; then ok "app_at_two: JSON revisions"; else fail "app_at_two: JSON revisions '$got', wanted '$want'"; fi
if python3 "$ROOT/tests/e2e/validate_json.py" "$ROOT/docs/app-json-schema.json" "$WORK/app_at.json" >"$WORK/app_at_valid.err" 2>&1; then
    ok "app_at_two: JSON valid against docs/app-json-schema.json"; else fail "app_at_two: schema" "$WORK/app_at_valid.err"; fi
if [ "$(worktrees)" -eq 1 ] && [ "$(cat "$AREPO/sub/built")" = slow ] && [ -z "$(ls "$WORK/apptmp")" ]; then
    ok "app_at: checkouts removed with kerndiff's temporary folder; v2 built in the working tree"; else
    git -C "$AREPO" worktree list >"$WORK/app_at_wt.txt"; fail "app_at: checkouts left" "$WORK/app_at_wt.txt"; fi
# Without --prepare the checkout has no build: the command fails there, nothing compared.
run app_at_unbuilt 5 -- app --runs 1 --at HEAD~1 "$APP_CMD"
has app_at_unbuilt err '^kerndiff: v[12]: the command exited with status'
run app_at_prepare_fails 4 -- app --runs 1 --at HEAD --prepare 'echo no compiler here >&2; exit 2' "$APP_CMD"
has app_at_prepare_fails err "^kerndiff: v1: --prepare 'echo no compiler here >&2; exit 2' exited with status 2 in the checkout of HEAD; nothing compared"
has app_at_prepare_fails err 'no compiler here'
lacks app_at_prepare_fails out 'kernels'
run app_at_prepare_v2 4 -- app --runs 1 --at HEAD --prepare "case \$PWD in $AREPO/*) exit 7;; esac" "$APP_CMD"
has app_at_prepare_v2 err "^kerndiff: v2: --prepare .* exited with status 7 in the current folder"
run app_at_badref 3 -- app --at no-such-ref "$APP_CMD"
has app_at_badref err "^kerndiff: v1: --at no-such-ref: unknown revision 'no-such-ref'"
run app_at_range_syntax 2 -- app --at HEAD~1..HEAD "$APP_CMD"
has app_at_range_syntax err 'takes two revisions as --at HEAD~1 --at HEAD'
run app_at_three 2 -- app --at HEAD --at HEAD --at HEAD "$APP_CMD"
run app_at_two_cmds 2 -- app --at HEAD "$APP_CMD" "$APP_CMD"
run app_prepare_alone 2 -- app --prepare make "$FA three" "$FA fused"
has app_prepare_alone err '--prepare builds each side'
# Interrupted while building: the checkout goes all the same.
"$KD" app --at HEAD~1 --prepare 'sleep 30' "$APP_CMD" >/dev/null 2>"$WORK/app_at_signal.err" </dev/null &
kd_pid=$!
for _ in $(seq 100); do [ "$(worktrees)" -gt 1 ] && break; sleep 0.1; done
sleep 0.3; kill -TERM "$kd_pid"; wait "$kd_pid"; st=$?
if [ "$st" -eq 143 ] && [ "$(worktrees)" -eq 1 ]; then ok "app_at_signal: SIGTERM removes the checkout"; else
    git -C "$AREPO" worktree list >>"$WORK/app_at_signal.err"; fail "app_at_signal: exit $st, checkouts $(worktrees)" "$WORK/app_at_signal.err"; fi
cd "$ROOT"
mkdir -p "$WORK/appnorepo"; cd "$WORK/appnorepo"
GIT_CEILING_DIRECTORIES="$WORK" run app_at_norepo 3 -- app --at HEAD "$FA three"
has app_at_norepo err 'v1: --at HEAD: the current folder is not inside a git repository'
cd "$ROOT"
# Issue 30 item 4: each kernel row names the command that captures it (kerndiff capture
# --fn NAME -o FILE -- CMD), quoted for a shell: words as they are for a plain command, else
# /bin/sh -c 'CMD' as app ran it; escaped for the terminal, Markdown and HTML; null in the
# JSON for a side that is an nsys profile or a revision's checkout.
run app_capture 0 -- app --runs 1 --json "$WORK/app_cap.json" --markdown "$WORK/app_cap.md" --html "$WORK/app_cap.html" "$FA three" "$FA fused"
has app_capture out "^    kerndiff capture --fn 'fused\(float const\*, float\*, int\)' -o fused\.kdcap -- [^ ]*/fake_app fused$"
has app_capture out "^    kerndiff capture --fn 'add\(float const\*, float const\*, float\*, int\)' -o add\.kdcap -- [^ ]*/fake_app three$"
lacks app_capture out "kerndiff capture --fn 'relu"   # the terminal names the top three only
if grep -q "^- \` kerndiff capture --fn 'relu(float\*)' -o relu\.kdcap -- .*/fake_app three \`$" "$WORK/app_cap.md" &&
    grep -q '<td class="code">kerndiff capture --fn &#39;fused(float const\*, float\*, int)&#39; -o fused\.kdcap -- ' "$WORK/app_cap.html"; then
    ok "app_capture: Markdown (a code span per kernel) and HTML (a column, escaped)"; else fail "app_capture: Markdown/HTML" "$WORK/app_cap.md"; fi
if python3 "$ROOT/tests/e2e/validate_json.py" "$ROOT/docs/app-json-schema.json" "$WORK/app_cap.json" >"$WORK/app_cap_valid.err" 2>&1; then
    ok "app_capture: JSON valid against docs/app-json-schema.json"; else fail "app_capture: schema" "$WORK/app_cap_valid.err"; fi
# A command a shell reads ($, ;, quotes, a newline): the capture runs it through /bin/sh -c,
# and a shell splitting the printed line gets back exactly the command and the kernel's name.
HOSTILE="$FA fused; echo \"it's \$HOME\" \`true\` | cat
: second line"
run app_capture_shell 0 -- app --runs 1 --json "$WORK/app_cap_sh.json" --markdown "$WORK/app_cap_sh.md" "$FA three" "$HOSTILE"
if python3 - "$WORK/app_cap_sh.json" "$HOSTILE" >"$WORK/app_cap_sh.err" 2>&1 <<'PY'
import json, shlex, sys
d = json.load(open(sys.argv[1]))
k = {r["name"]: r["capture_command"] for r in d["kernels"]}
words = shlex.split(k["fused(float const*, float*, int)"])
assert words == ["kerndiff", "capture", "--fn", "fused(float const*, float*, int)", "-o", "fused.kdcap", "--",
                 "/bin/sh", "-c", sys.argv[2]], words
assert shlex.split(k["relu(float*)"])[7:] == [sys.argv[2].split()[0], "three"], k["relu(float*)"]
PY
then ok "app_capture_shell: the JSON's command splits back into the side's command"; else fail "app_capture_shell: JSON" "$WORK/app_cap_sh.err"; fi
has app_capture_shell out "^    kerndiff capture --fn 'fused\(float const\*, float\*, int\)' -o fused\.kdcap -- /bin/sh -c '[^ ]*/fake_app fused; echo \"it'\\\\''s \\\$HOME\" \`true\` \| cat\\\\x0a: second line'$"
lacks app_capture_shell out '^: second line'
if ! grep -q '^: second line' "$WORK/app_cap_sh.md" && grep -q "^- \`\` kerndiff capture --fn 'fused" "$WORK/app_cap_sh.md"; then
    ok "app_capture_shell: Markdown keeps the command on its line, fenced past its backticks"; else fail "app_capture_shell: Markdown" "$WORK/app_cap_sh.md"; fi
# nsys profiles: no program to capture from, so no command (and none in the JSON).
run app_capture_sqlite 0 -- app --json "$WORK/app_cap_sq.json" "$WORK/a.sqlite" "$WORK/b.sqlite"
lacks app_capture_sqlite out 'kerndiff capture'
got=$(python3 -c 'import json, sys; print(set(k["capture_command"] for k in json.load(open(sys.argv[1]))["kernels"]))' "$WORK/app_cap_sq.json" 2>&1)
if [ "$got" = "{None}" ]; then ok "app_capture_sqlite: capture_command null for profiles"; else fail "app_capture_sqlite: '$got'"; fi
# The outputs app does not write are refused by the format table's rows (no app renderer, or
# --save's mark), and the refusal names the ones it writes, from the same table.
for o in "--save x.json" "--csv x.csv" "--trace t.json"; do
    n="app_not_${o%% *}"; n=${n//-/}
    run "$n" 2 -- app $o "$FA three" "$FA fused"
    has "$n" err "^kerndiff: ${o%% *} is not an option of kerndiff app \(its outputs: --json, --markdown, --html\)$"
done
