# A Triton launch captured from a PyTorch program, replayed with .py sides (issue 30 must-show
# (b)): the capture file's format-2 Triton section (docs/CAPTURE.md) carries the JIT's compiled
# kernel of the launch: its specialization data (what JITFunction.preload compiles from), the
# constexprs, num_warps/num_stages, the parameters and Triton's trailing scratch pointers. With
# it, `--launch F tk.py tk.py` compiles each side as the JIT did (Triton's ahead-of-time compile
# needs no GPU) and replays the program's parameter buffer on the simulated harness; a v2 with
# another body runs, a v2 whose signature changed is refused naming the parameter.
# (Sourced after triton_ptx.sh: reuses its segment layout.)
if python3 -c 'import triton' 2>/dev/null; then
TQ="$WORK/cap_triton_py2"
mkdir -p "$TQ"
python3 - "$TQ/spec.json" <<'PY'
import json, struct, sys
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia.compiler import CUDABackend
from triton.runtime.jit import serialize_specialization_data
n, seg = 1024, 16384
x = [0.001 * i for i in range(n)]
bias = [0.25 * (i % 7) for i in range(300)]
before = bytearray(seg)
struct.pack_into("<%df" % n, before, 512, *x)
struct.pack_into("<300f", before, 4608, *bias)
after = bytearray(before)
struct.pack_into("<%df" % n, after, 6144, *[1.0] * n)
base = 0x7F0000000000
# as the JIT hook records it for tk.py's launch (triton_prog.py: BLOCK=1024, ITERS=5120, num_warps=4)
sig = {"x_ptr": "*fp32", "bias_ptr": "*fp32", "out_ptr": "*fp32", "scale": "fp32", "n": "i32",
       "BLOCK": "constexpr", "ITERS": "constexpr"}
div = [["tt.divisibility", 16]]
opts = CUDABackend(GPUTarget("cuda", 90, 32)).parse_options({"num_warps": 4})
spec_data = serialize_specialization_data("tk.kd_triton_kernel", sig, {(5,): 1024, (6,): 16},
                                          {(0,): div, (1,): div, (2,): div, (4,): div}, opts, "key")
section = {"section": 1, "kernel": "kd_triton_kernel", "fn": "kd_triton_kernel", "specialization": spec_data,
           "num_warps": 4, "num_stages": 3, "num_ctas": 1, "maxnreg": None, "shared": 0,
           "constexprs": {"BLOCK": 1024, "ITERS": 16},
           "params": [{"name": k, "type": v, "constexpr": v == "constexpr"} for k, v in sig.items()],
           "scratch_pointers": 2, "scratch_sizes": [0, 0], "triton_version": "3.6.0"}
spec = {"argv": ["python3", "triton_prog.py"], "kernel": "kd_triton_kernel", "demangled": "kd_triton_kernel",
        "api": "cuLaunchKernelEx", "grid": [1, 1, 1], "block": [128, 1, 1], "cluster": [0, 0, 0],
        "params": [[0, 8], [8, 8], [16, 8], [24, 4], [28, 4], [32, 8], [40, 8]],
        "paramdata": struct.pack("<QQQfiQQ", base + 512, base + 4608, base + 6144, 1.5, n, 0, 0).hex(),
        "allocs": [{"size": seg, "before": before.hex(), "after": after.hex()}],
        "pointers": [[0, 0, 512], [8, 0, 4608], [16, 0, 6144]], "triton": section}
json.dump(spec, open(sys.argv[1], "w"))
PY
if python3 "$ROOT/tests/e2e/capture/kdcap_write.py" "$TQ/spec.json" "$TQ/triton.kdcap"; then
    ok "cap_triton_py2: a capture with a Triton section written"; else fail "cap_triton_py2: kdcap_write.py"; fi
tk=$ROOT/tests/gpu/replay_torch/tk.py
KERNDIFF_SIMULATE="median=50us" run cap_triton_py2_aa 0 -- --launch "$TQ/triton.kdcap" --max-time 1 --json "$TQ/aa.json" "$tk" "$tk"
has cap_triton_py2_aa out '^  v1, v2: grid 1 \(captured\)  block 128 \(captured\)  smem 0 B \(captured\)$'
has cap_triton_py2_aa out 'num_warps=4 .*ITERS=16'
lacks cap_triton_py2_aa err 'parameters|cannot be replayed|needs a value'
has cap_triton_py2_aa out 'as its JIT compiled the captured launch .*num_warps=4 \(the captured launch.s\)'
# the build used the captured specialization: the pointers' 16-byte divisibility makes 128-bit
# loads (kerndiff's own build of this file, without it, has none: no hand-made attributes)
has cap_triton_py2_aa out '^    of them 128-bit +[1-9][0-9]* +[1-9]'
if python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d['replay'] else 1)" "$TQ/aa.json" 2>"$TQ/aa.err"
then ok "cap_triton_py2_aa: JSON has the replay"; else fail "cap_triton_py2_aa: JSON replay" "$TQ/aa.err"; fi
# the same capture with .ptx sides (the PTX Triton compiled): they take the captured parameter
# buffer as it is, scratch pointers included, positionally; the section is for .py sides only
# (the GPU check found PTX sides refused: "parameter 1 is 'kd_triton_kernel_param_0'")
KERNDIFF_SIMULATE="median=50us" run cap_triton_py2_ptx 0 -- --launch "$TQ/triton.kdcap" --arch sm_90a --max-time 1 \
    "$ROOT/tests/e2e/capture/triton_kernel.ptx" "$ROOT/tests/e2e/capture/triton_kernel.ptx"
lacks cap_triton_py2_ptx err "the captured Triton kernel's is"
# a file that launches the kernel itself: under --launch the captured launch is the one replayed
# (no run of the file's own launch, no autotuner)
{ cat "$tk"; printf '\n\nif __name__ == "__main__":\n    import torch\n    x = torch.zeros(1024, device="cuda")\n    kd_triton_kernel[(1,)](x, x, x, 1.0, 1024, BLOCK=1024, ITERS=4)\n'; } >"$TQ/tk_own.py"
KERNDIFF_SIMULATE="median=50us" run cap_triton_py2_own 0 -- --launch "$TQ/triton.kdcap" --max-time 1 "$TQ/tk_own.py" "$TQ/tk_own.py"
has cap_triton_py2_own out 'as its JIT compiled the captured launch .*ITERS=16'
lacks cap_triton_py2_own err "not taken from the user's code"
# v2: another body, the same signature: replayed
sed 's/y = y \* 0.5 + t/y = y * 0.25 + t/' "$tk" >"$TQ/tk_v2.py"
KERNDIFF_SIMULATE="median=50us;median=40us" run cap_triton_py2_v2 0 -- --launch "$TQ/triton.kdcap" --max-time 1 "$tk" "$TQ/tk_v2.py"
lacks cap_triton_py2_v2 err 'parameters|cannot be replayed'
# v2: a parameter renamed: refused, the parameter named
sed 's/scale, n, BLOCK/alpha, n, BLOCK/; s/x \* scale/x * alpha/' "$tk" >"$TQ/tk_sig.py"
run cap_triton_py2_sig 3 -- --launch "$TQ/triton.kdcap" --max-time 1 "$tk" "$TQ/tk_sig.py"
has cap_triton_py2_sig err "^kerndiff: v2: kd_triton_kernel's parameter 4 is 'alpha', the captured Triton kernel's is 'scale'"
# a corrupt section: the reader refuses the line
python3 - "$TQ/spec.json" "$TQ/bad.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["triton"] = "{not json"
json.dump(s, open(sys.argv[2], "w"))
PY
python3 "$ROOT/tests/e2e/capture/kdcap_write.py" "$TQ/bad.json" "$TQ/bad.kdcap"
run cap_triton_py2_corrupt 3 -- --launch "$TQ/bad.kdcap" "$tk" "$tk"
has cap_triton_py2_corrupt err "manifest line [0-9]+: cannot read 'triton "
fi
# a kernel whose compiled form needs global scratch (a device-side tensor descriptor): the
# harness is asked for this side's own workspace (`arg 3 scratch BYTES`, 128 B x 4 programs),
# not given the program's word, and nothing is patched into it
if python3 -c 'import triton' 2>/dev/null; then
python3 - "$TQ/sk_spec.json" <<'PY'
import json, struct, sys
from triton.backends.compiler import GPUTarget
from triton.backends.nvidia.compiler import CUDABackend
from triton.runtime.jit import serialize_specialization_data
n = 1024
sig = {"x_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32", "BLOCK": "constexpr"}
div = [["tt.divisibility", 16]]
opts = CUDABackend(GPUTarget("cuda", 90, 32)).parse_options({"num_warps": 4})
spec_data = serialize_specialization_data("sk.sk_kernel", sig, {(3,): 256}, {(0,): div, (1,): div, (2,): div}, opts, "k")
section = {"section": 1, "kernel": "sk_kernel", "fn": "sk_kernel", "specialization": spec_data, "num_warps": 4,
           "num_stages": 3, "num_ctas": 1, "maxnreg": None, "shared": 1032, "constexprs": {"BLOCK": 256},
           "params": [{"name": k, "type": v, "constexpr": v == "constexpr"} for k, v in sig.items()],
           "scratch_pointers": 2, "scratch_sizes": [128, 0], "triton_version": "3.6.0"}
base = 0x7F0000000000
spec = {"argv": ["python3", "prog.py"], "kernel": "sk_kernel", "demangled": "sk_kernel", "api": "cuLaunchKernelEx",
        "grid": [4, 1, 1], "block": [128, 1, 1], "cluster": [0, 0, 0],
        "params": [[0, 8], [8, 8], [16, 4], [24, 8], [32, 8]],
        "paramdata": struct.pack("<QQiIQQ", base, base + 4096, n, 0, base + 8192, 0).hex(),
        "allocs": [{"size": 12288, "before": "00" * 12288, "after": "00" * 12288}],
        "pointers": [[0, 0, 0], [8, 0, 4096], [24, 0, 8192]], "triton": section}
json.dump(spec, open(sys.argv[1], "w"))
PY
python3 "$ROOT/tests/e2e/capture/kdcap_write.py" "$TQ/sk_spec.json" "$TQ/sk.kdcap"
sk=$ROOT/tests/e2e/capture/triton_scratch_kernel.py
rm -f "$WORK/cap_cluster/proto.log"
# the recorder's folder (capture/cluster.sh) stands for the build folder: the Triton helper too
ln -sf "$(cd "$(dirname "$KD")" && pwd)/kerndiff-triton.py" "$WORK/cap_cluster/harness/kerndiff-triton.py" 2>/dev/null
KERNDIFF_SIMULATE="copy=all" KERNDIFF_HARNESS_DIR="$WORK/cap_cluster/harness" run cap_triton_scratch 0 -- \
    --launch "$TQ/sk.kdcap" --max-time 1 "$sk" "$sk"
lacks cap_triton_scratch err 'parameters|cannot be replayed'
# the side's own dynamic shared memory (its compiled kernel's 1032 B; the synthetic capture says 0)
has cap_triton_scratch out '^  v1, v2: grid 4 \(captured\)  block 128 \(captured\)  smem 1032 B \(compiler\)$'
if [ -f "$WORK/cap_cluster/proto.log" ] && grep -q '^arg 3 scratch 512$' "$WORK/cap_cluster/proto.log" &&
    ! grep -q '^arg 3 bytes' "$WORK/cap_cluster/proto.log" && ! grep -Eq '^patch 3 ' "$WORK/cap_cluster/proto.log" &&
    grep -q '^arg 4 bytes 0000000000000000$' "$WORK/cap_cluster/proto.log" && grep -q '^patch 0 0 5 0$' "$WORK/cap_cluster/proto.log"; then
    ok "cap_triton_scratch: the global scratch is the side's own workspace (128 B x 4 programs), the rest as captured"
else fail "cap_triton_scratch: the protocol sent" "$WORK/cap_cluster/proto.log"; fi
fi
