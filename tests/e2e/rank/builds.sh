# kerndiff rank races each candidate's own cubin (issue 32; found on the H100: fresh builds lie
# in the private folder's one build folder per side, which the next candidate's build wrote
# over, so every candidate raced the last-built one's cubin). A recorder in front of the
# simulated harness logs each `load cubin PATH` with a digest of the file at that moment; with
# an empty cache (every build fresh), the candidates' cubins loaded must be as many and as
# different as the candidates. Sourced by tests/e2e/rank.sh.
RB="$WORK/rank_builds"
mkdir -p "$RB/harness" "$RB/cache"
for k in 1 2 3; do
    printf '__global__ void scale(const float *in, float *out, int n)\n{\n    int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)\n        out[i] = in[i] * %d.0f;\n}\n' "$k" >"$RB/c$k.cu"
done
cp "$RB/c1.cu" "$RB/base.cu"
. "$ROOT/tests/e2e/protocol_recorder.sh"
record_protocol "$RB/harness" "$RB/proto.log" --per-child --cubin-digests
XDG_CACHE_HOME="$RB/cache" KERNDIFF_SIMULATE=1 KERNDIFF_HARNESS_DIR="$RB/harness" run rank_builds 0 -- \
    rank --max-rounds 5 "$RB/base.cu" "$RB/c1.cu" "$RB/c2.cu" "$RB/c3.cu"
# each child's second load is slot 1's: the candidate (the gate's children and the race's alike)
rb_digests=$(python3 - "$RB/proto.log" <<'PY'
import collections, sys
loads = collections.defaultdict(list)
for line in open(sys.argv[1]):
    w = line.split()
    if len(w) == 4 and w[1] == "cubin-digest":
        loads[w[0]].append(w[3])
cands = [v[1] for v in loads.values() if len(v) == 2]
race = cands[-3:]
print(len(set(race)), "missing" in race)
PY
)
if [ "$rb_digests" = "3 False" ]; then
    ok "rank_builds: the race loaded three different candidate cubins, each still there"
else fail "rank_builds: candidate cubins loaded (distinct, any missing): $rb_digests" "$RB/proto.log"; fi
