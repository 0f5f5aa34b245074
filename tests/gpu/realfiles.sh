#!/usr/bin/env bash
# The GPU must-show of issue 27: every kernel file of tests/realfiles either runs its timed
# diff against itself with zero flags, or fails with ONE line (the first non-empty line on
# stderr) that names the flag(s) that fix it; given exactly those flags, filled with the
# value this script's table holds for each (below: a sensible number per parameter, chosen
# here, never by kerndiff), it then exits 0. A file of several kernels names --fn and, on the
# same line, every --arg the kernels' launches still need (axpy_templates.cu: --fn and
# --arg alpha). block_sum.ptx and scaled_add.ptx's p4 need no value since the PTX reader
# takes a parameter compared with the global thread index as the element count: the table
# has none for them, so a line that asks again is a FAIL.
#   tests/gpu/realfiles.sh BUILD_DIR
# Prints an ok/FAIL line per file and a summary; copies the summary to $OUT/results-realfiles-mustshow.txt
# when OUT is set. Needs no network. --max-time 2 bounds each measurement (it is no launch
# flag: the must-show is about what is launched), and 4 files run at once (REALFILES_JOBS),
# so the 25 files fit in about 90 s; what the 85 s (REALFILES_BUDGET_S) leave unrun is a FAIL.
# Without a GPU it runs on the simulated harness when KERNDIFF_SIMULATE is set (the e2e check
# tests/e2e/realfiles/h27_mustshow.sh does); REALFILES_ONLY="a.cu b.ptx" limits the files.
set -u
BUILD=$(realpath "${1:-build}")
KD="$BUILD/kerndiff"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT" || exit 2
WORK=$(mktemp -d "${TMPDIR:-/tmp}/kerndiff-mustshow.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 KERNDIFF_WIDTH=0 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
SUMMARY="$WORK/summary.txt"
DEADLINE=$(( $(date +%s) + ${REALFILES_BUDGET_S:-85} ))
TIMED=(--no-ncu --max-time 2)

# The value each named flag gets, per file: FILE:FLAG:NAME VALUE (NAME '-' for --fn).
# Scalars that are not sizes get an ordinary value for what they are (a learning rate of
# 1e-3, alpha 2); counts the element count n (1048576, kerndiff's default); a template
# file's kernel one of its instances.
value_for() { # FILE FLAG NAME
    case "$1:$2:$3" in
    adamw.cu:--arg:learning_rate) echo 0.001 ;;
    adamw.cu:--arg:beta1) echo 0.9 ;;
    adamw.cu:--arg:beta2) echo 0.999 ;;
    adamw.cu:--arg:beta1_correction) echo 0.1 ;;
    adamw.cu:--arg:beta2_correction) echo 0.001 ;;
    adamw.cu:--arg:eps) echo 1e-8 ;;
    adamw.cu:--arg:weight_decay) echo 0.01 ;;
    axpy_templates.cu:--fn:-) echo 'axpy<float>' ;;
    axpy_templates.cu:--arg:alpha) echo 2.0 ;;
    bitonic_step.cu:--arg:j) echo 1 ;;
    bitonic_step.cu:--arg:k) echo 2 ;;
    saxpy_bounds.cu:--arg:a) echo 2.0 ;;
    sgemm_naive.cu:--arg:alpha) echo 1.0 ;;
    sgemm_naive.cu:--arg:beta) echo 0.0 ;;
    reduction.cu:--fn:-) echo 'reduce2<float>' ;;
    transpose.cu:--fn:-) echo transposeNaive ;;
    scaled_add.ptx:--arg:p3) echo 2.0 ;;
    triton_add.py:--arg:BLOCK_SIZE) echo 1024 ;;
    triton_softmax.py:--arg:input_row_stride) echo 1024 ;;
    triton_softmax.py:--arg:output_row_stride) echo 1024 ;;
    triton_softmax.py:--arg:BLOCK_SIZE) echo 1024 ;;
    *) return 1 ;;
    esac
}

say() { echo "$*" | tee -a "$SUMMARY"; }
first_line() { grep -m1 -v '^[[:space:]]*$' "$1"; }

# One file: its result line (ok/FAIL ...) into $WORK/res/NAME. Runs beside 3 others (the
# checks are of exit status, not of time, so sharing the GPU changes no result).
check_file() { # FILE
    local f=$1 name out res left rc line opt rest param v flag
    name=$(basename "$f") out="$WORK/run/$name" res="$WORK/res/$name"
    mkdir -p "$out"
    left=$((DEADLINE - $(date +%s)))
    if [ "$left" -le 5 ]; then echo "FAIL $name: not run (the script's ${REALFILES_BUDGET_S:-85} s were spent)" >"$res"; return; fi
    timeout "$left" "$KD" "${TIMED[@]}" "$f" "$f" >"$out/z.out" 2>"$out/z.err" </dev/null
    rc=$?
    if [ $rc = 0 ]; then echo "ok   $name: zero flags" >"$res"; return; fi
    line=$(first_line "$out/z.err")
    # the flags the line names, once each: --arg NAME=VALUE, --buf NAME=COUNT, --fn NAME
    local -a named args=()
    mapfile -t named < <(printf '%s\n' "$line" | grep -oE -- '--(arg|buf) [A-Za-z_][A-Za-z_0-9]*=(VALUE|COUNT)|--fn NAME' | awk '!seen[$0]++')
    if [ ${#named[@]} = 0 ]; then echo "FAIL $name: exit $rc, and its first line names no flag: ${line:0:200}" >"$res"; return; fi
    local shown="" missing=""
    for flag in "${named[@]}"; do
        opt=${flag%% *} rest=${flag#* } param=${rest%%=*}
        [ "$opt" = --fn ] && param=-
        if ! v=$(value_for "$name" "$opt" "$param"); then missing="$missing $opt $param"; continue; fi
        if [ "$opt" = --fn ]; then args+=(--fn "$v"); shown="$shown --fn '$v'"; else
            args+=("$opt" "$param=$v"); shown="$shown $opt $param=$v"; fi
    done
    if [ -n "$missing" ]; then echo "FAIL $name: the table has no value for:$missing (line: ${line:0:160})" >"$res"; return; fi
    left=$((DEADLINE - $(date +%s)))
    if [ "$left" -le 5 ]; then echo "FAIL $name: the re-run with$shown not run (time spent)" >"$res"; return; fi
    timeout "$left" "$KD" "${TIMED[@]}" "${args[@]}" "$f" "$f" >"$out/f.out" 2>"$out/f.err" </dev/null
    rc=$?
    if [ $rc = 0 ]; then echo "ok   $name: one line named${shown}; with them, exit 0" >"$res"; else
        echo "FAIL $name: one line named${shown}; with them, exit $rc: $(first_line "$out/f.err" | cut -c1-200)" >"$res"; fi
}

say "realfiles must-show: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)${KERNDIFF_SIMULATE:+ (simulated harness)}, commit $("$BUILD/kerndiff" --version 2>/dev/null | sed -n 's/^source: commit //p')"
mkdir -p "$WORK/res" "$WORK/run"
order=()
for f in tests/realfiles/*.cu tests/realfiles/*.ptx tests/realfiles/*.py; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    if [ -n "${REALFILES_ONLY:-}" ] && ! [[ " $REALFILES_ONLY " == *" $name "* ]]; then continue; fi
    order+=("$name")
    while [ "$(jobs -rp | wc -l)" -ge "${REALFILES_JOBS:-4}" ]; do wait -n; done
    check_file "$f" &
done
wait
pass=0 failed=0 zero=0
for name in "${order[@]}"; do
    line=$(cat "$WORK/res/$name" 2>/dev/null || echo "FAIL $name: no result")
    say "$line"
    case $line in
    "ok   $name: zero flags") pass=$((pass + 1)) zero=$((zero + 1)) ;;
    ok*) pass=$((pass + 1)) ;;
    *) failed=$((failed + 1)) ;;
    esac
done
files=${#order[@]}
say "realfiles must-show: $pass of $files ok ($zero with zero flags, $((pass - zero)) with the flags their one line named), $failed FAIL"
if [ -n "${OUT:-}" ]; then cp "$SUMMARY" "$OUT/results-realfiles-mustshow.txt"; fi
[ "$failed" = 0 ]
