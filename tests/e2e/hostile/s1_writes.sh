# Issue 40, items 1 and 5 (nothing lost; Slurm checked before it is asked): every path that
# rank (local, --shard, --slurm, --merge), capture -o and app write is checked as the diff's
# outputs are (cli/outputs.c): never an input (the baseline, a candidate, a file of a
# candidates folder), a source, a tracked file, a file inside the folder --merge reads, or the
# program a capture runs (found through PATH); a write killed by `ulimit -f` is said and leaves
# no temporary file. A Slurm rank's shard command is made from the parsed request (so `--` and
# abbreviated options cannot break it), checked as a local rank is before sbatch runs, its
# folder's % escaped in sbatch's log pattern, and the re-run commands it prints are absolute.
# One check (or a few) per defect of the issue's "Data loss" and "Slurm" bullets, each failing
# on the code before it. Sourced by tests/e2e/hostile.sh.
#
# Slurm here is a stand-in: $S1/bin/sbatch records its words (one a line, in $S1_SBATCH_LOG)
# and runs each task of the array at once, as Slurm would (SLURM_ARRAY_TASK_ID set, its output
# in the --output pattern, whose %% %a %A %j %x ... it replaces as sbatch does), unless
# FAKE_SBATCH_RUN=0; squeue says the job has ended; sacct and scontrol know nothing.
# tests/e2e/slurm.sh runs the same rank through a real one-node Slurm where one can start.
S1=$WORK/s1_writes
mkdir -p "$S1/bin" "$S1/cands" "$S1/else"
S1_SBATCH_LOG=$S1/sbatch.args
cat >"$S1/bin/sbatch" <<'EOF'
#!/usr/bin/env python3
import os, subprocess, sys
args = sys.argv[1:]
with open(os.environ.get("S1_SBATCH_LOG", "/dev/null"), "w") as f:
    f.write("".join(a + "\n" for a in args))
array = out = None
for i, a in enumerate(args):
    if a.startswith("--array="):
        array = a[len("--array="):]
    elif a.startswith("--output="):
        out = a[len("--output="):]
    elif a.endswith("/job.sh"):
        script = args[i:]
        break
def pattern(p, task):
    # sbatch's filename patterns: %% is %, %a the task, %A and %j the job, %x the job's name
    if "\\" in p:
        return p.replace("\\", "")
    r, i = "", 0
    while i < len(p):
        if p[i] == "%" and i + 1 < len(p):
            c = p[i + 1]
            r += {"%": "%", "a": str(task), "A": "4242", "j": "4242", "x": "kerndiff-rank", "u": "user",
                  "N": "node1", "n": "0", "s": "batch", "t": "0"}.get(c, "")
            i += 2
        else:
            r += p[i]
            i += 1
    return r
if os.environ.get("FAKE_SBATCH_RUN", "1") == "1":
    first, _, last = array.partition("-")
    for task in range(int(first), int(last or first) + 1):
        try:
            log = open(pattern(out, task), "w")
        except OSError:
            continue  # Slurm cannot open the task's output: the task fails, nothing runs
        subprocess.run(script, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                       env=dict(os.environ, SLURM_ARRAY_TASK_ID=str(task)))
print("4242")
EOF
printf '#!/bin/sh\nexit 0\n' >"$S1/bin/squeue"
printf '#!/bin/sh\necho "accounting is off" >&2; exit 1\n' >"$S1/bin/sacct"
printf '#!/bin/sh\necho "no such job" >&2; exit 1\n' >"$S1/bin/scontrol"
chmod +x "$S1/bin/sbatch" "$S1/bin/squeue" "$S1/bin/sacct" "$S1/bin/scontrol"
S1_PATH="$S1/bin:$PATH"
export S1_SBATCH_LOG

cp examples/vector_loads/v1.cu "$S1/base.orig"
cp "$S1/base.orig" "$S1/base.cu"
for i in 1 2 3; do cp examples/vector_loads/v2.cu "$S1/cands/c$i.cu"; done
cp examples/vector_loads/v2.cu "$S1/c1.cu"
cp examples/vector_loads/v2.cu "$S1/c2.cu"
cp "$S1/cands/c1.cu" "$S1/cand.orig"

# s1_same NAME FILE ORIG: FILE still holds what ORIG holds (put back when not, for the next check).
s1_same() {
    if cmp -s "$2" "$3"; then ok "$1: $(basename "$2") is unchanged"; else
        fail "$1: $(basename "$2") was overwritten"; cp "$3" "$2"; fi
}
# s1_no_sbatch NAME: the stand-in sbatch was not run (the refusal came first).
s1_no_sbatch() {
    if [ -e "$S1_SBATCH_LOG" ]; then fail "$1: sbatch was run" "$S1_SBATCH_LOG"; rm -f "$S1_SBATCH_LOG"; else
        ok "$1: nothing submitted"; fi
}
# s1_file NAME FILE: FILE was written.
s1_file() {
    if [ -s "$2" ]; then ok "$1: $(basename "$2") written"; else fail "$1: $2 missing or empty"; fi
}
# s1_candidates NAME JSON N: the rank's JSON report lists N candidates.
s1_candidates() {
    local got
    got=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["candidates"]))' "$2" 2>&1)
    if [ "$got" = "$3" ]; then ok "$1: the report ranks $3 candidates"; else
        fail "$1: the report ranks '$got' candidates, wanted $3" "$2"; fi
}

# --- Data loss: rank --------------------------------------------------------------------------
# The baseline: --json=FILE took it (exit 0 and a JSON over base.cu before).
run s1_rank_baseline 2 -- rank --json="$S1/base.cu" "$S1/base.cu" "$S1/cands"
has s1_rank_baseline err "^kerndiff: --json would write over '$S1/base\.cu', which is the baseline: .*--force"
s1_same s1_rank_baseline "$S1/base.cu" "$S1/base.orig"
# --html takes a value: `--html base.cu c1.cu c2.cu` ranked c2 against c1 and wrote over base.cu.
run s1_rank_html_value 2 -- rank --html "$S1/base.cu" "$S1/c1.cu" "$S1/c2.cu"
has s1_rank_html_value err "^kerndiff: --html would write a report to '$S1/base\.cu', whose extension \(\.cu\) is a source file's"
s1_same s1_rank_html_value "$S1/base.cu" "$S1/base.orig"
# A candidate found in a folder (its name no source's: `rank base.cu DIR --csv DIR/c1.cu` is refused
# by the extension already; a candidate file given by a name without one is not).
cp "$S1/base.orig" "$S1/cand.kernel"
run s1_rank_candidate 2 -- rank --markdown="$S1/cand.kernel" "$S1/base.cu" "$S1/cand.kernel" "$S1/cands"
has s1_rank_candidate err "^kerndiff: --markdown would write over '$S1/cand\.kernel', which is a candidate"
s1_same s1_rank_candidate "$S1/cand.kernel" "$S1/base.orig"
ln -sf cands/c2.cu "$S1/c2.link"
run s1_rank_folder_candidate 2 -- rank --json="$S1/c2.link" "$S1/base.cu" "$S1/cands"
has s1_rank_folder_candidate err "would write over '$S1/c2\.link', which is a candidate"
s1_same s1_rank_folder_candidate "$S1/cands/c2.cu" "$S1/cand.orig"
# A file git tracks (a local rank, and --shard writing its heat).
S1G=$S1/repo
mkdir -p "$S1G"
printf '# notes\n' >"$S1G/notes.md"
git -C "$S1G" init -q && git -C "$S1G" add notes.md && git -C "$S1G" -c user.name=t -c user.email=t@t commit -qm init
cp "$S1G/notes.md" "$S1/notes.orig"
run s1_rank_tracked 2 -- rank --markdown "$S1G/notes.md" "$S1/base.cu" "$S1/cands"
has s1_rank_tracked err "^kerndiff: --markdown would write over '$S1G/notes\.md', which git tracks"
s1_same s1_rank_tracked "$S1G/notes.md" "$S1/notes.orig"
run s1_shard_tracked 2 -- rank --shard 0/2 --json="$S1G/notes.md" "$S1/base.cu" "$S1/cands"
has s1_shard_tracked err "^kerndiff: --json would write over '$S1G/notes\.md', which git tracks"
s1_same s1_shard_tracked "$S1G/notes.md" "$S1/notes.orig"
run s1_shard_candidate 2 -- rank --shard 1/2 --json="$S1/cand.kernel" "$S1/base.cu" "$S1/cand.kernel"
has s1_shard_candidate err "which is a candidate"
s1_same s1_shard_candidate "$S1/cand.kernel" "$S1/base.orig"
# --slurm: the submission's JSON over the baseline, written once sbatch had taken the job.
rm -f "$S1_SBATCH_LOG"
PATH=$S1_PATH FAKE_SBATCH_RUN=0 run s1_slurm_baseline 2 -- rank --slurm "" --slurm-dir "$S1/sb" --json="$S1/cand.kernel" "$S1/base.cu" "$S1/cand.kernel"
has s1_slurm_baseline err "would write over '$S1/cand\.kernel', which is a candidate"
s1_same s1_slurm_baseline "$S1/cand.kernel" "$S1/base.orig"
s1_no_sbatch s1_slurm_baseline

# One document on stdout, as for a diff: the JSON and the Markdown ran into each other.
run s1_rank_two_stdout 2 -- rank --json - --markdown - "$S1/base.cu" "$S1/cands"
has s1_rank_two_stdout err "^kerndiff: --json and --markdown both write to standard output"

# --- Data loss: rank --merge, and Slurm's stand-in running a whole rank -------------------------
# A rank in 2 shards as the code before this issue could run it (no `--`, no abbreviation):
# the folder every --merge check below reads.
PATH=$S1_PATH run s1_slurm_run 0 -- rank --slurm "-p any" --shards 2 --slurm-dir "$S1/run" --seed 5 "$S1/base.cu" "$S1/cands"
s1_file s1_slurm_run "$S1/run/shard-0.json"
s1_file s1_slurm_run "$S1/run/shard-1.json"
cp "$S1/run/shard-0.json" "$S1/shard0.orig"
cp "$S1/run/job.sh" "$S1/job.orig"
# `--merge DIR --json DIR/shard-0.json` destroyed a shard's result (a cluster's work).
run s1_merge_shard 2 -- rank --merge "$S1/run" --json "$S1/run/shard-0.json"
has s1_merge_shard err "^kerndiff: --json would write '$S1/run/shard-0\.json' inside '$S1/run', the folder --merge reads"
s1_same s1_merge_shard "$S1/run/shard-0.json" "$S1/shard0.orig"
# ... and `--markdown DIR/job.sh` the job script.
run s1_merge_script 2 -- rank --merge "$S1/run" --markdown "$S1/run/job.sh"
has s1_merge_script err "^kerndiff: --markdown would write '$S1/run/job\.sh' inside '$S1/run'"
s1_same s1_merge_script "$S1/run/job.sh" "$S1/job.orig"
# ... and a file git tracks, as a local rank's outputs.
run s1_merge_tracked 2 -- rank --merge "$S1/run" --markdown "$S1G/notes.md"
has s1_merge_tracked err "which git tracks"
s1_same s1_merge_tracked "$S1G/notes.md" "$S1/notes.orig"
# Nothing lost the other way: the merge of that folder still makes the report.
run s1_merge_ok 0 -- rank --merge "$S1/run" --json="$S1/merged.json"
s1_candidates s1_merge_ok "$S1/merged.json" 3

# --- Data loss: capture -o over the program it runs ---------------------------------------------
printf 'echo ran >"%s/ran"\n' "$S1" >"$S1/run.sh"
cp "$S1/run.sh" "$S1/run.orig"
# the script an interpreter reads (an operand of the command, not argv[0])
run s1_capture_script 2 -- capture --fn k -o "$S1/run.sh" -- /bin/sh "$S1/run.sh"
has s1_capture_script err "^kerndiff: -o would write over '$S1/run\.sh', which is a file the captured command names"
s1_same s1_capture_script "$S1/run.sh" "$S1/run.orig"
[ ! -e "$S1/ran" ] && ok "s1_capture_script: the program did not run" || fail "s1_capture_script: the program ran"
# the program found through PATH (kprog, not ./bin/kprog as typed), and through a link to it
mkdir -p "$S1/pbin"
printf '#!/bin/sh\necho ran >"%s/ran"\n' "$S1" >"$S1/pbin/kprog"
chmod +x "$S1/pbin/kprog"
cp "$S1/pbin/kprog" "$S1/kprog.orig"
ln -sf kprog "$S1/pbin/klink"
PATH="$S1/pbin:$PATH" run s1_capture_path 2 -- capture --fn k -o "$S1/pbin/kprog" -- kprog
has s1_capture_path err "^kerndiff: -o would write over '$S1/pbin/kprog', which is the program captured"
s1_same s1_capture_path "$S1/pbin/kprog" "$S1/kprog.orig"
PATH="$S1/pbin:$PATH" run s1_capture_link 2 -- capture --fn k -o "$S1/pbin/kprog" -- klink --fast
has s1_capture_link err "which is the program captured"
s1_same s1_capture_link "$S1/pbin/kprog" "$S1/kprog.orig"
# a file named as --opt=FILE
cp "$S1/run.orig" "$S1/data.in"
run s1_capture_value 2 -- capture --fn k -o "$S1/data.in" -- /bin/true --input="$S1/data.in"
has s1_capture_value err "which is a file the captured command names"
s1_same s1_capture_value "$S1/data.in" "$S1/run.orig"

# --- app: a file its command names ---------------------------------------------------------------
S1_FA=$ROOT/tests/fakes/fake_app
cp "$S1/run.orig" "$S1/app.in"
run s1_app_word 2 -- app --runs 1 --json "$S1/app.in" "$S1_FA three $S1/app.in" "$S1_FA fused"
has s1_app_word err "^kerndiff: --json would write over '$S1/app\.in', which is a file v1's command names"
s1_same s1_app_word "$S1/app.in" "$S1/run.orig"

# --- A write killed by `ulimit -f`: said, no temporary file, the old report kept ---------------------
# (first without the limit, so that every build is in the cache: nvcc writes too)
"$KD" --html "$S1/warm.html" examples/vector_loads/v1.cu examples/vector_loads/v2.cu >/dev/null 2>&1
printf 'old\n' >"$S1/keep.html"
(ulimit -f 8; exec "$KD" --html "$S1/keep.html" examples/vector_loads/v1.cu examples/vector_loads/v2.cu \
    >/dev/null 2>"$WORK/s1_xfsz.err" </dev/null)
s1_rc=$?
[ "$s1_rc" -eq 7 ] && ok "s1_xfsz: exit 7" || fail "s1_xfsz: exit $s1_rc, wanted 7 (153: killed by SIGXFSZ)" "$WORK/s1_xfsz.err"
has s1_xfsz err "^kerndiff: cannot write the HTML to '$S1/keep\.html': File too large"
[ "$(cat "$S1/keep.html")" = old ] && ok "s1_xfsz: the old report is kept" || fail "s1_xfsz: the old report was lost"
if ls "$S1"/keep.html.tmp* >/dev/null 2>&1; then fail "s1_xfsz: a temporary file was left: $(ls "$S1"/keep.html.tmp*)"; else
    ok "s1_xfsz: no temporary file left"; fi

# --- Slurm: the shard command -----------------------------------------------------------------------
# `-- base.cu cands/` put each task's --shard I/N --json FILE after `--`: the tasks wrote nothing.
PATH=$S1_PATH run s1_slurm_dashdash 0 -- rank --slurm "-p any" --shards 2 --wait --slurm-dir "$S1/dd" --seed 5 \
    --json="$S1/dd.json" -- "$S1/base.cu" "$S1/cands"
s1_file s1_slurm_dashdash "$S1/dd/shard-0.json"
s1_file s1_slurm_dashdash "$S1/dd/shard-1.json"
s1_candidates s1_slurm_dashdash "$S1/dd.json" 3
# the tasks' words: the options written out whole, then `--` and the operands as parsed
if [ "$(tail -n 4 "$S1_SBATCH_LOG" 2>/dev/null | tr '\n' ' ')" = "--seed=5 -- $S1/base.cu $S1/cands " ]; then
    ok "s1_slurm_dashdash: the tasks get --seed=5 -- BASE CANDS"; else
    fail "s1_slurm_dashdash: the tasks' words" "$S1_SBATCH_LOG"; fi
# An abbreviated option (--slurm-d for --slurm-dir, --wai for --wait, --se for --seed) went to
# every task as typed, where it meant --slurm-dir again: each task refused it.
PATH=$S1_PATH run s1_slurm_abbrev 0 -- rank --slurm "" --shards 2 --wai --slurm-d "$S1/ab" --se 5 --jso="$S1/ab.json" \
    "$S1/base.cu" "$S1/cands"
s1_file s1_slurm_abbrev "$S1/ab/shard-0.json"
s1_file s1_slurm_abbrev "$S1/ab/shard-1.json"
s1_candidates s1_slurm_abbrev "$S1/ab.json" 3

# --- Slurm: the checks of a local rank, before sbatch -----------------------------------------------
rm -f "$S1_SBATCH_LOG"
PATH=$S1_PATH run s1_slurm_no_base 3 -- rank --slurm "" --slurm-dir "$S1/nb" "$S1/missing.cu" "$S1/cands"
has s1_slurm_no_base err "^kerndiff rank: the baseline '$S1/missing\.cu' cannot be read: No such file or directory; nothing was submitted"
s1_no_sbatch s1_slurm_no_base
PATH=$S1_PATH run s1_slurm_no_cand 3 -- rank --slurm "" --slurm-dir "$S1/nc" "$S1/base.cu" "$S1/cands" "$S1/gone.cu"
has s1_slurm_no_cand err "^kerndiff rank: the candidate '$S1/gone\.cu' cannot be read: No such file or directory; nothing was submitted"
s1_no_sbatch s1_slurm_no_cand
PATH=$S1_PATH run s1_slurm_heats 2 -- rank --slurm "" --heats 3 --shards 2 --slurm-dir "$S1/hs" "$S1/base.cu" "$S1/cands"
has s1_slurm_heats err "^kerndiff rank: --heats 3 and --shards 2: each shard runs one heat"
s1_no_sbatch s1_slurm_heats
# --heats H alone is the number of shards (each task runs heat I of H, as `--heats H` locally)
PATH=$S1_PATH FAKE_SBATCH_RUN=0 run s1_slurm_heats_alone 0 -- rank --slurm "" --heats 3 --slurm-dir "$S1/h3" "$S1/base.cu" "$S1/cands"
has s1_slurm_heats_alone out "^submitted Slurm job 4242: 3 shards"
rm -f "$S1_SBATCH_LOG"
# an output the merge writes, asked of a submission that does not wait: it was silently not written
PATH=$S1_PATH run s1_slurm_lost_output 2 -- rank --slurm "" --slurm-dir "$S1/lo" --markdown "$S1/r.md" "$S1/base.cu" "$S1/cands"
has s1_slurm_lost_output err "^kerndiff rank: --markdown writes the report, which the merge makes"
s1_no_sbatch s1_slurm_lost_output
# --shard given to --slurm: every task got two
PATH=$S1_PATH run s1_slurm_shard 2 -- rank --slurm "" --slurm-dir "$S1/sh" --shard 0/2 --json="$S1/x.json" "$S1/base.cu" "$S1/cands"
has s1_slurm_shard err "^kerndiff rank: --shard I/N runs one heat in this process"
s1_no_sbatch s1_slurm_shard

# --- Slurm: a % in --slurm-dir (sbatch's %x is the job's name: the logs went nowhere) --------------
PATH=$S1_PATH run s1_slurm_percent 0 -- rank --slurm "" --shards 2 --wait --slurm-dir "$S1/p%x" --json="$S1/p.json" \
    "$S1/base.cu" "$S1/cands"
has s1_slurm_percent err "^submitted Slurm job 4242: 2 shards"
if grep -qxF -- "--output=$S1/p%%x/shard-%a.log" "$S1_SBATCH_LOG"; then ok "s1_slurm_percent: the folder's % doubled in --output"; else
    fail "s1_slurm_percent: --output without %%" "$S1_SBATCH_LOG"; fi
[ -e "$S1/p%x/shard-1.log" ] && ok "s1_slurm_percent: each task's log in the folder" || fail "s1_slurm_percent: no shard-1.log in $S1/p%x"
s1_candidates s1_slurm_percent "$S1/p.json" 3
# A backslash turns sbatch's patterns off: refused, nothing submitted.
rm -f "$S1_SBATCH_LOG"
PATH=$S1_PATH run s1_slurm_backslash 2 -- rank --slurm "" --slurm-dir "$S1/b\\s" "$S1/base.cu" "$S1/cands"
has s1_slurm_backslash err "has a backslash"
s1_no_sbatch s1_slurm_backslash

# --- Slurm: the re-run commands, absolute, and working from any folder ------------------------------
# A rank asked from its folder with relative paths; shard 1 lost; the merge names the command
# that re-runs it, run from another folder.
pushd "$S1" >/dev/null
PATH=$S1_PATH FAKE_SBATCH_RUN=1 run s1_rel_submit 0 -- rank --slurm "-p any" --shards 2 --slurm-dir rel --seed 5 base.cu cands
rm -f rel/shard-1.json
PATH=$S1_PATH run s1_rel_merge 5 -- rank --merge rel
popd >/dev/null
has s1_rel_merge err "^  re-run it alone: /[^ ]*kerndiff rank --slurm '-p any' --slurm-dir $(realpath "$S1")/rel --only-shard 1$"
s1_rerun=$(sed -n 's/^  re-run it alone: //p' "$WORK/s1_rel_merge.err")
rm -f "$S1_SBATCH_LOG"
if [ -n "$s1_rerun" ] && (cd "$S1/else" && PATH=$S1_PATH eval "$s1_rerun") >"$WORK/s1_rerun.out" 2>&1; then
    ok "s1_rerun: the printed command runs from another folder"; else fail "s1_rerun: the printed command failed" "$WORK/s1_rerun.out"; fi
s1_file s1_rerun "$S1/rel/shard-1.json"
run s1_rel_merged 0 -- rank --merge "$S1/rel" --json="$S1/rel.json"
s1_candidates s1_rel_merged "$S1/rel.json" 3
# --only-shard takes the rank's words from its folder: words of its own would be ignored.
PATH=$S1_PATH run s1_rerun_words 2 -- rank --slurm "" --slurm-dir "$S1/rel" --only-shard 1 --seed 9 "$S1/base.cu" "$S1/cands"
has s1_rerun_words err "^kerndiff rank: --only-shard 1 re-runs shard 1 with the rank's own options and candidates"
