#!/usr/bin/env bash
# The GPU must-show of issue 45 ("kernels in libraries: the launch is taken where the user's
# code makes it, never guessed wrong") on the corpus of tests/corpus (files as published by
# projects this repository does not otherwise test). For each file laid out by
# tests/corpus/fetch.sh, in a checkout of its project (cwd = CORPUS/<id>):
#   1. the zero-flag timed diff A/A:           kerndiff --max-time 1 PATH PATH
#   2. when (1) did not time it and corpus.tsv names a caller (the project's own test or
#      benchmark): kerndiff --max-time 1 --fn KERNEL --from 'python3 -m pytest -x -q CALLER'
#      PATH PATH  (a caller that is no pytest file, no test_*.py, runs as `python3 CALLER`),
#      KERNEL being the first of the row's kernels
# and classifies the better of the two:
#   timed     timed, outputs compared, the bounds guard on and the launch, where kerndiff
#             assumed it, checked under memcheck (launch_check clean or not needed), exit 0
#   unchecked timed, but an assumed launch went unchecked (no compute-sanitizer, or it could
#             not run): a read past a buffer's end would have gone unseen
#   refused   not timed: exit 3 (the launch cannot be described), or 5 for a launch kerndiff
#             stopped at the bounds guard or memcheck (out of bounds, not timed); the first
#             line on stderr names the flag(s) to give, every line is kerndiff's (its account
#             of the callers may follow the refusal; no compiler diagnostics)
#   oob-timed timed although kerndiff says the launch went out of bounds (must never happen)
#   crash     a signal (exit >= 128) or the per-run limit hit (CORPUS_GPU_TIMEOUT_S, 300 s)
#   other     anything else (a build failure, several lines, an incorrect verdict ...)
# The must-show: >= 80% timed; the rest refused; no oob-timed; no crash.
#
#   tests/gpu/corpus.sh BUILD_DIR [ID...]
#
# Needs an NVIDIA GPU, python3 with torch, Triton and pytest, the corpus laid out
# (tests/corpus/fetch.sh, run beforehand where GitHub or the mirrors are reachable; no
# network here) and nvcc (PATH or /usr/local/cuda/bin). CORPUS=DIR: the laid-out folder
# (./corpus); CORPUS_PYTHON: the python of the --from commands (python3);
# CORPUS_GPU_BUDGET_S (3000): files not started by then are "not run" (a FAIL);
# CORPUS_GPU_JOBS (1): files run at once (their timings then overlap on the GPU: see one_file);
# CORPUS_GPU_FLAGS ("--max-time 1"): kerndiff's options on both runs, none of them a launch
# flag (add --no-ncu to skip the counter pass where ncu is slow or not allowed). Writes a
# line per file and the summary; with OUT set, $OUT/results-corpus.txt
# and each run's stderr and JSON under $OUT/corpus/. Exit 0 when the must-show holds.
# Nothing of the corpus is run but through kerndiff (its --from runs the project's test).
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:?usage: tests/gpu/corpus.sh BUILD_DIR [ID...]}
shift
case $build in /*) ;; *) build=$root/$build ;; esac
kd=$build/kerndiff
[ -x "$kd" ] || { echo "corpus.sh: no $kd (make BUILD=... all)" >&2; exit 2; }
corpus=${CORPUS:-$root/corpus}
py=${CORPUS_PYTHON:-python3} # the Python of the --from commands (that of the project's tests)
tsv=$root/tests/corpus/corpus.tsv
tmo=${CORPUS_GPU_TIMEOUT_S:-300}
read -r -a timed_flags <<<"${CORPUS_GPU_FLAGS:---max-time 1}" # no launch flag: how long to measure
deadline=$(( $(date +%s) + ${CORPUS_GPU_BUDGET_S:-3000} ))
work=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-corpus-gpu.XXXXXX")
trap 'rm -rf "$work"' EXIT
logs=${OUT:+$OUT/corpus}
logs=${logs:-$work/logs}
mkdir -p "$logs"
export NO_COLOR=1 KERNDIFF_WIDTH=0 XDG_CACHE_HOME="$work/cache" PATH="$PATH:/usr/local/cuda/bin"
unset KERNDIFF_SIMULATE
summary=$work/summary.txt
: >"$summary"
say() { echo "$*" | tee -a "$summary"; }
ids=("$@")
wanted() { [ ${#ids[@]} = 0 ] && return 0; local i; for i in "${ids[@]}"; do [ "$i" = "$1" ] && return 0; done; return 1; }
first_line() { grep -m1 -v '^[[:space:]]*$' "$1" 2>/dev/null || true; }

say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
say "python3: $(python3 -c 'import sys, torch, triton; print(sys.version.split()[0], "torch", torch.__version__, "triton", triton.__version__)' 2>&1 | tail -1)"
say "kerndiff: $("$kd" --version 2>&1 | head -1)"

# CLASS of one run: its exit status, stderr and JSON (python3 reads the JSON: only json)
classify() { # RC ERR JSON
    local rc=$1 err=$2 json=$3 n
    n=$(grep -c -v '^[[:space:]]*$' "$err" 2>/dev/null)
    if [ "$rc" = 124 ] || [ "$rc" -ge 128 ]; then echo crash; return; fi
    local facts
    facts=$(python3 - "$json" <<'PY' 2>/dev/null
import json, sys
try:
    d = json.load(open(sys.argv[1]))
except Exception:
    print("nojson"); sys.exit()
if "comparison" in d and isinstance(d.get("comparison"), dict):
    d = d["comparison"]
rt = d.get("runtime")
timed = isinstance(rt, dict) and not rt.get("simulated")
corr = (rt or {}).get("correctness") or {}
verdict = corr.get("verdict") if isinstance(corr, dict) else None
notes = d.get("notes") or {}
nrt = (notes.get("runtime") or {}) if isinstance(notes, dict) else {}
lc = d.get("launch_check") or {}
lcs = {lc.get("v1"), lc.get("v2")} - {None}
print("timed" if timed else "untimed", nrt.get("id") or "-", verdict or "-",
      ",".join(sorted(lcs)) or "-")
PY
)
    set -- $facts
    local timed=${1:-nojson} note=${2:--} verdict=${3:--} lcs=${4:--}
    case $note in out_of_bounds|assumed_launch_out_of_bounds)
        if [ "$timed" = timed ]; then echo oob-timed; return; fi ;;
    esac
    if [ "$timed" = timed ]; then
        if [ "$rc" != 0 ] || [ "$verdict" = incorrect ]; then echo other; return; fi
        case $lcs in *findings*) echo oob-timed; return ;; *no_sanitizer*|*unchecked*|*skipped*) echo unchecked; return ;; esac
        echo timed; return
    fi
    # refused: exit 3 (the launch cannot be described), or 5 where kerndiff stopped an
    # out-of-bounds launch before timing it; the first line names a flag to give, and every
    # line is kerndiff's own (what it found of the callers may follow; no compiler output)
    local first
    first=$(grep -m1 -v '^[[:space:]]*$' "$err" 2>/dev/null)
    if { [ "$rc" = 3 ] || { [ "$rc" = 5 ] && case $note in *out_of_bounds) true ;; *) false ;; esac; }; } &&
        printf '%s\n' "$first" | grep -q -E -- '^kerndiff: .*(--(arg|buf|fn|from|n|block|grid|smem|run|launch|python|config)\b|-I )' &&
        ! grep -v '^[[:space:]]*$' "$err" | grep -q -v '^kerndiff:'; then
        echo refused; return
    fi
    echo other
}

rank_of() { case $1 in timed) echo 6 ;; unchecked) echo 5 ;; refused) echo 4 ;; other) echo 3 ;; crash) echo 2 ;; oob-timed) echo 1 ;; *) echo 0 ;; esac; }

# One file's two runs and its class: a line in $work/lines/ID, "ID CLASS" in $work/class/ID.
one_file() { # ID PATH KERNELS CALLER
    local id=$1 path=$2 kernels=$3 caller=$4 dir=$corpus/$1 rc cls how line fn from rc2 cls2
    # 1. zero flags
    (cd "$dir" && timeout -k 10 "$tmo" "$kd" "${timed_flags[@]}" --json="$logs/$id.zero.json" "$path" "$path" \
        >"$logs/$id.zero.out" 2>"$logs/$id.zero.err" </dev/null)
    rc=$?
    cls=$(classify "$rc" "$logs/$id.zero.err" "$logs/$id.zero.json")
    how="zero flags"
    line=$(first_line "$logs/$id.zero.err")
    # 2. the project's own caller, when zero flags did not time it
    if [ "$cls" != timed ] && [ "$caller" != - ]; then
        fn=${kernels%%,*}
        case $(basename "$caller") in
        test_*.py|*_test.py) from="$py -m pytest -x -q $caller" ;;
        *) from="$py $caller" ;;
        esac
        (cd "$dir" && timeout -k 10 "$tmo" "$kd" "${timed_flags[@]}" --json="$logs/$id.from.json" --fn "$fn" --from "$from" \
            "$path" "$path" >"$logs/$id.from.out" 2>"$logs/$id.from.err" </dev/null)
        rc2=$?
        cls2=$(classify "$rc2" "$logs/$id.from.err" "$logs/$id.from.json")
        if [ "$(rank_of "$cls2")" -gt "$(rank_of "$cls")" ]; then
            cls=$cls2 rc=$rc2 how="--fn $fn --from '$from'" line=$(first_line "$logs/$id.from.err")
        fi
        # a crash or an out-of-bounds timing on either run counts, whichever is better
        case $cls2 in crash|oob-timed) cls=$cls2 rc=$rc2 how="--fn $fn --from '$from'" line=$(first_line "$logs/$id.from.err") ;; esac
    fi
    printf '%-9s %s (exit %s, %s)%s\n' "$cls" "$id" "$rc" "$how" "${line:+: ${line:0:300}}" >"$work/lines/$id"
    echo "$id $cls" >"$work/class/$id"
}

# CORPUS_GPU_JOBS=N (1): N files at once. Their builds, callers' runs and captures overlap, and
# so do their timings on the one GPU: the classes hold (timed, refused ...), the speed verdicts
# and medians of such a run are not measurements.
jobs_max=${CORPUS_GPU_JOBS:-1}
mkdir -p "$work/lines" "$work/class"
order=()
while IFS=$'\t' read -r id proj commit path licence kernels caller kind; do
    case $id in ''|'#'*) continue ;; esac
    wanted "$id" || continue
    order+=("$id")
    if [ ! -f "$corpus/$id/$path" ]; then
        echo "missing   $id: $corpus/$id/$path (tests/corpus/fetch.sh first)" >"$work/lines/$id"
        echo "$id missing" >"$work/class/$id"; continue
    fi
    while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
    if [ "$(date +%s)" -ge "$deadline" ]; then
        echo "not-run   $id (the ${CORPUS_GPU_BUDGET_S:-3000} s budget of the script is spent)" >"$work/lines/$id"
        echo "$id not-run" >"$work/class/$id"; continue
    fi
    one_file "$id" "$path" "$kernels" "$caller" &
done <"$tsv"
wait
: >"$work/classes"
for id in "${order[@]}"; do # in the list's order, whatever order they ended in
    say "$(cat "$work/lines/$id")"
    cat "$work/class/$id" >>"$work/classes"
done

total=$(grep -c -v ' missing$' "$work/classes")
count() { grep -c " $1\$" "$work/classes"; }
t=$(count timed) u=$(count unchecked) r=$(count refused) o=$(count other) c=$(count crash) b=$(count oob-timed) m=$(count missing) nr=$(count not-run)
say "corpus.sh: $total files ($m missing, $nr not run): $t timed, $u timed unchecked, $r refused in one line, $o other, $c crash/timeout, $b timed out of bounds"
pass=1
if [ "$total" = 0 ]; then pass=0; fi
if [ "$total" -gt 0 ] && [ $((t * 100)) -lt $((total * 80)) ]; then pass=0; fi
if [ $((t + r)) != "$total" ] || [ "$b" != 0 ] || [ "$c" != 0 ] || [ "$m" != 0 ] || [ "$nr" != 0 ]; then pass=0; fi
pct=0; [ "$total" -gt 0 ] && pct=$((t * 100 / total))
if [ $pass = 1 ]; then say "must-show: PASS ($pct% timed >= 80%; the rest refused in one line; none timed out of bounds; no crash)"
else say "must-show: FAIL ($pct% timed, need >= 80%; the rest must be refused in one line; none timed out of bounds or crashed)"; fi
if [ -n "${OUT:-}" ]; then cp "$summary" "$OUT/results-corpus.txt"; fi
[ $pass = 1 ]
