#!/usr/bin/env bash
# One device call's worth of GPU evidence, step by step, each under its own time limit, so that
# a lent machine's scarce minutes go to the checks in the order given and every step's output
# comes back even when a later one runs out of time.
#
#   tests/gpu/evidence.sh BUILD_DIR STEP[:SECONDS]...
#
# Steps (the default limit in parentheses):
#   audit     bench/audit_overhead.sh (issue 39: the audits' cost, <= 5% every row)      (240)
#   exploits  tests/gpu/exploits/run.sh (issue 39: every cheat rejected, honest accepted) (200)
#   corpus    tests/gpu/corpus.sh with CORPUS_GPU_JOBS (6) files at once (issue 45)     (540)
#   agree     tests/gpu/corpus_agree.sh, one file at a time (issue 45's 2% agreement)   (540)
#             (both: CORPUS_IDS="ID ..." for part of the list, e.g. what a call before left
#             "not-run"; CORPUS_GPU_TIMEOUT_S (120) a run; files start until 2 runs before
#             the limit)
#   fulldiff  bench/full_diff_kernels.sh (issue 43: the full diff's wall time, stages)  (300)
#   aa        bench/aa_campaign.sh (issue 42: the A/A campaign)                        (540)
#   suite     tests/gpu/run.sh (the real-GPU suite)                                    (540)
# A step's limit also bounds its script's own budget variable where it has one.
#
# BUILD_DIR is a build carried to the device (make BUILD=build-gpu all; copy the shared
# libraries it needs into BUILD_DIR/lib; for corpus/agree, the corpus as BUILD_DIR/corpus.tar.xz:
#   (cd corpus && tar --exclude=.git -cf - . | xz -T2 -6 > ../build-gpu/corpus.tar.xz)
# which this script lays out in ./corpus and git-inits, as the projects' checkouts).
# With OUT set: $OUT/evidence.txt (each step's exit status, seconds and last lines) and one
# $OUT/evidence-STEP.tar.xz of each step's files (a device call returns only a few files).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: tests/gpu/evidence.sh BUILD_DIR STEP[:SECONDS]...}
shift
case $build in /*) ;; *) build=$root/$build ;; esac
[ $# -gt 0 ] || { echo "evidence.sh: name the steps (audit exploits corpus agree fulldiff aa suite)" >&2; exit 2; }
out=${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-evidence.XXXXXX")}
export LD_LIBRARY_PATH=$build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} KERNDIFF_HARNESS_DIR=$build
export PATH=$PATH:/usr/local/cuda/bin
cd "$root"
log=$out/evidence.txt
echo "# tests/gpu/evidence.sh $(date -u +%FT%TZ), build $(cat "$build/commit.txt" 2>/dev/null || echo '?')" >>"$log"
echo "# GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)" >>"$log"

lay_out_corpus() {
    [ -d corpus ] && return 0
    [ -f "$build/corpus.tar.xz" ] || { echo "no corpus: $build/corpus.tar.xz" >&2; return 1; }
    mkdir -p corpus && tar -xJf "$build/corpus.tar.xz" -C corpus || return 1
    for d in corpus/*/; do git -C "$d" init -q; done
}

for arg in "$@"; do
    step=${arg%%:*}
    limit=${arg#*:}
    [ "$limit" = "$arg" ] && limit=
    dir=$out/$step
    start=$(date +%s)
    case $step in
    audit) cmd=(bench/audit_overhead.sh "$build") def=240 ;;
    exploits) cmd=(tests/gpu/exploits/run.sh "$build") def=200 ;;
    corpus) cmd=(tests/gpu/corpus.sh "$build" ${CORPUS_IDS:-}) def=540 ;;
    agree) cmd=(tests/gpu/corpus_agree.sh "$build" ${CORPUS_IDS:-}) def=540 ;;
    fulldiff) cmd=(bench/full_diff_kernels.sh "$build") def=300 ;;
    aa) cmd=(bench/aa_campaign.sh "$build") def=540 ;;
    suite) cmd=(tests/gpu/run.sh "$build" "$dir/results.txt") def=540 ;;
    *) echo "evidence.sh: unknown step '$step'" >&2; echo "$step: unknown step" >>"$log"; continue ;;
    esac
    limit=${limit:-$def}
    mkdir -p "$dir"
    case $step in corpus|agree) lay_out_corpus >"$dir/layout.log" 2>&1 || { echo "$step: the corpus could not be laid out" >>"$log"; continue; } ;; esac
    # The scripts' own budgets stop starting files early enough that one started last (two
    # runs of at most the per-run timeout) ends before the limit: the summary is written.
    tmo=${CORPUS_GPU_TIMEOUT_S:-120}
    OUT=$dir CORPUS_GPU_JOBS=${CORPUS_GPU_JOBS:-6} CORPUS_GPU_TIMEOUT_S=$tmo AGREE_TIMEOUT_S=$tmo \
        CORPUS_GPU_BUDGET_S=$((limit - 2 * tmo - 20)) AGREE_BUDGET_S=$((limit - 2 * tmo - 20)) \
        CORPUS_GPU_FLAGS=${CORPUS_GPU_FLAGS:---max-time 1 --no-ncu} \
        timeout -k 10 "$limit" "${cmd[@]}" >"$dir/stdout.txt" 2>"$dir/stderr.txt"
    rc=$?
    {
        echo "== $step: exit $rc in $(( $(date +%s) - start )) s (limit $limit s): ${cmd[*]}"
        tail -n 15 "$dir/stdout.txt"
    } >>"$log"
    (cd "$out" && tar -cJf "evidence-$step.tar.xz" "$step" && rm -rf "$step")
done
cat "$log"
