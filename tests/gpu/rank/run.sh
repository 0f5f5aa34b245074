#!/usr/bin/env bash
# kerndiff rank on a GPU (issue 32): the 8 reduction variants of this folder against base.cu.
# Checks: the rank exits 0; the wrong variant (r8) is "incorrect" and never timed; at least
# 6 are timed; the order of the top 3 agrees with separate pairwise runs (`kerndiff --no-ncu
# A B` for #1 vs #2 and #2 vs #3: the lower-ranked one is never significantly faster, and where
# the rank calls a pair apart the pairwise run says the same); #1's interval against the
# baseline overlaps its pairwise run's. With 2 GPUs or more, the same rank on GPUs 0,1: a
# ratio per GPU and the same top 1. Prints ok/FAIL lines and a summary; copies the summary to
# $OUT/results-rank.txt when OUT is set.    tests/gpu/rank/run.sh BUILD_DIR
set -u
BUILD=$(realpath "${1:-build}")
KD="$BUILD/kerndiff"
HERE=tests/gpu/rank
WORK=$(mktemp -d)
export XDG_CACHE_HOME="$WORK/cache" NO_COLOR=1 PATH="$PATH:/usr/local/cuda/bin" KERNDIFF_HARNESS_DIR="$BUILD"
SUMMARY="${OUT:+$OUT/results-rank.txt}"
SUMMARY="${SUMMARY:-$WORK/summary.txt}"
pass=0 failed=0
say() { echo "$*" | tee -a "$SUMMARY"; }
check() { # NAME STATUS(0 ok) DETAIL
    if [ "$2" = 0 ]; then pass=$((pass + 1)); say "ok   $1: $3"; else failed=$((failed + 1)); say "FAIL $1: $3"; fi
}
j() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
say "rank: $(date -u +%FT%TZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
t0=$(date +%s)
timeout 70 "$KD" rank --budget-ms 12000 --max-time 2 --json "$WORK/rank.json" "$HERE/base.cu" "$HERE"/r*.cu >"$WORK/rank.txt" 2>&1
rc=$?
sed 's/^/   /' "$WORK/rank.txt" | tee -a "$SUMMARY"
check rank_exit "$rc" "kerndiff rank exit $rc in $(( $(date +%s) - t0 )) s"
if [ "$rc" != 0 ] || [ ! -s "$WORK/rank.json" ]; then say "summary: $pass ok, $failed FAIL"; exit 1; fi
st=$(j "$WORK/rank.json" '{c["name"]: c["status"] for c in d["candidates"]}["r8_wrong.cu"]')
check gate_wrong "$([ "$st" = incorrect ]; echo $?)" "r8_wrong.cu is '$st' (incorrect wanted)"
timed=$(j "$WORK/rank.json" 'sum(1 for c in d["candidates"] if c["speedup"])')
check timed "$([ "$timed" -ge 6 ]; echo $?)" "$timed candidates timed (>= 6 wanted)"
read -r T1 T2 T3 <<<"$(j "$WORK/rank.json" '" ".join(c["name"] for c in d["candidates"] if c["speedup"])' | cut -d' ' -f1-3)"
say "top 3: $T1 $T2 $T3; rank's pairs: $(j "$WORK/rank.json" '"; ".join(p["a"]+" vs "+p["b"]+": "+p["verdict"] for p in d["pairs"])')"
pair() { # A B: kerndiff A B (v1 A, v2 B) -> its verdict
    timeout 25 "$KD" --no-ncu --max-time 3 --json "$WORK/pair.json" "$HERE/$1" "$HERE/$2" >"$WORK/pair.txt" 2>&1
    j "$WORK/pair.json" 'd["runtime"]["verdict"] + " %.3f [%.3f, %.3f]" % (d["runtime"]["speedup"]["ratio"], d["runtime"]["speedup"]["ci_low"], d["runtime"]["speedup"]["ci_high"])' 2>/dev/null || echo "error"
}
for ab in "$T1 $T2" "$T2 $T3"; do
    set -- $ab
    v=$(pair "$1" "$2")
    rv=$(j "$WORK/rank.json" "[p['verdict'] for p in d['pairs'] if p['a'] == '$1' and p['b'] == '$2'][0]")
    bad=1
    case "$v" in
    faster*) bad=1 ;;                                                    # the lower-ranked one is faster
    slower*) bad=0 ;;                                                    # agrees: $1 faster
    "no significant difference"*) [ "$rv" = faster ] && bad=2 || bad=0 ;; # the rank called them apart
    esac
    check "order_$1_vs_$2" "$bad" "pairwise kerndiff $1 $2: v2 $v; rank: $rv"
done
v=$(pair base.cu "$T1")
in_rank=$(j "$WORK/rank.json" '"%.3f %.3f" % (d["candidates"][0]["speedup"]["ci_low"], d["candidates"][0]["speedup"]["ci_high"])')
ok=$(python3 -c "import sys; v=sys.argv[1].split(); lo,hi=map(float,sys.argv[2].split()); plo=float(v[-2].strip('[,')); phi=float(v[-1].strip(']')); print(0 if plo <= hi and lo <= phi else 1)" "$v" "$in_rank" 2>/dev/null || echo 1)
check speedup_vs_pairwise "$ok" "#1 $T1 against base: rank [$in_rank], pairwise v2 $v"
ngpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | wc -l)
if [ "$ngpu" -ge 2 ]; then
    timeout 60 "$KD" rank --gpus 0,1 --budget-ms 10000 --json "$WORK/rank2.json" "$HERE/base.cu" "$HERE"/r*.cu >"$WORK/rank2.txt" 2>&1
    rc=$?
    g=$(j "$WORK/rank2.json" '[len(c["gpus"]) for c in d["candidates"] if c["speedup"]][0], [c["name"] for c in d["candidates"]][0]' 2>/dev/null)
    check two_gpus "$([ "$rc" = 0 ] && [ "$g" = "(2, '$T1')" ]; echo $?)" "rank on GPUs 0,1: exit $rc, (GPUs per candidate, #1) = $g"
else
    say "skip two_gpus: $ngpu GPU"
fi
say "summary: $pass ok, $failed FAIL ($(( $(date +%s) - t0 )) s)"
[ "$failed" = 0 ]
