# Sourced by run.sh: the region pass (--regions, --trace) end to end through the simulated
# harness, whose `regions` command writes synthetic records (regions=C1+C2: region 1 lasts
# C1 cycles, region 2 C2), and the zero cost of markers in a plain build.
R1=examples/regions/v1.cu R2=examples/regions/v2.cu
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000;median=700us,cv=0.3%,regions=2000+20000" \
    run regions 0 -- --regions --trace "$WORK/trace.json" --json="$WORK/regions.json" "$R1" "$R2"
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000;median=700us,cv=0.3%,regions=2000+20000" \
    run regions_text 0 -- --regions --trace "$WORK/trace.json" "$R1" "$R2"
has regions_text out '^regions: cycles per instance, median \[p10-p90\]; a record.s cost subtracted \(v1 30, v2 30 cycles'
has regions_text out '^  load +(8|9)[0-9]{3} \[[0-9]+-[0-9]+\] +(19|20)[0-9]{2} \[[0-9]+-[0-9]+\]  -7[0-9]\.[0-9]% \(beyond launch-to-launch noise\)$'
has regions_text out '^  mma +.*[-+]0\.[0-9]% \(within launch-to-launch noise\)$'
# The example's grid (4096 blocks) is sampled: one block in 8 records (the simulated grid has 16).
has regions_text out '^  instrumented vs plain time per launch: v1 [-+][0-9.]+%( \([^)]*\))?; v2 [-+][0-9.]+%( \([^)]*\))?; 5 launches, 4 \+ 4 warps recorded, from blocks: v1 2 of 16 \(1 in 8\), v2 2 of 16 \(1 in 8\); --region-blocks all records every block; SM clock while recording \(%globaltimer\): v1 1500 MHz, v2 1500 MHz$'
# v1's predicated markers (36 -> 42 registers on sm_90) would cost it a block per SM: its
# sampled build branches instead. v2 (50 registers either way) runs its 4096 blocks, 1 in 8
# recording, in more than one wave of the simulated GPU's 132 SMs x 4 blocks: it branches too,
# for that reason, decided after the timing reported the SM count.
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000" \
    run regions_branched 0 -- -v --regions --json="$WORK/regions_branched.json" "$R1" "$R2"
has regions_branched err '^\[kerndiff +[0-9.]+s\] v1 instrumented build: 5 blocks per SM against the plain build.s 6; with branching markers 6, kept$'
has regions_branched err '^\[kerndiff +[0-9.]+s\] v2 instrumented build: 4096 blocks, 1 in 8 recording, more than a wave \(132 SMs x 4 blocks\); with branching markers, kept$'
has regions_branched out 'v1 [-+][0-9.]+% \(markers branch around the record in the blocks that do not record: predicated there, they cost blocks per SM; a record costs more this way\); v2 [-+][0-9.]+% \(markers branch around the record in the blocks that do not record: in a grid of more than one wave, predicated markers cost those blocks more than the branch costs the recording ones\); '
if python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["regions"]["sides"]; p=[x["profile"] for x in s]; sys.exit(not (p[0]["branched_markers"] is True and p[0]["branched_because"] == "blocks_per_sm" and p[1]["branched_markers"] is True and p[1]["branched_because"] == "waves" and p[0]["instrumented_blocks_per_sm"] == p[0]["plain_blocks_per_sm"]))' "$WORK/regions_branched.json" 2>"$WORK/regions_branched.err"; then
    ok "regions_branched: JSON branched_markers and branched_because for each side, v1 at the plain build's blocks per SM"; else
    fail "regions_branched: JSON branched_markers" "$WORK/regions_branched.err"; fi
# One wave (256 blocks, 1 in 2 recording, against 132 x 4): v2's markers stay predicated,
# which is cheaper for the recording warps that then set the launch's time.
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000" \
    run regions_one_wave 0 -- -v --regions --region-blocks 2 --grid 256 --json="$WORK/regions_one_wave.json" "$R1" "$R2"
lacks regions_one_wave err 'v2 instrumented build: .*more than a wave'
has regions_one_wave out 'v1 [-+][0-9.]+% \(markers branch around the record in the blocks that do not record: predicated there, they cost blocks per SM; a record costs more this way\); v2 [-+][0-9.]+%; '
if python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["regions"]["sides"][1]["profile"]; sys.exit(not (p["branched_markers"] is False and "branched_because" not in p and p["block_stride"] == 2))' "$WORK/regions_one_wave.json" 2>"$WORK/regions_one_wave.err"; then
    ok "regions_one_wave: v2 predicated in JSON, no branched_because, 1 block in 2"; else
    fail "regions_one_wave: JSON" "$WORK/regions_one_wave.err"; fi
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000" \
    run regions_all_blocks 0 -- -v --regions --region-blocks all --json="$WORK/regions_all.json" "$R1" "$R2"
has regions_all_blocks out '; 5 launches, 32 \+ 32 warps recorded; SM clock while recording \(%globaltimer\): v1 1500 MHz, v2 1500 MHz$'
# The example's v1 sits at a register boundary: every block's record context costs it a block per SM.
has regions_all_blocks out "v1 [-+][0-9.]+% \(the instrumented build: 4[1-9] registers a thread against 40, 5 blocks per SM against 6\)"
# Markers built without the sampling branch are another build, not the sampled one from the cache.
has regions_all_blocks err 'v1 instrumented build$'
lacks regions_all_blocks out 'markers branch'
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["regions"]["sides"][0]["profile"]; sys.exit(not (r["block_stride"] == 1 and r["blocks_recorded"] == 16 and r["blocks"] == 16))' "$WORK/regions_all.json" 2>"$WORK/regions_all.err"; then
    ok "regions_all_blocks: the JSON says every block of 16 recorded"; else
    fail "regions_all_blocks: JSON block fields" "$WORK/regions_all.err"; fi
run regions_bad_blocks 2 -- --region-blocks 3 "$R1" "$R2"
has regions_bad_blocks err "^kerndiff: --region-blocks wants a power of two \(record one block in N\), 'all' or 'auto', got '3'"
# The trace's slices are in ns at the SM clock the headers measured (1500 MHz): v1's
# 9000-cycle load lasts 6 us, whatever clock the timing pass reported.
if python3 -c 'import json,statistics,sys; d=json.load(open(sys.argv[1])); sys.exit(not 5.9 < statistics.median(e["dur"] for e in d["traceEvents"] if e.get("ph")=="X" and e["name"]=="load" and e["pid"]==1) < 6.1)' "$WORK/trace.json"; then
    ok "regions: the trace converts cycles with the clock measured while recording (9000 cycles, 6 us)"; else
    fail "regions: trace durations at the measured clock"; fi
# 4 warps x 4 instances of each region, per side, in the traced launch.
if python3 tests/e2e/check_trace.py "$WORK/trace.json" load=32 mma=32 >"$WORK/trace_check.txt" 2>&1; then
    ok "regions: the trace has both processes, named warps and every slice"; else
    fail "regions: trace" "$WORK/trace_check.txt"; fi

# Warp groups (KD_REGION_GROUP): the first warp of each run of 2 records for the run; the
# table shows each region's group, the overhead line the groups and how many warps recorded,
# the JSON and the trace the same.
G=tests/e2e/fixtures/region_groups.cu
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000,region_group=1:2;median=700us,cv=0.3%,regions=2000+20000,region_group=1:2" \
    run regions_groups 0 -- --regions --trace "$WORK/groups_trace.json" --json="$WORK/groups.json" --markdown="$WORK/groups.md" "$G" "$G"
has regions_groups out '^  load \[consumer\] +(8|9)[0-9]{3} \[[0-9]+-[0-9]+\] +(19|20)[0-9]{2} \[[0-9]+-[0-9]+\]  -7[0-9]\.[0-9]% \(beyond'
has regions_groups out '^  mma \[consumer\] '
has regions_groups out '; 5 launches, 16 \+ 16 warps recorded \(of 32 \+ 32 in the recording blocks\); warp groups, the first warp of each run recording for it: consumer \(runs of 2 warps\); SM clock while recording \(%globaltimer\): v1 1500 MHz, v2 1500 MHz$'
has regions_groups out '^  instrumented vs plain'
if python3 - "$WORK/groups.json" >"$WORK/groups_json.err" 2>&1 <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))["regions"]["sides"][1]["profile"]
assert p["groups"] == [{"name": "consumer", "warps": 2, "recording_warps": 16}], p["groups"]
assert [(r["name"], r["group"]) for r in p["regions"]] == [("load", "consumer"), ("mma", "consumer")], p["regions"]
assert p["recording_warps"] == 16 and p["warps"] == 32, p
PY
then ok "regions_groups: the JSON names each region's group, the group's runs and its 16 recording warps"; else
    fail "regions_groups: JSON groups" "$WORK/groups_json.err"; fi
if grep -q '^| `load \[consumer\]` |' "$WORK/groups.md"; then ok "regions_groups: Markdown rows carry the group"; else
    fail "regions_groups: Markdown rows" "$WORK/groups.md"; fi
if python3 tests/e2e/check_trace.py "$WORK/groups_trace.json" load=128 mma=128 >"$WORK/groups_trace.txt" 2>&1 &&
    python3 -c 'import json,sys; names={e["args"]["name"] for e in json.load(open(sys.argv[1]))["traceEvents"] if e.get("name")=="thread_name"}; sys.exit(not names or not all(n.endswith(" / consumer (warps 0-1)") for n in names))' "$WORK/groups_trace.json"; then
    ok "regions_groups: the trace's tracks are the recording warps, named by their group"; else
    fail "regions_groups: trace" "$WORK/groups_trace.txt"; fi
# A group's name is an identifier (the plain build drops the marker, so the scan says so).
printf '#include <kerndiff/regions.h>\n__global__ void k(float *x) { KD_REGION_GROUP(2x, 4); KD_REGION(a); x[0] = 1; }\n' >"$WORK/badgroup.cu"
run regions_bad_group 3 -- --regions "$WORK/badgroup.cu" "$WORK/badgroup.cu"
has regions_bad_group err '^kerndiff: v1: a warp group needs an identifier and its warps \(KD_REGION_GROUP\(name, 4\)\): KD_REGION_GROUP\(2x, 4\)'

# kerndiff compare diffs the saved runs' regions (v2 of each: OLD's 2000-cycle load against
# NEW's), with their groups; a saved run keeps no instances, so no trace and no timeline.
KERNDIFF_SIMULATE="median=900us,cv=0.3%,regions=9000+20000;median=900us,cv=0.3%,regions=9000+20000" \
    run regions_saved_slow 0 -- --regions --save "$WORK/regions_slow.json" "$R1" "$R1"
run regions_compare 0 -- compare --html "$WORK/regions_compare.html" "$WORK/regions.json" "$WORK/regions_slow.json"
has regions_compare out '^  load +(19|20)[0-9]{2} \[[0-9]+-[0-9]+\] +(8|9)[0-9]{3} \[[0-9]+-[0-9]+\]  \+3[0-9]{2}\.[0-9]% \(beyond launch-to-launch noise\)$'
has regions_compare out '^  instrumented vs plain time per launch: v1 '
if grep -q 'No timeline: saved runs keep the region table' "$WORK/regions_compare.html"; then
    ok "regions_compare: the HTML says why a saved run has no timeline"; else
    fail "regions_compare: HTML timeline note" "$WORK/regions_compare.html"; fi
run regions_groups_saved 0 -- compare "$WORK/groups.json" "$WORK/groups.json"
has regions_groups_saved out '^  load \[consumer\] '
has regions_groups_saved out 'warp groups, the first warp of each run recording for it: consumer \(runs of 2 warps\); SM clock while recording \(%globaltimer\): v1 1500 MHz, v2 1500 MHz$'
# Why the markers branched survives a saved run (v2 of each: the wave rule); a run saved
# before the reason was written branched for blocks per SM, the only reason there was; a
# reason that is not one is refused with its path.
run regions_branched_saved 0 -- compare "$WORK/regions_branched.json" "$WORK/regions_branched.json"
has regions_branched_saved out 'v2 [-+][0-9.]+% \(markers branch around the record in the blocks that do not record: in a grid of more than one wave'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); del d["regions"]["sides"][1]["profile"]["branched_because"]; json.dump(d, open(sys.argv[2], "w"))' "$WORK/regions_branched.json" "$WORK/regions_branched_old.json"
run regions_branched_older 0 -- compare "$WORK/regions_branched_old.json" "$WORK/regions_branched_old.json"
has regions_branched_older out 'v2 [-+][0-9.]+% \(markers branch around the record in the blocks that do not record: predicated there, they cost blocks per SM'
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["regions"]["sides"][1]["profile"]["branched_because"] = 7; json.dump(d, open(sys.argv[2], "w"))' "$WORK/regions_branched.json" "$WORK/regions_branched_bad.json"
run regions_branched_bad 3 -- compare "$WORK/regions_branched_bad.json" "$WORK/regions_branched.json"
has regions_branched_bad err 'regions\.sides\[1\]\.profile\.branched_because: must be "blocks_per_sm" or "waves"'
KERNDIFF_SIMULATE="median=900us,cv=0.3%" run regions_saved_none 0 -- --json="$WORK/noregions.json" "$R1" "$R2"
run regions_compare_one 0 -- compare "$WORK/noregions.json" "$WORK/regions.json"
has regions_compare_one out "^regions not compared: OLD's run has none \(record both runs with --regions\)$"
run regions_compare_trace 2 -- compare --trace "$WORK/t.json" "$WORK/regions.json" "$WORK/regions.json"
has regions_compare_trace err "^kerndiff: --trace draws a run's region instances, which a saved run does not keep"

# A side without markers: the diff goes on, with a note that says how to add them.
KERNDIFF_SIMULATE="median=50us" run regions_none 0 -- --regions examples/vector_loads/v1.cu examples/vector_loads/v2.cu
has regions_none out '^regions not recorded: v1 has no region markers \(#include <kerndiff/regions.h>'
# A marker whose name is not an identifier is an input error naming the side.
printf '#include <kerndiff/regions.h>\n__global__ void k(float *x) { KD_REGION_BEGIN(2fast); x[0] = 1; KD_REGION_END(2fast); }\n' >"$WORK/badregion.cu"
run regions_bad_name 3 -- --regions "$WORK/badregion.cu" "$WORK/badregion.cu"
has regions_bad_name err '^kerndiff: v1: a region marker needs an identifier: KD_REGION_BEGIN\(2fast\)'
run regions_bad_records 2 -- --region-records 100 "$R1" "$R2"
has regions_bad_records err 'power of two'

# Zero cost when off: a file with markers builds to the same SASS as the file without them
# (the markers' lines blanked, so line numbers stay), with kerndiff's own flags.
sed -E 's/^ *KD_REGION_(BEGIN|END)\([a-z]+\);$//' "$R2" >"$WORK/plain_regions.cu"
for f in "$R2" "$WORK/plain_regions.cu"; do
    nvcc -arch=sm_90 -lineinfo -cubin -Iinclude -o "$WORK/$(basename "$f" .cu).cubin" "$f" >"$WORK/zero_cost.err" 2>&1
done
# The instrumented build's KD_REGION_KEEP: a register-only FMA chain stays inside its region
# (5 regions of 16 FFMAs between clock reads: the 4 of the unrolled loop and its remainder).
# Without it the compiler is free to move the chain past the END marker. The same for an array.
K=tests/e2e/fixtures/region_keep.cu
sed '/KD_REGION_KEEP(v);/d' "$K" >"$WORK/region_nokeep.cu"
for f in "$K" "$WORK/region_nokeep.cu" tests/e2e/fixtures/region_keep_array.cu; do
    nvcc -arch=sm_90 -cubin -O3 -Iinclude -DKERNDIFF_REGIONS -DKD_REGION_ID_step=1 \
        -o "$WORK/$(basename "$f" .cu).cubin" "$f" >>"$WORK/region_keep.err" 2>&1
done
if command -v cuobjdump >/dev/null; then
    sass() { cuobjdump -sass "$1" 2>>"$WORK/sass.err" | grep -E '^\s+/\*[0-9a-f]{4}\*/'; }
    sass "$WORK/v2.cubin" >"$WORK/with.sass"
    sass "$WORK/plain_regions.cubin" >"$WORK/without.sass"
    if [ -s "$WORK/with.sass" ] && cmp -s "$WORK/with.sass" "$WORK/without.sass"; then
        ok "regions: markers cost nothing when off ($(wc -l <"$WORK/with.sass") SASS instructions, identical)"; else
        fail "regions: markers change the plain build's SASS" "$WORK/zero_cost.err"; fi
    gaps() { sass "$1" | awk '/SR_CLOCKLO/ { if (n == 16) full++; n = 0; next } /FFMA/ { n++ } END { print full + 0 }'; }
    kept=$(gaps "$WORK/region_keep.cubin") loose=$(gaps "$WORK/region_nokeep.cubin")
    if [ "$kept" = 5 ]; then
        ok "regions: KD_REGION_KEEP keeps an FMA chain inside its 5 regions (without it: $loose of 5)"; else
        fail "regions: KD_REGION_KEEP left $kept of 5 regions with their 16 FMAs" "$WORK/region_keep.err"; fi
    kept=$(gaps "$WORK/region_keep_array.cubin")
    if [ "$kept" = 5 ]; then
        ok "regions: KD_REGION_KEEP keeps an array's FMA chain inside its 5 regions"; else
        fail "regions: KD_REGION_KEEP left $kept of 5 regions with an array's 16 FMAs" "$WORK/region_keep.err"; fi
else
    fail "regions: zero-cost and KD_REGION_KEEP checks need cuobjdump (pip install nvidia-cuda-cuobjdump)"
fi
