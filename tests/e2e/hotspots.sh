# Sourced by run.sh: the hot-spot diff (--hotspots, docs/HOTSPOTS.md) without a GPU. The
# simulated harness answers `hotspots` with a made-up record of the side's kernel (eight PCs
# 16 bytes apart, the first weighted by the simulated median); nvdisasm lists the real cubin,
# so the lines and their texts are the file's. The diff's rules are tested in
# tests/unit/test_hotspots.c, real PC sampling by tests/gpu/hotspots.sh.
A=examples/vector_loads/v1.cu B=examples/vector_loads/v2.cu
hs_json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
hs_expect() { # NAME FILE EXPR WANT
    local got; got=$(hs_json "$2" "$3" 2>&1)
    if [ "$got" = "$4" ]; then ok "$1: $3 = $4"; else fail "$1: $3 = '$got', wanted '$4'"; fi
}
hs_valid() { # NAME FILE
    if python3 tests/e2e/validate_json.py docs/json-schema.json "$2" >"$WORK/$1_valid.err" 2>&1; then
        ok "$1: JSON valid against the schema"; else fail "$1: schema" "$WORK/$1_valid.err"; fi
}

run hs_period_low 2 -- --hotspots-period 4 "$A" "$B"
has hs_period_low err "--hotspots-period wants a whole number from 5 to 31 \(2\^N cycles\), got '4'"
run hs_period_frac 2 -- --hotspots-period 7.5 "$A" "$B"
has hs_period_frac err "--hotspots-period wants a whole number from 5 to 31"
run hs_help 0 -- --help
has hs_help out '^  --hotspots +where inside the kernel the time moved'
has hs_help out '^  --hotspots-period N +2\^N cycles between samples'

KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=50us,cv=0.5%" run hs_sim 0 -- --n 64K --hotspots --json="$WORK/hs_sim.json" \
    --markdown="$WORK/hs_sim.md" --html="$WORK/hs_sim.html" "$A" "$B"
has hs_sim out '^v2 is [0-9.]+x faster'
if grep -q 'could not be listed with nvdisasm' "$WORK/hs_sim.out"; then
    # No nvdisasm here (pip install nvidia-cuda-nvdisasm): said, and the rest of the report stands.
    has hs_sim out '^v1: no hot spots: its cubin could not be listed with nvdisasm'
    hs_expect hs_sim "$WORK/hs_sim.json" 'd["hotspots"]["problem"]["step"]' nvdisasm
    echo "note: nvdisasm not found; the hot-spot rows were not checked"
else
    has hs_sim out '^Where the time moved \(PC samples: v1 1700, v2 1200; lines by the change in their share\)$'
    # PC 0 is the kernel's first line on both sides (the same text, moved down 3 lines in v2).
    has hs_sim out '^  line [0-9]+ -> [0-9]+ `__global__ void saxpy\(.*: 59% -> 42% of samples, long scoreboard -> long scoreboard$'
    hs_expect hs_sim "$WORK/hs_sim.json" 'd["hotspots"]["samples"]' '[1700, 1200]'
    hs_expect hs_sim "$WORK/hs_sim.json" 'd["hotspots"]["lines"][0]["match"]' same_line
    hs_expect hs_sim "$WORK/hs_sim.json" 'd["hotspots"]["lines"][0]["v1"]["reason"]' long_scoreboard
    hs_expect hs_sim "$WORK/hs_sim.json" 'round(d["hotspots"]["lines"][0]["delta"], 3)' -0.172
    hs_expect hs_sim "$WORK/hs_sim.json" 'd["hotspots"]["lines"][0]["instructions"][0]["v1"]["offset"]' 0
    hs_expect hs_sim "$WORK/hs_sim.json" '"problem" in d["hotspots"]' False
    if grep -q '^| line | source | v1 | v2 | change | stall reason (v1 -> v2) |$' "$WORK/hs_sim.md" &&
        grep -Eq '^\| line [0-9]+ -> [0-9]+ \| `__global__ void saxpy\(.*\| 59% \| 42% \| -17 pp \| long scoreboard -> long scoreboard \|$' "$WORK/hs_sim.md"
    then ok "hs_sim: Markdown table"; else fail "hs_sim: Markdown table" "$WORK/hs_sim.md"; fi
    if grep -q '<section class="hotspots">' "$WORK/hs_sim.html" && grep -q '<table class="hotspots-source">' "$WORK/hs_sim.html" &&
        grep -q 'aria-label="v1 58.8%"' "$WORK/hs_sim.html"; then ok "hs_sim: HTML annotated source with bars"
    else fail "hs_sim: HTML annotated source" "$WORK/hs_sim.html"; fi
fi
hs_expect hs_sim "$WORK/hs_sim.json" 'd["runtime"]["verdict"]' faster
hs_valid hs_sim "$WORK/hs_sim.json"

# A side run through a custom launcher has no cubin to list: said, in the JSON too; the rest stands.
KERNDIFF_SIMULATE="median=300us;median=100us" run hs_launcher 0 -- --n 64K --hotspots --json="$WORK/hs_launcher.json" \
    examples/fusion/v1.cu examples/fusion/v2.cu
has hs_launcher out '^v1: no hot spots: its kernel is loaded through a launcher, not from a cubin'
hs_expect hs_launcher "$WORK/hs_launcher.json" 'd["hotspots"]["problem"]["step"]' not_cubin
hs_expect hs_launcher "$WORK/hs_launcher.json" 'd["hotspots"]["problem"]["side"]' v1
hs_valid hs_launcher "$WORK/hs_launcher.json"

# Not asked: nothing said, no JSON key.
KERNDIFF_SIMULATE="median=100us,cv=0.5%;median=80us,cv=0.5%" run hs_off 0 -- --n 64K --json="$WORK/hs_off.json" "$A" "$B"
lacks hs_off out 'hot spots|Where the time moved'
hs_expect hs_off "$WORK/hs_off.json" '"hotspots" in d' False
