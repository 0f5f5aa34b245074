# A captured cluster launch is replayed in the program's clusters (issue 30; docs/PROTOCOL.md
# `geometry ... CX CY CZ`): the launch line says so, and every harness child is told the
# cluster. The capture is tests/e2e/capture/copy.kdcap with its manifest's grid made 2 and its
# cluster 2x1x1 (same lengths; the manifest's and the header's checksums redone), as a
# cudaLaunchKernelEx launch with a cluster attribute would be captured.
CL_CAP="$WORK/cap_cluster/cluster.kdcap"
CL_V1="$WORK/cap_cluster/v1.cu"
mkdir -p "$WORK/cap_cluster/harness"
cat >"$CL_V1" <<'CU'
__global__ void copy(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}
CU
if python3 - "$ROOT/tests/e2e/capture/copy.kdcap" "$CL_CAP" <<'PY'
import struct, sys, zlib
b = bytearray(open(sys.argv[1], "rb").read())
m, size = struct.unpack_from("<QQ", b, 16)
man = bytes(b[m:m + size])
for old, new in ((b"\ngrid 1 1 1\n", b"\ngrid 2 1 1\n"), (b"\ncluster 0 0 0\n", b"\ncluster 2 1 1\n")):
    assert man.count(old) == 1, old
    man = man.replace(old, new)
b[m:m + size] = man
struct.pack_into("<I", b, 40, zlib.crc32(man))
struct.pack_into("<I", b, 60, zlib.crc32(bytes(b[:60])))
open(sys.argv[2], "wb").write(b)
PY
then ok "cap_cluster: a cluster capture made from copy.kdcap"; else fail "cap_cluster: making the cluster capture"; fi

# A recorder of what kerndiff tells each harness child, in front of the simulated harness
. "$ROOT/tests/e2e/protocol_recorder.sh"
record_protocol "$WORK/cap_cluster/harness" "$WORK/cap_cluster/proto.log"

# The launch line names the cluster; the old "not replayed" note is gone; both sides still
# compute what the program computed (the cluster reached the simulated harness, which ignores it).
KERNDIFF_SIMULATE="copy=all" KERNDIFF_HARNESS_DIR="$WORK/cap_cluster/harness" run cap_cluster 0 -- \
    --launch "$CL_CAP" --max-time 1 "$CL_V1" "$CL_V1"
has cap_cluster out '^  v1, v2: grid 2 \(captured\)  block 64 \(captured\)  smem 0 B \(captured\)  cluster 2x1x1 \(captured\)$'
lacks cap_cluster out 'not replayed|without clusters'
has cap_cluster out '^v1 still computes what the program computed \(1 buffer, bit for bit\)$'
has cap_cluster out '^v2 still computes what the program computed \(1 buffer, bit for bit\)$'
# every child (the timing one holds both slots; each side's own check child) is told the cluster
cl_geoms=$(grep -c '^geometry 2 1 1 64 1 1 0 2 1 1$' "$WORK/cap_cluster/proto.log" 2>/dev/null)
cl_plain=$(grep -Ec '^geometry( [0-9]+){7}$' "$WORK/cap_cluster/proto.log" 2>/dev/null)
if [ "${cl_geoms:-0}" -ge 4 ] && [ "${cl_plain:-0}" -eq 0 ]; then
    ok "cap_cluster: every geometry sent carries the cluster ($cl_geoms lines)"
else fail "cap_cluster: geometry lines sent (with cluster ${cl_geoms:-0}, without ${cl_plain:-0})" "$WORK/cap_cluster/proto.log"; fi

# A launch without clusters sends the geometry as before (an older harness reads it) and says no cluster
rm -f "$WORK/cap_cluster/proto.log"
KERNDIFF_SIMULATE="copy=all" KERNDIFF_HARNESS_DIR="$WORK/cap_cluster/harness" run cap_nocluster 0 -- \
    --launch "$ROOT/tests/e2e/capture/copy.kdcap" --max-time 1 "$CL_V1" "$CL_V1"
lacks cap_nocluster out ' cluster [0-9]'
if grep -q '^geometry 1 1 1 64 1 1 0$' "$WORK/cap_cluster/proto.log" 2>/dev/null &&
    ! grep -Eq '^geometry( [0-9]+){10}$' "$WORK/cap_cluster/proto.log"; then
    ok "cap_nocluster: geometry without cluster words"
else fail "cap_nocluster: geometry lines" "$WORK/cap_cluster/proto.log"; fi

# The harness protocol itself: a cluster that does not divide the grid, or has a 0, is refused
cl_replies=$(printf 'geometry 4 1 1 64 1 1 0 2 1 1\ngeometry 4 1 1 64 1 1 0 3 1 1\ngeometry 4 1 1 64 1 1 0 2 0 1\ngeometry 4 1 1 64 1 1 0 0 0 0\ngeometry 4 1 1 64 1 1 0 2 1\nquit\n' |
    KERNDIFF_SIMULATE=1 "$(dirname "$KD")/kerndiff-sim-harness" 2>&1)
if [ "$(printf '%s\n' "$cl_replies" | sed -n 1p)" = "ok geometry cluster=2x1x1" ] &&
    printf '%s\n' "$cl_replies" | sed -n 2p | grep -q '^err protocol geometry: the grid 4x1x1 is not made of clusters of 3x1x1' &&
    printf '%s\n' "$cl_replies" | sed -n 3p | grep -q '^err protocol geometry: .*clusters of 2x0x1' &&
    [ "$(printf '%s\n' "$cl_replies" | sed -n 4p)" = "ok geometry" ] &&
    printf '%s\n' "$cl_replies" | sed -n 5p | grep -q '^err protocol usage: geometry GX GY GZ BX BY BZ SMEM \[CX CY CZ\]$'; then
    ok "cap_cluster_protocol: geometry's cluster words accepted, echoed and checked"
else
    printf '%s\n' "$cl_replies" >"$WORK/cap_cluster_protocol.out"
    fail "cap_cluster_protocol: replies" "$WORK/cap_cluster_protocol.out"
fi

# A capture whose grid is not made of its clusters (a corrupt one: a program's launch never is)
# is refused before anything is built (exit 3), the grid and the cluster named; never a launch
# without clusters
if python3 "$ROOT/tests/gpu/replay_kdcap.py" "$ROOT/tests/e2e/capture/copy.kdcap" --cluster 32 1 1 "$WORK/cap_cluster/c32.kdcap"; then
    KERNDIFF_SIMULATE="copy=all" run cap_cluster_bad 3 -- --launch "$WORK/cap_cluster/c32.kdcap" --max-time 1 "$CL_V1" "$CL_V1"
    has cap_cluster_bad err '^kerndiff: .*c32\.kdcap: the captured grid 1x1x1 is not made of its clusters of 32x1x1 blocks'
    lacks cap_cluster_bad out 'still computes'
else fail "cap_cluster_bad: replay_kdcap.py --cluster"; fi
