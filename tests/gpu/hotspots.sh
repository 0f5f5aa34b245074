#!/bin/sh
# GPU check of the hot-spot diff (issue 31 item 2), run by the lead on a GPU:
#   make BUILD=B build-.../tests/kd-hotspots-record B/tests/kd-hotspots-diff   (static: the lead's recipe)
#   tests/gpu/hotspots.sh B
# The pair tests/gpu/hotspots/v1.cu and v2.cu: v2's line 8 is v1's line 7 with its load made
# coalesced (neighbouring threads read neighbouring floats); every other line is the same text,
# one line further down. Each side is built with -lineinfo, disassembled with
# `nvdisasm --print-line-info`, and recorded with harness/cupti_pcsampling.c
# (tests/gpu/hotspots_record.c: PC sampling on, one unsampled warm-up, 5 launches sampled).
# Three times: record both sides, run the hot-spot diff, and check that its first row is
# "line 7 -> 8" (the changed load) and that the load's share fell. Copies run 1's two records,
# its JSON and the summary to $OUT when set (4 files), for the lead to commit as fixtures under
# tests/fixtures/hotspots/recorded/ with this command.
set -u
build=${1:?usage: tests/gpu/hotspots.sh BUILD_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
case $build in /*) ;; *) build=$root/$build ;; esac
record=$build/tests/kd-hotspots-record
hsdiff=$build/tests/kd-hotspots-diff
export PATH="$PATH:/usr/local/cuda/bin"
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
summary=$work/hotspots-summary.txt
: >"$summary"
fails=0 passes=0
say() { echo "$*" | tee -a "$summary"; }
ok() { passes=$((passes + 1)); say "ok   $*"; }
bad() { fails=$((fails + 1)); say "FAIL $*"; }
finish() {
    say "hotspots: $passes passed, $fails failed"
    if [ -n "${OUT:-}" ]; then
        for f in run1-v1.rec run1-v2.rec run1.json; do [ -f "$work/$f" ] && cp "$work/$f" "$OUT/hotspots-$f"; done
        cp "$summary" "$OUT/hotspots-summary.txt"
    fi
    [ "$fails" -eq 0 ] && [ "$passes" -gt 0 ]
    exit $?
}

for p in "$record" "$hsdiff"; do [ -x "$p" ] || { bad "no $p (make BUILD=$build $p)"; finish; }; done
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d '. ')
arch=sm_${cc:-90}
say "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1); arch $arch; $(nvcc --version | tail -1)"
for v in v1 v2; do
    if ! nvcc -arch="$arch" -lineinfo -cubin -o "$work/$v.cubin" "$root/tests/gpu/hotspots/$v.cu" 2>"$work/nvcc.err"; then
        bad "nvcc $v.cu: $(cat "$work/nvcc.err")"; finish
    fi
    nvdisasm --print-line-info -c "$work/$v.cubin" >"$work/$v.sass" 2>"$work/nvdisasm.err" || { bad "nvdisasm $v: $(cat "$work/nvdisasm.err")"; finish; }
    say "$v: nvcc -arch=$arch -lineinfo -cubin tests/gpu/hotspots/$v.cu; listing md5 $(md5sum <"$work/$v.sass" | cut -c1-32)"
done

for run in 1 2 3; do
    recorded=1
    for v in v1 v2; do
        start=$(date +%s.%N)
        if "$record" "$work/$v.cubin" gather "$work/run$run-$v.rec" >"$work/rec.out" 2>&1; then
            say "run $run $v: $(cat "$work/rec.out") in $(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo '?') s"
        else
            bad "run $run: recording $v: $(cat "$work/rec.out")"; recorded=0
        fi
    done
    [ $recorded = 1 ] || continue
    set -- "$work/run$run-v1.rec" "$work/v1.sass" "$root/tests/gpu/hotspots/v1.cu" \
           "$work/run$run-v2.rec" "$work/v2.sass" "$root/tests/gpu/hotspots/v2.cu"
    if ! "$hsdiff" "$@" >"$work/run$run.txt" 2>"$work/run$run.err"; then
        bad "run $run: the hot-spot diff failed: $(cat "$work/run$run.err")"; continue
    fi
    "$hsdiff" --json "$@" >"$work/run$run.json" 2>/dev/null
    cat "$work/run$run.err" "$work/run$run.txt" >>"$summary"
    first=$(grep -m1 '^  line' "$work/run$run.txt")
    case $first in
    "  line 7 -> 8 "*) ok "run $run: the changed load (line 7 -> 8) is named first" ;;
    *) bad "run $run: the first row is not line 7 -> 8: $first" ;;
    esac
    # "...: 57% -> 15% of samples": the coalesced load's share fell.
    shares=$(echo "$first" | sed -n 's/.*: \([0-9<]*\)% -> \([0-9<]*\)% of samples.*/\1 \2/p')
    set -- $shares
    if [ $# -eq 2 ] && [ "${1#<}" -gt "${2#<}" ]; then ok "run $run: its share fell ($1% -> $2%)"
    else bad "run $run: its share did not fall: $first"; fi
done

# The same pair through kerndiff itself, once --hotspots is in (the integration patch): the
# timing, then each side sampled in its own harness child; the first hot line must be the load.
if [ -x "$build/kerndiff" ] && "$build/kerndiff" --help 2>/dev/null | grep -q -- '--hotspots '; then
    if "$build/kerndiff" --hotspots --n 1M --buf a=16M --arg mask=16777215 --arg stride=1024 \
        "$root/tests/gpu/hotspots/v1.cu" "$root/tests/gpu/hotspots/v2.cu" >"$work/kd.out" 2>&1; then
        sed -n '/^Where the time moved/,/^$/p' "$work/kd.out" >>"$summary"
        first=$(sed -n '/^Where the time moved/,/^$/p' "$work/kd.out" | grep -m1 '^  line')
        case $first in
        "  line 7 -> 8 "*) ok "kerndiff --hotspots: the changed load (line 7 -> 8) is named first" ;;
        *) bad "kerndiff --hotspots: the first hot line is not line 7 -> 8: $first$(grep -m1 'no hot spots' "$work/kd.out")" ;;
        esac
    else
        bad "kerndiff --hotspots failed: $(tail -5 "$work/kd.out")"
    fi
else
    say "skip kerndiff --hotspots: $build/kerndiff has no --hotspots yet (apply the integration patch)"
fi
finish
