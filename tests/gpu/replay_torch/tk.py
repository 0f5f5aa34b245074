"""tk.py — the Triton kernel of tests/gpu/replay_torch/triton_prog.py (issue 30 must-show): the
program launches it from a PyTorch script; triton.sh captures that launch and replays it with
this file on both sides (and with the PTX Triton compiled for it).

~150-400 us a launch on an H100 (ITERS dependent FMAs per element, 1M elements), so CUDA events'
overhead is well under the 2% the must-show allows between the program's median and the
replay's."""
import triton
import triton.language as tl


@triton.jit
def kd_triton_kernel(x_ptr, bias_ptr, out_ptr, scale, n, BLOCK: tl.constexpr, ITERS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    b = tl.load(bias_ptr + offs % 256, mask=mask, other=0.0)
    t = x * scale + b
    y = t
    for _ in range(ITERS):  # a contraction towards 2t: stays finite, depends on t
        y = y * 0.5 + t
    tl.store(out_ptr + offs, y, mask=mask)
