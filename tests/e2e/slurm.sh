# kerndiff rank --slurm and --merge on a REAL one-node Slurm (issue 32 item 3; docs/RANK.md).
# Sourced by tests/e2e/run.sh (its helpers: run, has, lacks, ok, fail; $KD, $WORK, $ROOT).
# tests/slurm/cluster.sh starts munged, slurmctld and slurmd with a generated configuration
# (this host, nproc CPUs, no GPUs: the candidates run on the simulated harness, so the jobs
# ask --gres=none) and the suite stops them at its end (and in the EXIT trap). Without Slurm
# installed, or not root, the suite prints one "skip" line.
#
# Checks: a rank of 60 simulated candidates in 3 shards through sbatch (--wait) merges into
# the same report as a one-process `--heats 3` rank with the same seed (the JSON, less what
# names the run: times, paths, the command); a task killed with scancel is named by --merge
# with its state and the command that re-runs it alone, and that command completes the rank.
# Refusals that need no cluster: an unclosed quote in SBATCH OPTIONS, --only-shard without
# --slurm-dir, --merge of a folder without a manifest.

source "$ROOT/tests/slurm/cluster.sh"

SL=$WORK/slurm
mkdir -p "$SL"

# --- refusals (no cluster needed) ---------------------------------------------------------
run slurm_quote 2 -- rank --slurm "-p 'gpu" --shards 3 "$A" "$B"
has slurm_quote err "unclosed quote"
run slurm_only_no_dir 2 -- rank --slurm "-p x" --only-shard 1 "$A" "$B"
has slurm_only_no_dir err "--slurm-dir DIR"
run slurm_merge_alone 2 -- rank --merge "$SL" --slurm "-p x"
has slurm_merge_alone err "--merge DIR makes the report"
run slurm_merge_nothing 3 -- rank --merge "$SL"
has slurm_merge_nothing err "--merge and --only-shard take the folder"

# The candidates: 60 copies of one kernel (one cached build) timed by the simulated harness
# with known medians from 40 to 160 us: KERNDIFF_SIMULATE="BASE;C1;...;C60", candidate i's
# spec the (i+1)-th in the order the folder's files are given (by name). The baseline's seed
# seeds every child, so a candidate's samples are the same in whichever process times it.
slurm_candidates() {
    local dir=$1 i specs="median=100us,cv=1%,seed=5"
    mkdir -p "$dir/cands"
    cp examples/vector_loads/v1.cu "$dir/base.cu"
    for i in $(seq 1 60); do
        cp examples/vector_loads/v2.cu "$dir/cands/c$(printf %02d "$i").cu"
        specs="$specs;median=$((40 + (i * 37) % 121))us,cv=1%"
    done
    SLURM_SPECS=$specs
}

# The JSON of a report, less what names one run rather than the ranking: times of day,
# durations, paths of files and folders, the command line.
slurm_normal() {
    python3 - "$1" <<'PY'
import json, sys
DROP = {"time_ms", "timestamp", "time", "date", "started", "finished", "elapsed_s", "elapsed_ms", "wall_ms",
        "command", "argv", "cwd", "dir", "json_path", "host", "hostname", "pid", "duration_ms"}
def clean(v):
    if isinstance(v, dict):
        return {k: clean(x) for k, x in v.items() if k not in DROP and not k.endswith("_path")}
    if isinstance(v, list):
        return [clean(x) for x in v]
    return v
print(json.dumps(clean(json.load(open(sys.argv[1]))), sort_keys=True, indent=1))
PY
}

# Waits until Slurm holds no task of job $1 (at most 120 s).
slurm_wait_job() {
    local n
    for n in $(seq 1 240); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 0.5
    done
    return 1
}

if ! slurm_why=$(kd_slurm_available); then
    echo "skip slurm: $slurm_why"
elif ! kd_slurm_start 2>"$SL/start.err"; then
    fail "slurm: the one-node cluster did not start" "$SL/start.err"
    kd_slurm_stop
else
    trap 'kd_slurm_stop; rm -rf "$WORK"' EXIT
    slurm_candidates "$SL"
    export KERNDIFF_SIMULATE="$SLURM_SPECS"
    SBO="--gres=none -t 10"

    # one process, 3 heats
    run slurm_one 0 -- rank --n 4096 --seed 5 --heats 3 --json "$SL/one.json" "$SL/base.cu" "$SL/cands"
    # the same rank, 3 shards through sbatch, waited for and merged
    run slurm_three 0 -- rank --n 4096 --slurm "$SBO" --shards 3 --wait --seed 5 --slurm-dir "$SL/run" \
        --json "$SL/merged.json" "$SL/base.cu" "$SL/cands"
    has slurm_three err "submitted Slurm job [0-9]+: 3 shards"
    has slurm_three out "^kerndiff rank: 60 candidates against .*3 heats"
    for i in 0 1 2; do
        if [ -s "$SL/run/shard-$i.json" ]; then ok "slurm_three: shard $i wrote its heat"; else
            fail "slurm_three: shard $i wrote no heat" "$SL/run/shard-$i.log"; fi
    done
    if [ -s "$SL/one.json" ] && [ -s "$SL/merged.json" ] &&
        diff <(slurm_normal "$SL/one.json") <(slurm_normal "$SL/merged.json") >"$SL/diff.txt" 2>&1; then
        ok "slurm: the merged report equals the one-process --heats 3 rank (seed 5)"
    else
        fail "slurm: the merged report differs from the one-process rank" "$SL/diff.txt"
    fi
    if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); c=d.get("candidates") or d.get("rows") or []; sys.exit(0 if len(c) == 60 else 1)' \
        "$SL/merged.json" 2>/dev/null; then
        ok "slurm: the merged report has the 60 candidates"
    else
        fail "slurm: the merged report lacks candidates" "$SL/merged.json"
    fi

    # a killed task: held at submission so that task 1 is cancelled before it runs
    run slurm_held 0 -- rank --n 4096 --slurm "$SBO --hold" --shards 3 --seed 5 --slurm-dir "$SL/kill" \
        --json "$SL/held.json" "$SL/base.cu" "$SL/cands"
    job=$(sed -n 's/^submitted Slurm job \([0-9]*\):.*/\1/p' "$WORK/slurm_held.out")
    if [ -n "$job" ] && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["job"] == sys.argv[2] and d["tasks"] == [sys.argv[2] + "_%d" % i for i in range(3)] and d["merge_command"][-2:] == ["--merge", sys.argv[3]] else 1)' \
        "$SL/held.json" "$job" "$SL/kill"; then
        ok "slurm_held: --json says the job, its tasks and the merge command"
    else
        fail "slurm_held: --json of the submission" "$SL/held.json"
    fi
    if [ -n "$job" ]; then
        scancel "${job}_1"
        scontrol release "$job" >/dev/null 2>&1
        slurm_wait_job "$job" || fail "slurm: job $job did not end in 120 s"
        run slurm_merge_killed 5 -- rank --merge "$SL/kill" --json "$SL/killed.json"
        # cancelled while pending: Slurm keeps no record of it (no accounting here), and it left no log
        has slurm_merge_killed err "shard 1 of 3 \(Slurm task ${job}_1(: CANCELLED)?\): no result: .*shard-1.json is missing"
        has slurm_merge_killed err "re-run it alone: .*--only-shard 1$"
        lacks slurm_merge_killed err "shard [02] of 3"
        has slurm_merge_killed err "2 of 3 shards have a result"
        if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["missing"]; sys.exit(0 if d["complete"] is False and [x["shard"] for x in m] == [1] and m[0]["rerun_command"].endswith("--only-shard 1") and m[0]["rerun"][-1] == "1" else 1)' \
            "$SL/killed.json" 2>"$SL/killed.err"; then
            ok "slurm_merge_killed: --json lists shard 1 with its re-run command"
        else
            fail "slurm_merge_killed: --json of the missing shards" "$SL/killed.json"
        fi
        # the re-run, as printed (words quoted for sh), also held (its options say --hold)
        rerun=$(sed -n 's/^  re-run it alone: \(.*--only-shard 1\)$/\1/p' "$WORK/slurm_merge_killed.err")
        if eval "$rerun" >"$SL/rerun.out" 2>"$SL/rerun.err"; then ok "slurm: the re-run command submits"; else
            fail "slurm: the re-run command failed" "$SL/rerun.err"; fi
        has_rerun=$(sed -n 's/^submitted Slurm job \([0-9]*\): shard 1 of 3 alone.*/\1/p' "$SL/rerun.out")
        if [ -n "$has_rerun" ]; then
            ok "slurm: the re-run is shard 1 alone (job $has_rerun)"
            scontrol release "$has_rerun" >/dev/null 2>&1
            slurm_wait_job "$has_rerun" || fail "slurm: job $has_rerun did not end in 120 s"
        else
            fail "slurm: the re-run said no job" "$SL/rerun.out"
        fi
        run slurm_merge_rerun 0 -- rank --merge "$SL/kill" --json "$SL/rerun.json"
        has slurm_merge_rerun out "^kerndiff rank: 60 candidates against "
        if [ -s "$SL/one.json" ] && [ -s "$SL/rerun.json" ] &&
            diff <(slurm_normal "$SL/one.json") <(slurm_normal "$SL/rerun.json") >"$SL/diff2.txt" 2>&1; then
            ok "slurm: after the re-run the merged report equals the one-process rank"
        else
            fail "slurm: after the re-run the merged report differs" "$SL/diff2.txt"
        fi
    else
        fail "slurm: the held submission said no job id" "$WORK/slurm_held.out"
    fi
    unset KERNDIFF_SIMULATE
    kd_slurm_stop
    trap 'rm -rf "$WORK"' EXIT
fi
