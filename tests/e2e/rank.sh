# Sourced by run.sh: kerndiff rank end to end through the simulated harness. Candidate i's
# spec is the (i+1)-th of KERNDIFF_SIMULATE="BASE;C1;C2;..." (the last serves the rest), in
# the order the candidates are given (a folder's files by name).
R_BASE=examples/vector_loads/v1.cu
R_DIR="$WORK/rank_cands"
mkdir -p "$R_DIR"
for i in 1 2 3 4 5 6; do cp examples/vector_loads/v2.cu "$R_DIR/cand$i.cu"; done
printf '__global__ void broken(float *x) { x[0] = ; }\n' >"$R_DIR/cand7.cu"
rjson() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
rexpect() { # NAME FILE EXPR WANT
    local got; got=$(rjson "$2" "$3" 2>&1)
    if [ "$got" = "$4" ]; then ok "$1: $3 = $4"; else fail "$1: $3 = '$got', wanted '$4'"; fi
}
# medians: cand1 80us, cand2 90us, cand3 78us (the best), cand4 120us (slower), cand5 wrong
# outputs, cand6 crashes in the race (its 30th sample), cand7 does not build
R_SPECS="median=100us,cv=1%,seed=5;median=80us,cv=1%;median=90us,cv=1%;median=78us,cv=1%;median=120us,cv=1%;median=50us,cv=1%,wrong=3;median=60us,cv=1%,crash_at=30;median=70us"
KERNDIFF_TRACE=1 KERNDIFF_SIMULATE="$R_SPECS" run rank_basic 0 -- rank --n 4096 --json "$WORK/rank.json" --markdown "$WORK/rank.md" "$R_BASE" "$R_DIR"
# the candidates were built ahead by rank's own workers: no gate forks a build ahead of its own
lacks rank_basic err 'build started beside'
rexpect rank_basic "$WORK/rank.json" '[c["name"] for c in d["candidates"] if c["rank"]][:3]' "['cand3.cu', 'cand1.cu', 'cand2.cu']"
rexpect rank_basic "$WORK/rank.json" '{c["name"]: c["status"] for c in d["candidates"]}["cand4.cu"]' slower
rexpect rank_basic "$WORK/rank.json" '{c["name"]: c["status"] for c in d["candidates"]}["cand5.cu"]' incorrect
rexpect rank_basic "$WORK/rank.json" '{c["name"]: c["status"] for c in d["candidates"]}["cand6.cu"]' run_failed
# issue 42: the A/A record (the installed one beside the tool) and each timed candidate's
# detectable change from its own corrected interval; none for one that was not timed
rexpect rank_basic "$WORK/rank.json" '[d["calibration"]["known"], d["calibration"]["aa_runs"] >= 1, d["calibration"]["min_detectable_pct"]["cand3.cu"] > 0, d["calibration"]["min_detectable_pct"]["cand6.cu"]]' "[True, True, True, None]"
has rank_basic out '^verdicts calibrated: [0-9]+ false in [0-9]+ A/A runs \(<= [0-9.]+% at 95%\)'
rexpect rank_basic "$WORK/rank.json" '{c["name"]: c["status"] for c in d["candidates"]}["cand7.cu"]' build_failed
rexpect rank_basic "$WORK/rank.json" '[c["status"] for c in d["candidates"]][:3]' "['faster', 'faster', 'faster']"
rexpect rank_basic "$WORK/rank.json" 'd["correction"], d["family"], d["candidates"][0]["speedup"]["corrected"]' "('bonferroni', 7, 'bonferroni')"
rexpect rank_basic "$WORK/rank.json" 'd["candidates"][0]["speedup"]["ci_low"] > 1.2 and d["candidates"][0]["static"]["registers"] > 0' True
rexpect rank_basic "$WORK/rank.json" '[c["samples"] for c in d["candidates"] if c["status"] in ("incorrect", "build_failed")]' "[0, 0]"
rexpect rank_basic "$WORK/rank.json" '"3 of 4096" in {c["name"]: c["reason"] for c in d["candidates"]}["cand5.cu"]' True
rexpect rank_basic "$WORK/rank.json" '[(p["a"], p["b"], p["verdict"]) for p in d["pairs"]][0]' "('cand3.cu', 'cand1.cu', 'faster')"
has rank_basic out 'Bonferroni-corrected for 7 candidates'
has rank_basic out '^ +1 +cand3\.cu +faster +1\.2[0-9]+x +\[1\.2'
has rank_basic out 'cand3\.cu vs cand1\.cu: cand3\.cu is faster'
has rank_basic out '^not timed:'
has rank_basic out 'cand5\.cu +incorrect +out: 3 of 4096'
# Issue 39: a candidate that does its work only on its first two launches (skip_after=2, the
# fastest by far) passes the check before timing, fails the gate's audits: incorrect, never
# ranked, its reason names the audit and the side that left its outputs as they were.
mkdir -p "$WORK/rank_cheat"
for i in 1 2 3; do cp examples/vector_loads/v2.cu "$WORK/rank_cheat/c$i.cu"; done
KERNDIFF_SIMULATE="median=100us,cv=1%;median=80us,cv=1%;median=20us,cv=1%,skip_after=2;median=90us,cv=1%" \
    run rank_cheat 0 -- rank --n 4096 --json "$WORK/rank_cheat.json" "$R_BASE" "$WORK/rank_cheat"
rexpect rank_cheat "$WORK/rank_cheat.json" '{c["name"]: c["status"] for c in d["candidates"]}["c2.cu"]' incorrect
# (how many of the 4096 differ: nearly all; a few random values fall within the audit's tolerance)
rexpect rank_cheat "$WORK/rank_cheat.json" '__import__("re").fullmatch(r"audit: out: 40[0-9][0-9] of 4096 \(4096 left as before by v2\)", {c["name"]: c["reason"] for c in d["candidates"]}["c2.cu"]) is not None' True
rexpect rank_cheat "$WORK/rank_cheat.json" '[c["name"] for c in d["candidates"] if c["rank"]]' "['c1.cu', 'c3.cu']"
# A candidate that cheats only after more launches than the gate's child makes (skip_after=24:
# the gate's warm-up, samples and audits stay below) is caught by the race's own audits, at
# the latest the one after its last block.
KERNDIFF_SIMULATE="median=100us,cv=1%;median=80us,cv=1%;median=20us,cv=1%,skip_after=24;median=90us,cv=1%" \
    run rank_race_cheat 0 -- rank --n 4096 --json "$WORK/rank_race.json" "$R_BASE" "$WORK/rank_cheat"
rexpect rank_race_cheat "$WORK/rank_race.json" '{c["name"]: (c["status"], (c["reason"] or "").split(":")[0]) for c in d["candidates"]}["c2.cu"]' "('incorrect', 'race audit')"
rexpect rank_race_cheat "$WORK/rank_race.json" '[c["name"] for c in d["candidates"] if c["rank"]]' "['c1.cu', 'c3.cu']"
# failures at the bottom: nothing timed after the first one that was not
if awk '/^not timed:/{n=1} n&&/ faster | slower | same /{bad=1} END{exit bad}' "$WORK/rank_basic.out"; then
    ok "rank_basic: failures listed after every timed candidate"; else fail "rank_basic: a timed row after the failures" "$WORK/rank_basic.out"; fi
if grep -q '^| 1 | `cand3.cu` | faster |' "$WORK/rank.md"; then ok "rank_basic: Markdown table, best first"
else fail "rank_basic: Markdown" "$WORK/rank.md"; fi

# A/A: identical candidates are none of them faster or slower
KERNDIFF_SIMULATE="median=50us,cv=1%,seed=3" run rank_aa 0 -- rank --n 4096 --json "$WORK/rank_aa.json" "$R_BASE" "$R_DIR/cand1.cu" "$R_DIR/cand2.cu" "$R_DIR/cand3.cu" "$R_DIR/cand4.cu"
rexpect rank_aa "$WORK/rank_aa.json" 'sorted(set(c["status"] for c in d["candidates"]))' "['same']"
has rank_aa out 'no significant difference'

# Heats: --shard I/N writes heat I; the shards partition the candidates, each raced as in
# the one-process --heats N rank with the same seed (H32b's --merge makes the report of them)
KERNDIFF_SIMULATE="$R_SPECS" run rank_heats 0 -- rank --n 4096 --heats 3 --seed 7 --json "$WORK/rank_h.json" "$R_BASE" "$R_DIR"
for i in 0 1 2; do
    KERNDIFF_SIMULATE="$R_SPECS" run rank_shard$i 0 -- rank --n 4096 --shard $i/3 --seed 7 --json "$WORK/shard$i.json" "$R_BASE" "$R_DIR"
done
python3 - "$WORK/rank_h.json" "$WORK"/shard0.json "$WORK"/shard1.json "$WORK"/shard2.json >"$WORK/rank_heats.check" 2>&1 <<'PY'
import json, sys
one = json.load(open(sys.argv[1]))
seen = {}
for i, path in enumerate(sys.argv[2:]):
    h = json.load(open(path))
    assert h["heat"] == i and h["heats"] == 3 and h["seed"] == "7" and h["family"] == 7, (path, h["heat"])
    for c in h["candidates"]:
        assert c["name"] not in seen, c["name"]
        seen[c["name"]] = (i, sum(len(g["cand"]) for g in c["gpus"]), c["gate"])
assert len(seen) == 7, seen
for c in one["candidates"]:
    heat, n, gate = seen[c["name"]]
    assert c["heat"] == heat, (c["name"], c["heat"], heat)
    assert c["samples"] == n, (c["name"], c["samples"], n)
print("ok")
PY
if grep -qx ok "$WORK/rank_heats.check"; then ok "rank_heats: 3 shards partition the candidates; each heat's samples equal the one-process rank's"
else fail "rank_heats: shards against the one-process rank" "$WORK/rank_heats.check"; fi

# Usage and input errors
# Rank's outputs are checked as every command's are, from its row (cli/command.h; issue 44):
# `--html victim.cu BASE CAND` wrote HTML over victim.cu with exit 0 before rank had a row;
# two documents on stdout ran into each other; --csv (rank has no CSV form) was ignored.
R_OUT="$WORK/rank_out"
mkdir -p "$R_OUT"
printf '// not a report\n' >"$R_OUT/victim.cu"
cp "$R_OUT/victim.cu" "$R_OUT/victim.orig"
run rank_html_victim 2 -- rank --html "$R_OUT/victim.cu" "$R_BASE" "$R_DIR/cand1.cu"
has rank_html_victim err "^kerndiff: --html would write a report to '.*victim\.cu', whose extension \(\.cu\) is a source file's"
if cmp -s "$R_OUT/victim.cu" "$R_OUT/victim.orig"; then ok "rank_html_victim: victim.cu untouched"
else fail "rank_html_victim: victim.cu was written" "$R_OUT/victim.cu"; fi
run rank_two_stdout 2 -- rank --json - --markdown - "$R_BASE" "$R_DIR/cand1.cu"
has rank_two_stdout err "^kerndiff: --json and --markdown both write to standard output"
lacks rank_two_stdout out 'kerndiff'
run rank_csv 2 -- rank --csv "$R_OUT/r.csv" "$R_BASE" "$R_DIR/cand1.cu"
has rank_csv err "^kerndiff: --csv is not an option of kerndiff rank \(its outputs: --json, --save, --markdown, --html\)$"
lacks rank_csv err 'gate|race|built'
if [ ! -e "$R_OUT/r.csv" ]; then ok "rank_csv: no file"; else fail "rank_csv: a CSV was written"; fi
run rank_trace 2 -- rank --trace "$R_OUT/t.json" "$R_BASE" "$R_DIR/cand1.cu"
has rank_trace err "^kerndiff: --trace is not an option of kerndiff rank"
# An option of a group rank's row does not accept is refused naming it, not ignored.
run rank_regions 2 -- rank --regions "$R_BASE" "$R_DIR/cand1.cu"
has rank_regions err "^kerndiff: --regions is not an option of kerndiff rank BASE CAND\.\.\. \(its options: kerndiff help rank\)$"
lacks rank_regions err "^Try 'kerndiff --help'"
run rank_no_cands 2 -- rank "$R_BASE"
has rank_no_cands err 'no candidate given'
run rank_heats_elsewhere 2 -- --heats 2 "$R_BASE" "$R_DIR/cand1.cu"
has rank_heats_elsewhere err 'heats belongs to kerndiff rank'
run rank_bad_shard 2 -- rank --shard 3/3 --json "$WORK/x.json" "$R_BASE" "$R_DIR/cand1.cu"
has rank_bad_shard err 'shard wants I/N'
run rank_shard_needs_json 2 -- rank --shard 0/2 "$R_BASE" "$R_DIR/cand1.cu"
has rank_shard_needs_json err 'give --json FILE'
run rank_bad_gpus 2 -- rank --gpus 0,0 "$R_BASE" "$R_DIR/cand1.cu"
mkdir -p "$WORK/rank_empty"
run rank_empty_dir 3 -- rank "$R_BASE" "$WORK/rank_empty"
has rank_empty_dir err 'holds no kernel file'
run rank_no_base 3 -- rank "$WORK/missing.cu" "$R_DIR/cand1.cu"
has rank_no_base err 'baseline cannot be used'

# --gpus: one child per GPU, every candidate's rounds split over them, a ratio per GPU
KERNDIFF_SIMULATE="median=100us,cv=1%;median=80us,cv=1%" run rank_gpus 0 -- rank --n 4096 --gpus 0,1 --json "$WORK/rank_gpus.json" "$R_BASE" "$R_DIR/cand1.cu" "$R_DIR/cand2.cu"
rexpect rank_gpus "$WORK/rank_gpus.json" '[len(c["gpus"]) for c in d["candidates"]], [g["gpu"] for g in d["candidates"][0]["gpus"]]' "([2, 2], [0, 1])"
# the true speedup is 1.25; each GPU's interval is a Bonferroni-corrected 99.5% one of a
# short race, whose low end was seen as low as 1.18 (a bound of 1.2 failed CI once)
rexpect rank_gpus "$WORK/rank_gpus.json" 'all(1.2 < g["speedup"]["median"] < 1.31 and 1.1 < g["speedup"]["ci_low"] < g["speedup"]["median"] for c in d["candidates"] for g in c["gpus"])' True
has rank_gpus out 'on GPU 1 '

# A folder of candidates that holds the baseline too: the baseline is not its own candidate
cp "$R_BASE" "$R_DIR/base.cu"
KERNDIFF_SIMULATE="median=100us,cv=1%" run rank_base_in_dir 0 -- rank --n 4096 --max-rounds 5 --json "$WORK/rank_bd.json" "$R_DIR/base.cu" "$R_DIR"
rexpect rank_base_in_dir "$WORK/rank_bd.json" '"base.cu" in [c["name"] for c in d["candidates"]], len(d["candidates"])' "(False, 7)"
rm -f "$R_DIR/base.cu"

# The race loads each candidate's own build (tests/e2e/rank/builds.sh)
. "$ROOT/tests/e2e/rank/builds.sh"

# Builds ahead of the gate on several cores (--jobs), git refs as candidates (tests/e2e/rank/parallel.sh)
. "$ROOT/tests/e2e/rank/parallel.sh"

# Simulated multi-GPU, one device slower: per-GPU ratios and the same order (tests/e2e/rank/devices.sh)
. "$ROOT/tests/e2e/rank/devices.sh"
