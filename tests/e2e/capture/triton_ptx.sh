# A Triton kernel's captured launch (issue 30 must-show (b), tests/gpu/replay_torch/triton.sh on
# a GPU): Triton appends two scratch pointers to every compiled kernel (global and profile
# scratch, NULL here), and the program's tensors sit at offsets inside one caching-allocator
# segment. Replayed with the PTX Triton compiled (tests/e2e/capture/triton_kernel.ptx, .target
# sm_90a: --arch sm_90a) on the simulated harness: the layout is taken, the scratch words go as
# plain bytes, each tensor's pointer is rebased to its offset in the segment's copy. A .py side
# without the capture's Triton section is refused, the two parameter counts named.
TP="$WORK/cap_triton"
mkdir -p "$TP"
python3 - "$TP/spec.json" <<'PY'
import json, struct, sys
n, seg = 1024, 16384
x = [0.001 * i for i in range(n)]
bias = [0.25 * (i % 7) for i in range(300)]
t = [x[i] * 1.5 + bias[i % 256] for i in range(n)]
before = bytearray(seg)
struct.pack_into("<%df" % n, before, 512, *x)
struct.pack_into("<300f", before, 4608, *bias)
after = bytearray(before)
struct.pack_into("<%df" % n, after, 6144, *[2 * v for v in t])
base = 0x7F0000000000
spec = {"argv": ["python3", "triton_prog.py"], "kernel": "kd_triton_kernel", "demangled": "kd_triton_kernel",
        "api": "cuLaunchKernelEx", "grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [0, 0, 0],
        "params": [[0, 8], [8, 8], [16, 8], [24, 4], [28, 4], [32, 8], [40, 8]],
        "paramdata": struct.pack("<QQQfiQQ", base + 512, base + 4608, base + 6144, 1.5, n, 0, 0).hex(),
        "allocs": [{"size": seg, "before": before.hex(), "after": after.hex()}],
        "pointers": [[0, 0, 512], [8, 0, 4608], [16, 0, 6144]]}
json.dump(spec, open(sys.argv[1], "w"))
PY
if python3 "$ROOT/tests/e2e/capture/kdcap_write.py" "$TP/spec.json" "$TP/triton.kdcap"; then
    ok "cap_triton: a Triton-shaped capture written"; else fail "cap_triton: kdcap_write.py"; fi
cp "$ROOT/tests/e2e/capture/triton_kernel.ptx" "$TP/k.ptx"

# the recorder of what kerndiff tells the harness, made by capture/cluster.sh (sourced before)
tp_harness="$WORK/cap_cluster/harness"
rm -f "$WORK/cap_cluster/proto.log"
KERNDIFF_SIMULATE="copy=all" KERNDIFF_HARNESS_DIR="$tp_harness" run cap_triton_ptx 0 -- \
    --launch "$TP/triton.kdcap" --arch sm_90a --max-time 1 "$TP/k.ptx" "$TP/k.ptx"
has cap_triton_ptx out '^  v1, v2: grid 1 \(captured\)  block 128 \(captured\)  smem 0 B \(captured\)$'
has cap_triton_ptx out '^          allocation 0: 16384 u8 in-out \(captured\)$'
has cap_triton_ptx out '^  from:   launch 1 of kd_triton_kernel \(cuLaunchKernelEx\), program: python3 triton_prog.py; '
lacks cap_triton_ptx err 'parameters|cannot be replayed'
# every tensor rebased to its offset in the segment's copy (buffer argument 7), the scratch
# words passed as the program passed them (zero), no patch for them
if [ -f "$WORK/cap_cluster/proto.log" ] &&
    grep -q '^patch 0 0 7 512$' "$WORK/cap_cluster/proto.log" && grep -q '^patch 1 0 7 4608$' "$WORK/cap_cluster/proto.log" &&
    grep -q '^patch 2 0 7 6144$' "$WORK/cap_cluster/proto.log" && grep -q '^arg 5 bytes 0000000000000000$' "$WORK/cap_cluster/proto.log" &&
    grep -q '^arg 6 bytes 0000000000000000$' "$WORK/cap_cluster/proto.log" && ! grep -Eq '^patch [56] ' "$WORK/cap_cluster/proto.log"; then
    ok "cap_triton_ptx: pointers rebased at their offsets, scratch words as plain bytes"
else fail "cap_triton_ptx: the protocol sent" "$WORK/cap_cluster/proto.log"; fi

# a .py side with a capture that has no Triton section (format 1: the JIT's compile of the launch
# was not recorded): refused (exit 3), the counts named; triton_py.sh replays one that has it
run cap_triton_py 3 -- --launch "$TP/triton.kdcap" "$ROOT/tests/gpu/replay_torch/tk.py" "$ROOT/tests/gpu/replay_torch/tk.py"
has cap_triton_py err '^kerndiff: v1: kd_triton_kernel takes 5 parameters, the captured kernel kd_triton_kernel took 7'
